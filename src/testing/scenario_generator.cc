#include "testing/scenario_generator.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <utility>

#include "dra/json/value.h"
#include "testing/rng.h"

namespace dra::testing {
namespace {

constexpr std::int64_t kTimeAdded = 1767225600;  // 2026-01-01T00:00:00Z, fixed for determinism
const std::vector<std::string> kModels = {"a100", "h100", "l4"};
const std::vector<std::string> kMemories = {"16Gi", "40Gi", "80Gi"};
const std::vector<std::string> kZones = {"zone-a", "zone-b"};

std::string DriverName(int d) { return "gpu-" + std::to_string(d) + ".example.com"; }
std::string NodeName(int n) { return "node-" + std::to_string(n); }

api::Quantity Q(const std::string& text) { return api::Quantity::MustParse(text); }

api::DeviceAttribute IntAttr(std::int64_t v) {
  api::DeviceAttribute a;
  a.int_value = v;
  return a;
}
api::DeviceAttribute StringAttr(std::string v) {
  api::DeviceAttribute a;
  a.string_value = std::move(v);
  return a;
}
api::DeviceAttribute BoolAttr(bool v) {
  api::DeviceAttribute a;
  a.bool_value = v;
  return a;
}
api::DeviceAttribute VersionAttr(std::string v) {
  api::DeviceAttribute a;
  a.version_value = std::move(v);
  return a;
}

template <class T>
api::List<T> ListOf(std::initializer_list<T> items) {
  api::List<T> l;
  for (const T& i : items) l.push_back(i);
  return l;
}

api::NodeSelector ZoneSelector(const std::string& zone) {
  api::NodeSelectorRequirement r;
  r.key = "topology.example.com/zone";
  r.operator_ = "In";
  r.values.push_back(zone);
  api::NodeSelectorTerm t;
  t.match_expressions.push_back(std::move(r));
  api::NodeSelector s;
  s.node_selector_terms.push_back(std::move(t));
  return s;
}

// A version-4 style UUID from the generator's stream (deterministic).
std::string MakeUuid(Rng& rng) {
  std::uint64_t a = rng.Next();
  std::uint64_t b = rng.Next();
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xfff),
                static_cast<unsigned>(0x8000 | (b >> 48 & 0x3fff)),
                static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

struct Builder {
  const GeneratorParams& p;
  Rng rng;
  GeneratedScenario out;
  std::vector<api::ResourceSlice> slices;
  std::vector<api::DeviceClass> classes;
  std::vector<api::DeviceTaintRule> rules;
  std::vector<api::ResourceClaim> in_use;
  std::vector<api::ResourceClaim> claims;
  // Devices that in-use claims may take: (driver, pool, device, multi, capacity).
  struct DeviceRef {
    std::string driver, pool, device, node;
    bool multi = false;
    std::map<std::string, api::DeviceCapacity> capacity;
  };
  std::vector<DeviceRef> refs;
  int slice_seq = 0;

  explicit Builder(const GeneratorParams& params) : p(params), rng(params.seed) { out.params = p; }

  bool Gate(api::Feature f) const { return out.gates.Enabled(f); }

  void DrawGates() {
    api::FeatureGates& g = out.gates;
    if (p.random_gates) {
      for (api::Feature f :
           {api::Feature::kDRADeviceTaints, api::Feature::kDRAConsumableCapacity,
            api::Feature::kDRADeviceBindingConditions, api::Feature::kDRAPartitionableDevices,
            api::Feature::kDRAListTypeAttributes, api::Feature::kDRAFractionalCapacityRange}) {
        g.Set(f, rng.Chance(0.5));
      }
      // The taint-rule gate follows the taint gate, as clusters set them.
      g.Set(api::Feature::kDRADeviceTaintRules, g.Enabled(api::Feature::kDRADeviceTaints));
    } else if (p.p_list_attributes > 0) {
      g.Set(api::Feature::kDRAListTypeAttributes, true);
    }
    out.feature_gates = g.ChangedString();
  }

  void Nodes() {
    for (int n = 0; n < p.nodes; ++n) {
      api::Node node;
      node.type = {"Node", "v1"};
      node.metadata.name = NodeName(n);
      node.metadata.labels["kubernetes.io/hostname"] = NodeName(n);
      node.metadata.labels["topology.example.com/zone"] = kZones[static_cast<std::size_t>(n % 2)];
      out.objects.emplace_back(std::move(node));
    }
    out.node = NodeName(0);
    // Admin access needs this label on the claim's namespace.
    api::Namespace ns;
    ns.type = {"Namespace", "v1"};
    ns.metadata.name = "default";
    ns.metadata.labels["resource.kubernetes.io/admin-access"] = "true";
    out.objects.emplace_back(std::move(ns));
  }

  std::string AttrSelector(const std::string& driver) {
    const std::string a = "device.attributes[\"" + driver + "\"]";
    const std::string c = "device.capacity[\"" + driver + "\"]";
    switch (rng.Below(9)) {
      case 0:
        return a + ".model == \"" + rng.Pick(kModels) + "\"";
      case 1:
        return a + ".index < " + std::to_string(rng.Between(1, std::max(1, p.devices_per_node)));
      case 2:
        return c + ".memory.compareTo(quantity(\"" + rng.Pick(kMemories) + "\")) >= 0";
      case 3:
        return a + ".healthy";
      case 4:
        return a + ".driverVersion.isGreaterThan(semver(\"1.1.0\"))";
      case 5:
        return "\"model\" in " + a + " && " + a + ".model != \"l4\"";
      case 6:
        return a + ".numa == " + std::to_string(rng.Below(2));
      case 7:
        // A runtime error on devices that lack the attribute (rare on purpose).
        return rng.Chance(0.1) ? a + ".missing == 1" : a + ".index % 2 == 0";
      default:
        return "device.driver == \"" + driver + "\" && " + a + ".model.startsWith(\"" +
               rng.Pick(kModels).substr(0, 1) + "\")";
    }
  }

  api::DeviceSelector Cel(std::string expression) {
    api::DeviceSelector s;
    s.cel = api::CELDeviceSelector{std::move(expression)};
    return s;
  }

  void Classes() {
    const int n = std::max(p.classes, p.drivers);
    for (int k = 0; k < n; ++k) {
      const std::string driver = DriverName(k % p.drivers);
      api::DeviceClass c;
      c.type = {"DeviceClass", "resource.k8s.io/v1"};
      c.metadata.name = "class-" + std::to_string(k);
      c.spec.selectors.push_back(Cel("device.driver == \"" + driver + "\""));
      if (rng.Chance(p.p_class_selector)) c.spec.selectors.push_back(Cel(AttrSelector(driver)));
      if (rng.Chance(p.p_class_config)) {
        api::DeviceClassConfiguration cfg;
        cfg.config.opaque = api::OpaqueDeviceConfiguration{
            driver, api::RawExtension{"{\"class\":\"" + c.metadata.name + "\"}"}};
        c.spec.config.push_back(std::move(cfg));
      }
      classes.push_back(std::move(c));
    }
  }

  api::ResourceSlice NewSlice(const std::string& driver, const std::string& pool) {
    api::ResourceSlice s;
    s.type = {"ResourceSlice", "resource.k8s.io/v1"};
    s.metadata.name = pool + "-" + driver + "-" + std::to_string(slice_seq++);
    s.spec.driver = driver;
    s.spec.pool.name = pool;
    s.spec.pool.generation = 1;
    return s;
  }

  api::Device NewDevice(const std::string& name, int index, const std::string& driver) {
    api::Device d;
    d.name = name;
    d.attributes["model"] = StringAttr(rng.Pick(kModels));
    d.attributes["index"] = IntAttr(index);
    d.attributes["numa"] = IntAttr(rng.Below(2));
    d.attributes["healthy"] = BoolAttr(rng.Chance(0.8));
    d.attributes["driverVersion"] = VersionAttr("1." + std::to_string(rng.Below(3)) + ".0");
    if (rng.Chance(p.p_list_attributes)) {
      api::DeviceAttribute links;
      links.int_values.push_back(rng.Below(2));
      if (rng.Chance(0.5)) links.int_values.push_back(2 + rng.Below(2));
      d.attributes["numaSet"] = std::move(links);
      api::DeviceAttribute models;
      models.string_values.push_back(rng.Pick(kModels));
      models.string_values.push_back("any");
      d.attributes["models"] = std::move(models);
    } else if (p.p_list_attributes > 0 && rng.Chance(0.5)) {
      // The same name scalar on some devices and list-typed on others.
      d.attributes["numaSet"] = IntAttr(rng.Below(2));
      d.attributes["models"] = StringAttr(rng.Pick(kModels));
    }
    d.capacity["memory"] = api::DeviceCapacity{Q(rng.Pick(kMemories)), std::nullopt};
    if (rng.Chance(p.p_multi_alloc)) {
      d.allow_multiple_allocations = true;
      if (rng.Chance(p.p_request_policy)) {
        api::CapacityRequestPolicy policy;
        if (rng.Chance(0.5)) {
          policy.default_ = Q("4Gi");
          policy.valid_range = api::CapacityRequestPolicyRange{Q("1Gi"), std::nullopt, Q("1Gi")};
        } else {
          policy.default_ = Q("8Gi");
          policy.valid_values = ListOf<api::Quantity>({Q("8Gi"), Q("16Gi")});
        }
        d.capacity["memory"].request_policy = std::move(policy);
      }
    }
    if (rng.Chance(p.p_taint)) {
      api::DeviceTaint t;
      t.key = "example.com/taint-" + std::to_string(rng.Below(2));
      t.value = rng.Chance(0.5) ? "bad" : "";
      t.effect = rng.Chance(0.7) ? "NoSchedule" : "NoExecute";
      t.time_added = api::Time::FromUnix(kTimeAdded);
      d.taints.push_back(std::move(t));
    }
    if (rng.Chance(p.p_binding_conditions)) {
      d.binding_conditions.push_back("example.com/ready");
      d.binding_failure_conditions.push_back("example.com/failed");
      if (rng.Chance(0.5)) d.binds_to_node = true;
    }
    (void)driver;
    return d;
  }

  void Remember(const api::ResourceSlice& s, const std::string& node) {
    for (const api::Device& d : s.spec.devices) {
      refs.push_back({s.spec.driver, s.spec.pool.name, d.name, d.node_name.value_or(node),
                      d.allow_multiple_allocations.value_or(false), d.capacity});
    }
  }

  // Devices of one pool spread over `parts` slices; the slice count is
  // announced one too high for an incomplete pool.
  void EmitPool(std::vector<api::ResourceSlice> pool_slices, bool incomplete,
                const std::string& node) {
    const std::int64_t count = static_cast<std::int64_t>(pool_slices.size()) + (incomplete ? 1 : 0);
    for (api::ResourceSlice& s : pool_slices) {
      s.spec.pool.resource_slice_count = count;
      Remember(s, node);
      slices.push_back(std::move(s));
    }
  }

  std::vector<api::ResourceSlice> Split(const api::ResourceSlice& templ,
                                        std::vector<api::Device> devices) {
    const int parts = std::max(1, std::min(p.slices_per_pool, static_cast<int>(devices.size())));
    std::vector<api::ResourceSlice> out_slices;
    const std::size_t per =
        (devices.size() + static_cast<std::size_t>(parts) - 1) / static_cast<std::size_t>(parts);
    for (std::size_t i = 0; i < devices.size(); i += std::min<std::size_t>(per, 64)) {
      api::ResourceSlice s = templ;
      s.metadata.name = templ.metadata.name + "-" + std::to_string(out_slices.size());
      for (std::size_t j = i; j < devices.size() && j < i + std::min<std::size_t>(per, 64); ++j) {
        s.spec.devices.push_back(std::move(devices[j]));
      }
      out_slices.push_back(std::move(s));
    }
    return out_slices;
  }

  void NodeLocalPool(int n, int d) {
    const std::string driver = DriverName(d);
    const std::string node = NodeName(n);
    api::ResourceSlice templ = NewSlice(driver, node);
    templ.spec.node_name = node;
    std::vector<api::Device> devices;
    devices.reserve(static_cast<std::size_t>(std::max(0, p.devices_per_node)));
    for (int i = 0; i < p.devices_per_node; ++i) {
      devices.push_back(NewDevice("dev-" + std::to_string(i), i, driver));
    }
    EmitPool(Split(templ, std::move(devices)), rng.Chance(p.p_incomplete_pool), node);
  }

  // Shared counters in their own slice; whole, half and quarter partitions.
  void PartitionablePool(int n, int d) {
    const std::string driver = DriverName(d);
    const std::string node = NodeName(n);
    const bool per_device = rng.Chance(p.p_per_device_nodes);
    const std::string pool = per_device ? "partitions-" + std::to_string(n) : node;
    const int sets = std::clamp(p.devices_per_node / 3, 1, 8);
    api::ResourceSlice counters = NewSlice(driver, pool);
    if (per_device) {
      counters.spec.all_nodes = true;
    } else {
      counters.spec.node_name = node;
    }
    for (int k = 0; k < sets; ++k) {
      api::CounterSet cs;
      cs.name = "gpu-" + std::to_string(k);
      cs.counters["memory"] = api::Counter{Q("80Gi")};
      cs.counters["slots"] = api::Counter{Q("4")};
      counters.spec.shared_counters.push_back(std::move(cs));
    }
    api::ResourceSlice templ = NewSlice(driver, pool);
    if (per_device) {
      templ.spec.per_device_node_selection = true;
    } else {
      templ.spec.node_name = node;
    }
    static const std::array<std::pair<const char*, const char*>, 3> kShapes = {
        {{"80Gi", "4"}, {"40Gi", "2"}, {"20Gi", "1"}}};
    std::vector<api::Device> devices;
    for (int i = 0; i < p.devices_per_node; ++i) {
      const int set = i % sets;
      const auto& shape = kShapes[static_cast<std::size_t>((i / sets) % 3)];
      api::Device dev = NewDevice("part-" + std::to_string(i), i, driver);
      dev.allow_multiple_allocations.reset();
      dev.capacity["memory"] = api::DeviceCapacity{Q(shape.first), std::nullopt};
      api::DeviceCounterConsumption c;
      c.counter_set = "gpu-" + std::to_string(set);
      c.counters["memory"] = api::Counter{Q(shape.first)};
      c.counters["slots"] = api::Counter{Q(shape.second)};
      dev.consumes_counters.push_back(std::move(c));
      if (per_device) {
        switch (rng.Below(4)) {
          case 0:
            dev.all_nodes = true;
            break;
          case 1:
            dev.node_selector = ZoneSelector(rng.Pick(kZones));
            break;
          default:
            dev.node_name = NodeName(rng.Chance(0.7) ? n : rng.Below(std::max(1, p.nodes)));
        }
      }
      devices.push_back(std::move(dev));
    }
    std::vector<api::ResourceSlice> pool_slices = Split(templ, std::move(devices));
    pool_slices.insert(pool_slices.begin(), std::move(counters));
    EmitPool(std::move(pool_slices), rng.Chance(p.p_incomplete_pool), node);
  }

  void NetworkPool(int d, int k) {
    const std::string driver = DriverName(d);
    api::ResourceSlice templ = NewSlice(driver, "fabric-" + std::to_string(k));
    if (rng.Chance(0.5)) {
      templ.spec.all_nodes = true;
    } else {
      templ.spec.node_selector = ZoneSelector(rng.Pick(kZones));
    }
    std::vector<api::Device> devices;
    const int count = std::max(1, p.devices_per_node / 2);
    devices.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
      devices.push_back(NewDevice("nic-" + std::to_string(i), i, driver));
    }
    EmitPool(Split(templ, std::move(devices)), rng.Chance(p.p_incomplete_pool), "");
  }

  void Slices() {
    for (int n = 0; n < p.nodes; ++n) {
      for (int d = 0; d < p.drivers; ++d) {
        if (rng.Chance(p.p_partitionable)) {
          PartitionablePool(n, d);
        } else {
          NodeLocalPool(n, d);
        }
      }
    }
    for (int d = 0; d < p.drivers; ++d) {
      for (int k = 0; k < 2; ++k) {
        if (rng.Chance(p.p_network_pool)) NetworkPool(d, k);
      }
    }
  }

  void TaintRules() {
    for (int d = 0; d < p.drivers; ++d) {
      if (!rng.Chance(p.p_taint_rule)) continue;
      api::DeviceTaintRule r;
      r.type = {"DeviceTaintRule", "resource.k8s.io/v1"};
      r.metadata.name = "taint-" + std::to_string(d);
      api::DeviceTaintSelector sel;
      sel.driver = DriverName(d);
      if (rng.Chance(0.7)) sel.pool = NodeName(rng.Below(std::max(1, p.nodes)));
      if (rng.Chance(0.5)) sel.device = "dev-" + std::to_string(rng.Below(p.devices_per_node));
      r.spec.device_selector = std::move(sel);
      r.spec.taint.key = "example.com/rule";
      r.spec.taint.value = "maintenance";
      r.spec.taint.effect = rng.Chance(0.5) ? "NoSchedule" : "NoExecute";
      r.spec.taint.time_added = api::Time::FromUnix(kTimeAdded);
      rules.push_back(std::move(r));
    }
  }

  // A claim that holds one device and is in use.
  void InUseClaims() {
    int k = 0;
    for (const DeviceRef& ref : refs) {
      if (!rng.Chance(p.p_allocated)) continue;
      const bool admin = rng.Chance(p.p_admin_access * 0.5);
      api::ResourceClaim c;
      c.type = {"ResourceClaim", "resource.k8s.io/v1"};
      c.metadata.name = "in-use-" + std::to_string(k++);
      c.metadata.namespace_ = "default";
      api::DeviceRequest r;
      r.name = "r";
      r.exactly.emplace();
      r.exactly->device_class_name = "class-0";
      r.exactly->allocation_mode = "ExactCount";
      r.exactly->count = 1;
      if (admin) r.exactly->admin_access = true;
      c.spec.devices.requests.push_back(std::move(r));
      api::DeviceRequestAllocationResult res;
      res.request = "r";
      res.driver = ref.driver;
      res.pool = ref.pool;
      res.device = ref.device;
      if (admin) res.admin_access = true;
      if (ref.multi) {
        res.share_id = MakeUuid(rng);
        for (const auto& [name, cap] : ref.capacity) {
          res.consumed_capacity[name] = Q(rng.Chance(0.5) ? "8Gi" : "4Gi");
        }
      }
      api::AllocationResult alloc;
      alloc.devices.results.push_back(std::move(res));
      if (!ref.node.empty()) {
        api::NodeSelectorRequirement req;
        req.key = "metadata.name";
        req.operator_ = "In";
        req.values.push_back(ref.node);
        api::NodeSelectorTerm term;
        term.match_fields.push_back(std::move(req));
        api::NodeSelector ns;
        ns.node_selector_terms.push_back(std::move(term));
        alloc.node_selector = std::move(ns);
      }
      c.status.allocation = std::move(alloc);
      in_use.push_back(std::move(c));
    }
  }

  api::List<api::DeviceToleration> Tolerations() {
    api::List<api::DeviceToleration> list;
    if (!rng.Chance(p.p_toleration)) return list;
    api::DeviceToleration t;
    switch (rng.Below(3)) {
      case 0:
        t.operator_ = "Exists";
        break;
      case 1:
        t.key = "example.com/rule";
        t.operator_ = "Exists";
        t.effect = rng.Chance(0.5) ? "NoSchedule" : "";
        break;
      default:
        t.key = "example.com/taint-" + std::to_string(rng.Below(2));
        t.operator_ = "Equal";
        t.value = "bad";
    }
    list.push_back(std::move(t));
    return list;
  }

  std::optional<api::CapacityRequirements> CapacityRequest() {
    if (!rng.Chance(p.p_capacity_request)) return std::nullopt;
    api::CapacityRequirements req;
    static const std::vector<std::string> kAmounts = {"1Gi", "4Gi", "8Gi", "10Gi", "16Gi", "40Gi"};
    req.requests["memory"] = Q(rng.Pick(kAmounts));
    return req;
  }

  int ClassCount() const { return static_cast<int>(classes.size()); }

  // The driver of the class most recently drawn for a request: constraints
  // mostly name an attribute domain the claim's devices have.
  std::string last_driver;

  void FillExact(api::ExactDeviceRequest& e, bool allow_admin) {
    const int k = rng.Below(ClassCount());
    e.device_class_name = classes[static_cast<std::size_t>(k)].metadata.name;
    const std::string driver = DriverName(k % p.drivers);
    last_driver = driver;
    if (rng.Chance(p.p_request_selector)) e.selectors.push_back(Cel(AttrSelector(driver)));
    if (rng.Chance(p.p_all_mode)) {
      e.allocation_mode = "All";
    } else {
      e.allocation_mode = "ExactCount";
      e.count = rng.Between(1, std::max(1, p.max_count));
    }
    if (allow_admin && rng.Chance(p.p_admin_access)) e.admin_access = true;
    e.tolerations = Tolerations();
    e.capacity = CapacityRequest();
  }

  std::string ConstraintAttribute(bool distinct) {
    const std::string domain =
        (rng.Chance(0.8) && !last_driver.empty() ? last_driver : DriverName(rng.Below(p.drivers))) +
        "/";
    if (rng.Chance(p.p_list_attributes)) return domain + (rng.Chance(0.5) ? "numaSet" : "models");
    if (distinct) return domain + (rng.Chance(0.7) ? "index" : "numa");
    return domain + (rng.Chance(0.5) ? "numa" : "model");
  }

  void Claims() {
    for (int c = 0; c < p.claims; ++c) {
      api::ResourceClaim claim;
      claim.type = {"ResourceClaim", "resource.k8s.io/v1"};
      claim.metadata.name = "claim-" + std::to_string(c);
      claim.metadata.namespace_ = "default";
      const int requests = rng.Between(1, std::max(1, p.max_requests));
      std::vector<std::string> names;
      for (int r = 0; r < requests; ++r) {
        api::DeviceRequest req;
        req.name = "req-" + std::to_string(r);
        if (rng.Chance(p.p_first_available)) {
          const int subs = rng.Between(2, 3);
          for (int s = 0; s < subs; ++s) {
            api::ExactDeviceRequest e;
            FillExact(e, false);
            api::DeviceSubRequest sub;
            sub.name = "sub-" + std::to_string(s);
            sub.device_class_name = e.device_class_name;
            sub.selectors = e.selectors;
            sub.allocation_mode = e.allocation_mode;
            sub.count = e.count;
            sub.tolerations = e.tolerations;
            sub.capacity = e.capacity;
            req.first_available.push_back(std::move(sub));
          }
        } else {
          req.exactly.emplace();
          FillExact(*req.exactly, true);
        }
        names.push_back(req.name);
        claim.spec.devices.requests.push_back(std::move(req));
      }
      auto constraint_requests = [&] {
        api::List<std::string> l;
        if (names.size() > 1 && rng.Chance(0.5)) {
          for (const std::string& n : names) {
            if (rng.Chance(0.7)) l.push_back(n);
          }
        }
        return l;
      };
      if (rng.Chance(p.p_match_attribute)) {
        api::DeviceConstraint k;
        k.requests = constraint_requests();
        k.match_attribute = ConstraintAttribute(false);
        claim.spec.devices.constraints.push_back(std::move(k));
      }
      if (rng.Chance(p.p_distinct_attribute)) {
        api::DeviceConstraint k;
        k.requests = constraint_requests();
        k.distinct_attribute = ConstraintAttribute(true);
        claim.spec.devices.constraints.push_back(std::move(k));
      }
      if (rng.Chance(p.p_class_config)) {
        api::DeviceClaimConfiguration cfg;
        if (rng.Chance(0.5)) cfg.requests.push_back(names.front());
        cfg.config.opaque = api::OpaqueDeviceConfiguration{
            DriverName(rng.Below(p.drivers)),
            api::RawExtension{"{\"claim\":\"" + claim.metadata.name + "\"}"}};
        claim.spec.devices.config.push_back(std::move(cfg));
      }
      claims.push_back(std::move(claim));
    }
  }

  GeneratedScenario Build() {
    DrawGates();
    Nodes();
    Classes();
    Slices();
    TaintRules();
    InUseClaims();
    Claims();
    for (auto& c : classes) out.objects.emplace_back(std::move(c));
    for (auto& s : slices) out.objects.emplace_back(std::move(s));
    for (auto& r : rules) out.objects.emplace_back(std::move(r));
    for (auto& c : in_use) out.objects.emplace_back(std::move(c));
    for (auto& c : claims) out.objects.emplace_back(std::move(c));
    return std::move(out);
  }
};

GeneratorParams Small() {
  GeneratorParams p;
  p.nodes = 2;
  p.devices_per_node = 4;
  p.claims = 1;
  return p;
}

GeneratorParams All() {
  GeneratorParams p;
  p.nodes = 3;
  p.devices_per_node = 8;
  p.drivers = 2;
  p.slices_per_pool = 2;
  p.claims = 2;
  p.max_requests = 2;
  p.max_count = 2;
  p.classes = 3;
  p.p_class_selector = 0.3;
  p.p_request_selector = 0.3;
  p.p_class_config = 0.3;
  p.p_network_pool = 0.2;
  p.p_incomplete_pool = 0.03;
  p.p_partitionable = 0.3;
  p.p_per_device_nodes = 0.3;
  p.p_taint = 0.15;
  p.p_taint_rule = 0.2;
  p.p_toleration = 0.3;
  p.p_multi_alloc = 0.3;
  p.p_request_policy = 0.5;
  p.p_capacity_request = 0.12;
  p.p_match_attribute = 0.2;
  p.p_distinct_attribute = 0.15;
  p.p_list_attributes = 0.15;
  p.p_first_available = 0.25;
  p.p_all_mode = 0.08;
  p.p_admin_access = 0.08;
  p.p_binding_conditions = 0.1;
  p.p_allocated = 0.2;
  p.random_gates = true;
  return p;
}

}  // namespace

std::vector<std::string> ProfileNames() {
  return {"small",    "all",         "bench",       "partitionable", "taints",
          "capacity", "constraints", "prioritized", "admin",         "binding"};
}

Result<GeneratorParams> ProfileParams(const std::string& profile) {
  if (profile == "small") return Small();
  if (profile == "all") return All();
  GeneratorParams p = Small();
  p.nodes = 3;
  p.devices_per_node = 6;
  p.claims = 2;
  if (profile == "bench") {
    p.nodes = 100;
    p.devices_per_node = 8;
    p.drivers = 1;
    p.claims = 2;
    p.p_class_selector = 0.5;
    p.p_request_selector = 0.5;
    p.p_allocated = 0.3;
    p.p_match_attribute = 0.2;
    return p;
  }
  if (profile == "partitionable") {
    p.p_partitionable = 0.8;
    p.p_per_device_nodes = 0.4;
    p.p_allocated = 0.2;
  } else if (profile == "taints") {
    p.p_taint = 0.4;
    p.p_taint_rule = 0.6;
    p.p_toleration = 0.5;
  } else if (profile == "capacity") {
    p.p_multi_alloc = 0.7;
    p.p_request_policy = 0.6;
    p.p_capacity_request = 0.6;
    p.p_allocated = 0.3;
  } else if (profile == "constraints") {
    p.drivers = 2;
    p.max_requests = 3;
    p.devices_per_node = 8;
    p.p_request_selector = 0.2;
    p.p_match_attribute = 0.6;
    p.p_distinct_attribute = 0.4;
    p.p_list_attributes = 0.4;
  } else if (profile == "prioritized") {
    p.p_first_available = 0.7;
    p.p_allocated = 0.3;
  } else if (profile == "admin") {
    p.p_admin_access = 0.5;
    p.p_all_mode = 0.3;
    p.p_allocated = 0.4;
  } else if (profile == "binding") {
    p.p_binding_conditions = 0.5;
    p.p_network_pool = 0.5;
  } else {
    std::string names;
    for (const std::string& n : ProfileNames()) names += (names.empty() ? "" : ", ") + n;
    return Error{"unknown profile \"" + profile + "\" (valid: " + names + ")"};
  }
  return p;
}

GeneratedScenario GenerateScenario(const GeneratorParams& params) {
  GeneratorParams p = params;
  p.nodes = std::max(1, p.nodes);
  p.drivers = std::max(1, p.drivers);
  p.devices_per_node = std::clamp(p.devices_per_node, 1, 128);
  p.classes = std::max(1, p.classes);
  return Builder(p).Build();
}

allocator::Scenario ToAllocatorScenario(const GeneratedScenario& scenario) {
  allocator::Scenario s;
  s.snapshot.features = allocator::Features::FromGates(scenario.gates);
  for (const api::Object& o : scenario.objects) {
    if (const auto* slice = std::get_if<api::ResourceSlice>(&o)) {
      s.snapshot.slices.push_back(*slice);
    } else if (const auto* c = std::get_if<api::DeviceClass>(&o)) {
      s.snapshot.classes.push_back(*c);
    } else if (const auto* r = std::get_if<api::DeviceTaintRule>(&o)) {
      s.snapshot.taint_rules.push_back(*r);
    } else if (const auto* n = std::get_if<api::Node>(&o)) {
      s.nodes.push_back(*n);
    } else if (const auto* claim = std::get_if<api::ResourceClaim>(&o)) {
      if (claim->status.allocation.has_value()) {
        s.snapshot.allocated_claims.push_back(*claim);
      } else {
        s.claims.push_back(*claim);
      }
    }
  }
  return s;
}

Result<std::string> ObjectsYaml(const std::vector<api::Object>& objects) {
  std::string out;
  bool first = true;
  for (const api::Object& o : objects) {
    Result<std::string> encoded = api::EncodeObject(o, api::ApiVersion::kV1);
    if (!encoded.ok())
      return encoded.failure().WithPrefix(std::string(api::KindOf(o)) + " " + api::MetaOf(o).name +
                                          ": ");
    Result<json::Value> tree = json::ParseJson(*encoded);
    if (!tree.ok()) return tree.failure().WithPrefix("encoded object does not parse: ");
    if (!first) out += "---\n";
    first = false;
    out += json::ToYaml(*tree);
  }
  return out;
}

Result<std::string> ManifestYaml(const GeneratedScenario& scenario) {
  Result<std::string> objects = ObjectsYaml(scenario.objects);
  if (!objects.ok()) return objects;
  return "# dra-gen: seed=" + std::to_string(scenario.params.seed) +
         "\n# dra-gen: node=" + scenario.node +
         "\n# dra-gen: feature-gates=" + scenario.feature_gates + "\n" + *objects;
}

}  // namespace dra::testing

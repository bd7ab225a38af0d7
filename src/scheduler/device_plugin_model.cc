#include "dra/scheduler/device_plugin_model.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

#include "dra/cel/api_device_view.h"
#include "dra/cel/program.h"
#include "scheduler/node_fit.h"

namespace dra::scheduler {
namespace {

// One whole device as a device plugin would advertise it.
struct WholeDevice {
  std::vector<bool> classes;  // matches class i
  bool used = false;
};

struct Demand {
  std::size_t class_index;
  std::int64_t count;  // -1: every matching device (allocationMode All)
};

struct ClassMatcher {
  std::vector<std::shared_ptr<const cel::Program>> selectors;
  bool valid = true;

  bool Matches(const api::Device& d, const std::string& driver) const {
    if (!valid) return false;
    cel::ApiDeviceView view(d, driver);
    for (const auto& p : selectors) {
      Result<bool> r = p->Evaluate(view);
      if (!r.ok() || !*r) return false;
    }
    return true;
  }
};

bool Unhealthy(const api::Device& d) {
  for (const api::DeviceTaint& t : d.taints) {
    if (t.effect == "NoSchedule" || t.effect == "NoExecute") return true;
  }
  return false;
}

// The model's run over one cluster: whole devices per node, then the pods in
// creation order, first fit from a rotating start as kube-scheduler's Filter
// without DRA would do it.
class DevicePluginModel {
 public:
  explicit DevicePluginModel(const Cluster& cluster) : cluster_(cluster) {
    CompileClasses();
    CollectDevices();
    for (const auto& t : cluster.templates) {
      templates_[t.metadata.namespace_ + "/" + t.metadata.name] = &t;
    }
    for (const auto& c : cluster.claims)
      claims_[c.metadata.namespace_ + "/" + c.metadata.name] = &c;
    for (const api::Node& n : cluster.nodes) capacity_.push_back(CapacityOf(n));
    usage_.resize(cluster.nodes.size());
  }

  DevicePluginResult Run() {
    std::vector<const api::Pod*> order;
    for (const api::Pod& p : cluster_.pods) order.push_back(&p);
    std::stable_sort(order.begin(), order.end(), [](const api::Pod* a, const api::Pod* b) {
      return a->metadata.creation_timestamp.seconds < b->metadata.creation_timestamp.seconds;
    });
    DevicePluginResult out;
    for (const api::Pod* pod : order) {
      if (pod->status.phase == "Succeeded" || pod->status.phase == "Failed") continue;
      DevicePluginPod result = Place(*pod);
      (result.node.empty() ? out.pending : out.scheduled) += 1;
      out.pods.push_back(std::move(result));
    }
    for (std::size_t i = 0; i < cluster_.nodes.size(); ++i) {
      DevicePluginNode dn{cluster_.nodes[i].metadata.name, 0, 0, usage_[i].pods};
      for (const WholeDevice& w : devices_[i]) {
        ++dn.devices;
        dn.used += w.used;
      }
      out.devices += dn.devices;
      out.devices_used += dn.used;
      out.nodes.push_back(std::move(dn));
    }
    return out;
  }

 private:
  void CompileClasses() {
    for (const api::DeviceClass& dc : cluster_.classes) {
      class_index_[dc.metadata.name] = matchers_.size();
      ClassMatcher m;
      for (const api::DeviceSelector& s : dc.spec.selectors) {
        if (!s.cel) continue;
        cel::Compilation c = cel::Compile(s.cel->expression);
        if (!c.ok()) {
          m.valid = false;
          break;
        }
        m.selectors.push_back(c.program);
      }
      matchers_.push_back(std::move(m));
    }
  }

  // Whole devices per node: healthy devices some class matches; the
  // partitions of one counter set form one whole device.
  void CollectDevices() {
    std::unordered_map<std::string, std::size_t> node_index;
    for (std::size_t i = 0; i < cluster_.nodes.size(); ++i) {
      node_index[cluster_.nodes[i].metadata.name] = i;
    }
    devices_.resize(cluster_.nodes.size());
    // Counter set key -> (node, index of its whole device).
    std::map<std::string, std::pair<std::size_t, std::size_t>> partitioned;
    for (const api::ResourceSlice& slice : cluster_.slices) {
      for (const api::Device& d : slice.spec.devices) {
        const std::string* node = d.node_name            ? &*d.node_name
                                  : slice.spec.node_name ? &*slice.spec.node_name
                                                         : nullptr;
        if (node == nullptr || Unhealthy(d)) continue;
        auto n = node_index.find(*node);
        if (n == node_index.end()) continue;
        std::vector<bool> matches(matchers_.size());
        bool any = false;
        for (std::size_t c = 0; c < matchers_.size(); ++c) {
          matches[c] = matchers_[c].Matches(d, slice.spec.driver);
          any |= matches[c];
        }
        if (!any) continue;
        if (d.consumes_counters.empty()) {
          devices_[n->second].push_back({std::move(matches), false});
          continue;
        }
        std::string key = slice.spec.driver + "/" + slice.spec.pool.name + "/" +
                          d.consumes_counters.front().counter_set;
        auto [it, inserted] = partitioned.emplace(key, std::make_pair(n->second, std::size_t{0}));
        if (inserted) {
          it->second.second = devices_[n->second].size();
          devices_[n->second].push_back({matches, false});
        } else {
          std::vector<bool>& have = devices_[it->second.first][it->second.second].classes;
          for (std::size_t c = 0; c < matches.size(); ++c) have[c] = have[c] || matches[c];
        }
      }
    }
  }

  // What the pod's claims ask for, as whole devices per class; false with
  // `reason` when a claim or class is missing. A missing class ends its
  // claim's requests only, so a later claim's problem is the one reported.
  bool Demands(const api::Pod& pod, std::vector<Demand>& demands, std::string& reason) const {
    for (const api::PodResourceClaim& entry : pod.spec.resource_claims) {
      const api::ResourceClaimSpec* spec = nullptr;
      if (entry.resource_claim_template_name) {
        auto t =
            templates_.find(pod.metadata.namespace_ + "/" + *entry.resource_claim_template_name);
        if (t != templates_.end()) spec = &t->second->spec.spec;
      } else if (entry.resource_claim_name) {
        auto c = claims_.find(pod.metadata.namespace_ + "/" + *entry.resource_claim_name);
        if (c != claims_.end()) spec = &c->second->spec;
      }
      if (spec == nullptr) {
        reason = "claim " + entry.name + " has no ResourceClaim or template";
        break;
      }
      for (const api::DeviceRequest& req : spec->devices.requests) {
        std::string cls;
        std::string mode;
        std::int64_t count = 1;
        if (req.exactly) {
          cls = req.exactly->device_class_name;
          mode = req.exactly->allocation_mode;
          count = req.exactly->count;
        } else if (!req.first_available.empty()) {
          cls = req.first_available.front().device_class_name;
          mode = req.first_available.front().allocation_mode;
          count = req.first_available.front().count;
        }
        auto ci = class_index_.find(cls);
        if (ci == class_index_.end()) {
          reason = "device class " + cls + " does not exist";
          break;
        }
        demands.push_back({ci->second, mode == "All" ? -1 : std::max<std::int64_t>(count, 1)});
      }
    }
    return reason.empty();
  }

  // First fit of whole devices per class on `node`: the devices taken, or
  // the reason the node falls short (nothing taken then).
  std::string Take(std::size_t node, const std::vector<Demand>& demands,
                   std::vector<std::size_t>& taken) {
    for (const Demand& d : demands) {
      std::int64_t got = 0;
      for (std::size_t i = 0; i < devices_[node].size(); ++i) {
        WholeDevice& w = devices_[node][i];
        if (w.used || !w.classes[d.class_index]) continue;
        if (d.count >= 0 && got == d.count) break;
        w.used = true;
        taken.push_back(i);
        ++got;
      }
      if ((d.count >= 0 && got < d.count) || (d.count < 0 && got == 0)) {
        for (std::size_t i : taken) devices_[node][i].used = false;
        taken.clear();
        return "Insufficient " + cluster_.classes[d.class_index].metadata.name + " devices";
      }
    }
    return "";
  }

  DevicePluginPod Place(const api::Pod& pod) {
    DevicePluginPod result{pod.metadata.namespace_, pod.metadata.name, "", "", 0};
    std::vector<Demand> demands;
    if (!Demands(pod, demands, result.reason)) return result;
    const std::size_t n = cluster_.nodes.size();
    if (n == 0) {
      result.reason = "0/0 nodes are available.";
      return result;
    }
    static const std::set<std::string> kNone;
    PodRequests requests = RequestsOf(pod);
    std::map<std::string, int> reasons;
    for (std::size_t pos = 0; pos < n; ++pos) {
      std::size_t node = (start_ + pos) % n;
      NodeFilterStatus fit =
          FilterNode(pod, requests, cluster_.nodes[node], capacity_[node], usage_[node], kNone);
      if (fit.ok()) {
        std::vector<std::size_t> taken;
        std::string why = Take(node, demands, taken);
        if (why.empty()) {
          result.node = cluster_.nodes[node].metadata.name;
          result.devices = static_cast<std::int64_t>(taken.size());
          usage_[node].Add(requests, 1);
          start_ = (node + 1) % n;
          return result;
        }
        ++reasons[why];
      }
      for (const std::string& r : fit.reasons) ++reasons[r];
    }
    result.reason = NodesAvailableMessage(n, reasons);
    return result;
  }

  const Cluster& cluster_;
  std::map<std::string, std::size_t> class_index_;
  std::vector<ClassMatcher> matchers_;
  std::vector<std::vector<WholeDevice>> devices_;  // per node
  std::map<std::string, const api::ResourceClaimTemplate*> templates_;
  std::map<std::string, const api::ResourceClaim*> claims_;
  std::vector<NodeCapacity> capacity_;
  std::vector<NodeUsage> usage_;
  std::size_t start_ = 0;  // the rotating first node
};

}  // namespace

DevicePluginResult SimulateDevicePlugin(const Cluster& cluster) {
  return DevicePluginModel(cluster).Run();
}

}  // namespace dra::scheduler

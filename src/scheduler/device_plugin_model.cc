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

}  // namespace

DevicePluginResult SimulateDevicePlugin(const Cluster& cluster) {
  DevicePluginResult out;
  std::map<std::string, std::size_t> class_index;
  std::vector<ClassMatcher> matchers;
  for (const api::DeviceClass& dc : cluster.classes) {
    class_index[dc.metadata.name] = matchers.size();
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
    matchers.push_back(std::move(m));
  }

  // Whole devices per node.
  std::unordered_map<std::string, std::size_t> node_index;
  for (std::size_t i = 0; i < cluster.nodes.size(); ++i) {
    node_index[cluster.nodes[i].metadata.name] = i;
  }
  std::vector<std::vector<WholeDevice>> devices(cluster.nodes.size());
  // Partitions of one counter set form one whole device: key -> (node, index).
  std::map<std::string, std::pair<std::size_t, std::size_t>> partitioned;
  for (const api::ResourceSlice& slice : cluster.slices) {
    for (const api::Device& d : slice.spec.devices) {
      const std::string* node = d.node_name            ? &*d.node_name
                                : slice.spec.node_name ? &*slice.spec.node_name
                                                       : nullptr;
      if (node == nullptr || Unhealthy(d)) continue;
      auto n = node_index.find(*node);
      if (n == node_index.end()) continue;
      std::vector<bool> matches(matchers.size());
      bool any = false;
      for (std::size_t c = 0; c < matchers.size(); ++c) {
        matches[c] = matchers[c].Matches(d, slice.spec.driver);
        any |= matches[c];
      }
      if (!any) continue;
      if (!d.consumes_counters.empty()) {
        std::string key = slice.spec.driver + "/" + slice.spec.pool.name + "/" +
                          d.consumes_counters.front().counter_set;
        auto [it, inserted] = partitioned.emplace(key, std::make_pair(n->second, std::size_t{0}));
        if (inserted) {
          it->second.second = devices[n->second].size();
          devices[n->second].push_back({matches, false});
        } else {
          std::vector<bool>& have = devices[it->second.first][it->second.second].classes;
          for (std::size_t c = 0; c < matches.size(); ++c) have[c] = have[c] || matches[c];
        }
        continue;
      }
      devices[n->second].push_back({std::move(matches), false});
    }
  }

  std::map<std::string, const api::ResourceClaimTemplate*> templates;
  for (const auto& t : cluster.templates) {
    templates[t.metadata.namespace_ + "/" + t.metadata.name] = &t;
  }
  std::map<std::string, const api::ResourceClaim*> claims;
  for (const auto& c : cluster.claims) claims[c.metadata.namespace_ + "/" + c.metadata.name] = &c;

  std::vector<const api::Pod*> order;
  for (const api::Pod& p : cluster.pods) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(), [](const api::Pod* a, const api::Pod* b) {
    return a->metadata.creation_timestamp.seconds < b->metadata.creation_timestamp.seconds;
  });

  std::vector<NodeCapacity> capacity;
  for (const api::Node& n : cluster.nodes) capacity.push_back(CapacityOf(n));
  std::vector<NodeUsage> usage(cluster.nodes.size());
  const std::set<std::string> none;
  std::size_t start = 0;
  const std::size_t n = cluster.nodes.size();
  for (const api::Pod* pod : order) {
    if (pod->status.phase == "Succeeded" || pod->status.phase == "Failed") continue;
    DevicePluginPod result{pod->metadata.namespace_, pod->metadata.name, "", "", 0};
    std::vector<Demand> demands;
    for (const api::PodResourceClaim& entry : pod->spec.resource_claims) {
      const api::ResourceClaimSpec* spec = nullptr;
      if (entry.resource_claim_template_name) {
        auto t =
            templates.find(pod->metadata.namespace_ + "/" + *entry.resource_claim_template_name);
        if (t != templates.end()) spec = &t->second->spec.spec;
      } else if (entry.resource_claim_name) {
        auto c = claims.find(pod->metadata.namespace_ + "/" + *entry.resource_claim_name);
        if (c != claims.end()) spec = &c->second->spec;
      }
      if (spec == nullptr) {
        result.reason = "claim " + entry.name + " has no ResourceClaim or template";
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
        auto ci = class_index.find(cls);
        if (ci == class_index.end()) {
          result.reason = "device class " + cls + " does not exist";
          break;
        }
        demands.push_back({ci->second, mode == "All" ? -1 : std::max<std::int64_t>(count, 1)});
      }
    }
    if (result.reason.empty() && n > 0) {
      PodRequests requests = RequestsOf(*pod);
      std::map<std::string, int> reasons;
      for (std::size_t pos = 0; pos < n && result.node.empty(); ++pos) {
        std::size_t node = (start + pos) % n;
        NodeFilterStatus fit =
            FilterNode(*pod, requests, cluster.nodes[node], capacity[node], usage[node], none);
        std::string why;
        if (fit.ok()) {
          // First fit, whole devices per class.
          std::vector<std::size_t> taken;
          for (const Demand& d : demands) {
            std::int64_t want = d.count;
            std::int64_t got = 0;
            for (std::size_t i = 0; i < devices[node].size(); ++i) {
              WholeDevice& w = devices[node][i];
              if (w.used || !w.classes[d.class_index]) continue;
              if (want >= 0 && got == want) break;
              w.used = true;
              taken.push_back(i);
              ++got;
            }
            if ((want >= 0 && got < want) || (want < 0 && got == 0)) {
              why = "Insufficient " + cluster.classes[d.class_index].metadata.name + " devices";
              break;
            }
          }
          if (!why.empty()) {
            for (std::size_t i : taken) devices[node][i].used = false;
          } else {
            result.node = cluster.nodes[node].metadata.name;
            result.devices = static_cast<std::int64_t>(taken.size());
            usage[node].Add(requests, 1);
            start = (node + 1) % n;
            break;
          }
        }
        if (!why.empty()) ++reasons[why];
        for (const std::string& r : fit.reasons) ++reasons[r];
      }
      if (result.node.empty()) {
        std::vector<std::string> counted;
        counted.reserve(reasons.size());
        for (const auto& [why, count] : reasons)
          counted.push_back(std::to_string(count) + " " + why);
        std::sort(counted.begin(), counted.end());
        result.reason = "0/" + std::to_string(n) + " nodes are available: ";
        for (std::size_t i = 0; i < counted.size(); ++i)
          result.reason += (i ? ", " : "") + counted[i];
        result.reason += ".";
      }
    } else if (result.reason.empty()) {
      result.reason = "0/0 nodes are available.";
    }
    (result.node.empty() ? out.pending : out.scheduled) += 1;
    out.pods.push_back(std::move(result));
  }
  for (std::size_t i = 0; i < n; ++i) {
    DevicePluginNode dn{cluster.nodes[i].metadata.name, 0, 0, usage[i].pods};
    for (const WholeDevice& w : devices[i]) {
      ++dn.devices;
      dn.used += w.used;
    }
    out.devices += dn.devices;
    out.devices_used += dn.used;
    out.nodes.push_back(std::move(dn));
  }
  return out;
}

}  // namespace dra::scheduler

// The device taint eviction controller (KEP-5055, DRADeviceTaints): bound
// pods whose devices carry a NoExecute taint they do not tolerate, or
// tolerate for fewer seconds than have passed, are evicted.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "scheduler/scheduler_impl.h"

namespace dra::scheduler {
namespace {

bool Tolerates(const api::DeviceToleration& t, const api::DeviceTaint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (t.operator_ == "Exists") return t.key.empty() || t.key == taint.key;
  return t.key == taint.key && t.value == taint.value;
}

}  // namespace

std::vector<std::string> Scheduler::EvictTaintedPods(std::int64_t now) {
  Impl& s = *impl_;
  // The NoExecute taints of an allocated device: the slice's own and those
  // of the DeviceTaintRules selecting it.
  std::vector<const api::DeviceTaint*> taints;
  auto collect = [&](const api::DeviceRequestAllocationResult& r) {
    taints.clear();
    auto own = s.no_execute_taints.find(r.driver + "/" + r.pool + "/" + r.device);
    if (own != s.no_execute_taints.end()) {
      for (const api::DeviceTaint& t : own->second) taints.push_back(&t);
    }
    for (const api::DeviceTaintRule& rule : s.cluster.taint_rules) {
      if (rule.spec.taint.effect != "NoExecute") continue;
      if (rule.spec.device_selector) {
        const api::DeviceTaintSelector& sel = *rule.spec.device_selector;
        if ((sel.driver && *sel.driver != r.driver) || (sel.pool && *sel.pool != r.pool) ||
            (sel.device && *sel.device != r.device)) {
          continue;
        }
      }
      taints.push_back(&rule.spec.taint);
    }
  };
  std::vector<std::string> evicted;
  for (std::size_t index = 0; index < s.pods.size(); ++index) {
    PodRecord& rec = s.pods[index];
    if (rec.state != PodState::kBound || rec.deleted) continue;
    bool evict = false;
    for (const std::string& key : rec.claims) {
      auto it = s.claims.find(key);
      if (it == s.claims.end() || !it->second.status.allocation) continue;
      for (const api::DeviceRequestAllocationResult& r :
           it->second.status.allocation->devices.results) {
        collect(r);
        for (const api::DeviceTaint* taint : taints) {
          // Tolerated without tolerationSeconds: never evicted; with them:
          // after the smallest; not tolerated: at once.
          bool forever = false;
          std::optional<std::int64_t> seconds;
          for (const api::DeviceToleration& tol : r.tolerations) {
            if (!Tolerates(tol, *taint)) continue;
            if (!tol.toleration_seconds) {
              forever = true;
              break;
            }
            std::int64_t sec = std::max<std::int64_t>(0, *tol.toleration_seconds);
            seconds = seconds ? std::min(*seconds, sec) : sec;
          }
          if (forever) continue;
          std::int64_t added = taint->time_added.set ? taint->time_added.seconds : now;
          if (added + seconds.value_or(0) <= now) evict = true;
        }
      }
    }
    if (!evict) continue;
    evicted.push_back(Key(rec.pod.metadata));
    s.Release(index, PodState::kFailed, "DeletionByDeviceTaintManager");
  }
  return evicted;
}

}  // namespace dra::scheduler

#include "allocator/taints.h"

#include <algorithm>

namespace dra::allocator {

bool Tolerates(const api::DeviceToleration& t, const api::DeviceTaint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  if (t.operator_ == "Exists") return true;
  if (t.operator_ == "Equal" || t.operator_.empty()) return t.value == taint.value;
  return false;
}

bool BlockedByTaints(const api::List<api::DeviceTaint>& taints,
                     const api::List<api::DeviceToleration>& tolerations) {
  for (const api::DeviceTaint& taint : taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    bool tolerated = std::any_of(tolerations.begin(), tolerations.end(),
                                 [&](const auto& t) { return Tolerates(t, taint); });
    if (!tolerated) return true;
  }
  return false;
}

}  // namespace dra::allocator

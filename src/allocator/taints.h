// Device taints and request tolerations (KEP-5055). Only NoSchedule and NoExecute taints keep a
// device from being allocated; tolerationSeconds plays no part in allocation.
#pragma once

#include "dra/api/resource.h"

namespace dra::allocator {

bool Tolerates(const api::DeviceToleration& toleration, const api::DeviceTaint& taint);

// True when some NoSchedule/NoExecute taint of the device is not tolerated.
bool BlockedByTaints(const api::List<api::DeviceTaint>& taints,
                     const api::List<api::DeviceToleration>& tolerations);

}  // namespace dra::allocator

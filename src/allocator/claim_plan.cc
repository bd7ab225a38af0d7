#include "allocator/claim_plan.h"

#include <algorithm>

namespace dra::allocator {
namespace {

struct EntrySource {
  std::string name;
  std::string request;
  const std::string* device_class_name;
  const api::List<api::DeviceSelector>* selectors;
  const std::string* allocation_mode;
  std::int64_t count;
  const std::optional<bool>* admin_access;  // null for subrequests
  const api::List<api::DeviceToleration>* tolerations;
  const std::optional<api::CapacityRequirements>* capacity;
  // How upstream's messages name it: a subrequest by its own name only.
  std::string own_name;
};

class Planner {
 public:
  Planner(const Inventory& inv, const GatheredPools& pools, const Scan& scan, Selection& selection)
      : inv_(inv), pools_(pools), scan_(scan), selection_(selection) {}

  Result<ClaimPlan> Plan(const api::ResourceClaim& claim) {
    ClaimPlan plan;
    plan.claim = &claim;
    plan.display = ClaimDisplayName(claim);
    const Features& f = inv_.features();
    std::int64_t minimum = 0;
    for (const api::DeviceRequest& req : claim.spec.devices.requests) {
      // Messages are built only on the error paths.
      auto prefix = [&] { return "claim " + plan.display + ", request " + req.name + ": "; };
      RequestPlan rp;
      rp.first_available = !req.first_available.empty();
      if (rp.first_available && !f.prioritized_list) {
        return Error{prefix() + "has subrequests, but the DRAPrioritizedList feature is disabled"};
      }
      if (!f.consumable_capacity && !inv_.stable()) {
        constexpr char kDisabled[] =
            "has capacity requests, but the DRAConsumableCapacity feature is "
            "disabled";
        if (req.exactly && req.exactly->capacity) return Error{prefix() + kDisabled};
        for (const api::DeviceSubRequest& sub : req.first_available) {
          if (sub.capacity) {
            return Error{"claim " + plan.display + ", subrequest " + sub.name + ": " + kDisabled};
          }
        }
      }
      if (req.exactly) {
        const api::ExactDeviceRequest& e = *req.exactly;
        Result<Entry> entry =
            MakeEntry(plan.display,
                      {req.name, req.name, &e.device_class_name, &e.selectors, &e.allocation_mode,
                       e.count, &e.admin_access, &e.tolerations, &e.capacity, req.name});
        if (!entry.ok()) return entry.failure();
        rp.entries.push_back(std::move(*entry));
      } else if (rp.first_available) {
        for (const api::DeviceSubRequest& s : req.first_available) {
          Result<Entry> entry =
              MakeEntry(plan.display, {req.name + "/" + s.name, req.name, &s.device_class_name,
                                       &s.selectors, &s.allocation_mode, s.count, nullptr,
                                       &s.tolerations, &s.capacity, s.name});
          if (!entry.ok()) return entry.failure();
          rp.entries.push_back(std::move(*entry));
        }
      } else {
        return Error{prefix() + "missing device class name (unsupported request type?)"};
      }
      std::int64_t least = rp.entries.front().count;
      for (const Entry& e : rp.entries) least = std::min(least, e.count);
      if (least > kMaxDevicesPerClaim - minimum) {
        return Error{prefix() + "adding " + std::to_string(least) +
                     " devices exceeds the claim limit of " + std::to_string(kMaxDevicesPerClaim) +
                     ", with " + std::to_string(minimum) + " already accounted for"};
      }
      minimum += least;
      plan.requests.push_back(std::move(rp));
    }
    const auto& constraints = claim.spec.devices.constraints;
    for (std::size_t i = 0; i < constraints.size(); ++i) {
      const api::DeviceConstraint& c = constraints[i];
      if (c.match_attribute) {
        plan.constraints.push_back({&c.requests, *c.match_attribute, false});
      } else if (c.distinct_attribute && !inv_.stable()) {
        plan.constraints.push_back({&c.requests, *c.distinct_attribute, true});
      } else {
        return Error{"claim " + plan.display + ", constraint #" + std::to_string(i) +
                     ": empty constraint (unsupported constraint type?)"};
      }
    }
    return plan;
  }

 private:
  Result<Entry> MakeEntry(const std::string& claim, const EntrySource& src) {
    auto prefix = [&] { return "claim " + claim + ", request " + src.own_name + ": "; };
    for (std::size_t i = 0; i < src.selectors->size(); ++i) {
      if (!(*src.selectors)[i].cel) {
        return Error{"claim " + claim + ", request " + src.own_name + ", selector #" +
                     std::to_string(i) + ": CEL expression empty (unsupported selector type?)"};
      }
    }
    Entry e;
    e.name = src.name;
    e.own_name = src.own_name;
    e.request = src.request;
    e.selectors = src.selectors;
    e.tolerations = src.tolerations;
    if (inv_.features().consumable_capacity && src.capacity->has_value()) {
      e.capacity_requests = &(*src.capacity)->requests;
    }
    if (src.admin_access != nullptr && src.admin_access->has_value()) {
      if (!inv_.features().admin_access) {
        return Error{prefix() + "admin access is requested, but the feature is disabled"};
      }
      e.admin_access = **src.admin_access;
    }
    if (src.device_class_name->empty()) {
      return Error{prefix() + "missing device class name (unsupported request type?)"};
    }
    e.device_class = inv_.FindClass(*src.device_class_name);
    if (e.device_class == nullptr) {
      return Error{prefix() + "could not retrieve device class " + *src.device_class_name +
                   ": deviceclass.resource.k8s.io \"" + *src.device_class_name + "\" not found"};
    }
    for (const api::DeviceSelector& s : e.device_class->spec.selectors) {
      if (!s.cel) {
        return Error{"class " + e.device_class->metadata.name +
                     ": CEL expression empty (unsupported selector type?)"};
      }
      e.class_selectors.push_back(selection_.Intern(s.cel->expression));
    }
    for (const api::DeviceSelector& s : *src.selectors) {
      e.request_selectors.push_back(selection_.Intern(s.cel->expression));
    }
    if (*src.allocation_mode == "ExactCount") {
      e.count = src.count;
    } else if (*src.allocation_mode == "All") {
      e.all = true;
      if (Status s = EnumerateAll(claim, prefix(), e); !s.ok()) return s.failure();
      e.count = static_cast<std::int64_t>(e.all_slots.size());
    } else {
      return Error{prefix() + "unsupported count mode " + *src.allocation_mode};
    }
    return e;
  }

  // Every selectable device of every usable pool, in scan order; an incomplete
  // or invalid pool makes "all" unknowable.
  Status EnumerateAll(const std::string& claim, const std::string& prefix, Entry& e) {
    // Pools in search order; a pool's devices occupy consecutive slots.
    Index slot = 0;
    for (const Pool& p : pools_.pools) {
      const PoolName& name = inv_.pool_name(p.pool);
      if (p.incomplete) {
        return Error{prefix + "asks for all devices, but resource pool " +
                     std::string(name.driver) + "/" + name.name + " is currently being updated"};
      }
      if (p.invalid) {
        return Error{prefix + "asks for all devices, but resource pool " +
                     std::string(name.driver) + "/" + name.name + " is currently invalid"};
      }
      for (; slot < scan_.devices.size() && scan_.pools[slot] == &p; ++slot) {
        Index d = scan_.devices[slot];
        Result<bool> ok = selection_.Selectable(e, claim, slot);
        if (!ok.ok()) return ok.failure();
        // Devices whose capacity cannot serve the entry are left out of the
        // list. Capacity is checked against the device alone here; what
        // claims in use and earlier picks consume is checked when the device is
        // picked.
        if (!*ok) continue;
        if (inv_.features().consumable_capacity) {
          Result<bool> fits = CapacityFits(inv_.table().capacities(d), e.capacity_requests, nullptr,
                                           nullptr, inv_.features().fractional_capacity_range);
          if (!fits.ok()) {
            return fits.failure().WithPrefix(prefix + "checking capacity for device " +
                                             std::string(inv_.device_name(d)) + ": ");
          }
          if (!*fits) continue;
        }
        e.all_slots.push_back(slot);
      }
    }
    return {};
  }

  const Inventory& inv_;
  const GatheredPools& pools_;
  const Scan& scan_;
  Selection& selection_;
};

}  // namespace

std::string ClaimDisplayName(const api::ResourceClaim& claim) {
  if (claim.metadata.namespace_.empty()) return claim.metadata.name;
  return claim.metadata.namespace_ + "/" + claim.metadata.name;
}

Scan ScanOrder(const Inventory& inv, const GatheredPools& pools) {
  Scan scan;
  for (const Pool& p : pools.pools) {
    if (p.incomplete || p.invalid) continue;
    for (Index s : p.slices) {
      const SliceRecord& r = inv.slices()[s];
      for (Index d = r.first_device; d < r.first_device + r.device_count; ++d) {
        scan.devices.push_back(d);
        scan.pools.push_back(&p);
      }
    }
  }
  return scan;
}

Result<std::vector<ClaimPlan>> PlanClaims(const Inventory& inventory, const GatheredPools& pools,
                                          const Scan& scan,
                                          std::span<const api::ResourceClaim> claims,
                                          Selection& selection) {
  Planner planner(inventory, pools, scan, selection);
  std::vector<ClaimPlan> plans;
  plans.reserve(claims.size());
  for (const api::ResourceClaim& c : claims) {
    Result<ClaimPlan> p = planner.Plan(c);
    if (!p.ok()) return p.failure();
    plans.push_back(std::move(*p));
  }
  return plans;
}

}  // namespace dra::allocator

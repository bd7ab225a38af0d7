// Claim constraints (spec 7): matchAttribute (all devices in scope share a
// value) and distinctAttribute (devices in scope have different values), with
// scalar semantics, or set semantics for list-type attributes when
// DRAListTypeAttributes is on. Both follow upstream's bookkeeping exactly,
// including the running intersection that never widens (17.5) and the
// per-request memory of distinct values (17.6).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "allocator/claim_plan.h"

namespace dra::allocator {

class Constraint {
 public:
  Constraint(const ConstraintPlan& plan, bool set_mode) : plan_(plan), set_mode_(set_mode) {}

  // True when the pick is accepted (and remembered).
  bool Add(const Entry& entry, const api::Device& device, const std::string& driver);
  void Remove(const Entry& entry, const api::Device& device, const std::string& driver);

 private:
  bool InScope(const Entry& entry) const;
  bool AddMatch(const api::DeviceAttribute& attr);
  bool DistinctFromStored(const api::DeviceAttribute& attr) const;

  const ConstraintPlan& plan_;
  const bool set_mode_;
  int accepted_ = 0;
  // Set mode: the type and elements all devices in scope have in common.
  int common_type_ = 0;
  std::vector<std::string> common_;
  const api::DeviceAttribute* first_ = nullptr;                                  // matchAttribute
  std::vector<std::pair<std::string, const api::DeviceAttribute*>> by_request_;  // distinct
};

// The attribute a fully qualified name refers to on a device of `driver`.
const api::DeviceAttribute* LookupAttribute(const api::Device& device, const std::string& driver,
                                            const std::string& name);

}  // namespace dra::allocator

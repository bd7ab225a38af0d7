// Claim constraints: matchAttribute (all devices in scope share a
// value) and distinctAttribute (devices in scope have different values), with
// scalar semantics, or set semantics for list-type attributes when
// DRAListTypeAttributes is on. Every accepted device is remembered in a
// stack, so removing the last one restores exactly the state before it was
// added: the running intersection widens again (older upstream allocators
// kept it narrowed) and distinct values are compared with every device in
// scope (older upstream allocators compared only the last device of each request).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "allocator/claim_plan.h"

namespace dra::allocator {

// An attribute as a typed set, for the set semantics of DRAListTypeAttributes: type 0 when it
// has no value of a known type; elements sorted and unique, as text.
struct AttributeSet {
  int type = 0;
  std::vector<std::string> elements;
};

class Constraint {
 public:
  Constraint(const ConstraintPlan& plan, bool set_mode) : plan_(plan), set_mode_(set_mode) {}

  // True when the pick is accepted (and remembered).
  bool Add(const Entry& entry, const Inventory& inventory, Index device);
  // REQUIRES: the entry's last Add was the most recent accepted one.
  void Remove(const Entry& entry);

 private:
  bool InScope(const Entry& entry) const;
  bool AddMatch(const NamedAttribute& attr);
  bool DistinctFromAccepted(const NamedAttribute& attr) const;

  const ConstraintPlan& plan_;
  const bool set_mode_;
  // The accepted devices' attributes, in order of acceptance.
  std::vector<const NamedAttribute*> accepted_;
  // Set-mode matchAttribute: after each accepted device, what all accepted
  // devices have in common.
  std::vector<AttributeSet> common_;
};

// The attribute a fully qualified name refers to on a device of `driver`.
const NamedAttribute* LookupAttribute(const DeviceTable::AttributeRefs& device,
                                      std::string_view driver, const std::string& name);

}  // namespace dra::allocator

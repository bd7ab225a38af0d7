#include "allocator/selection.h"

#include "allocator/claim_plan.h"
#include "allocator/node_match.h"

namespace dra::allocator {
namespace {

// Upstream appends a hint to "no such key" runtime errors.
std::string WithHint(std::string message) {
  if (message.find("no such key:") != std::string::npos) {
    message +=
        ". consider using CEL optional chaining (.? followed by orValue()) or guarding the check "
        "with has() for optional fields";
  }
  return message;
}

}  // namespace

Selection::Selection(const Inventory& inventory, const api::Node& node, const Scan& scan,
                     cel::CompileCache& cache, const std::atomic<bool>* cancelled)
    : inventory_(inventory), node_(node), scan_(scan), cache_(cache), cancelled_(cancelled) {}

int Selection::Intern(const std::string& expression) {
  auto [it, inserted] = ids_.try_emplace(expression, static_cast<int>(selectors_.size()));
  if (inserted) selectors_.push_back({expression, false, {}, {}});
  return it->second;
}

Result<bool> Selection::Evaluate(int id, Index slot, bool* compile_error) {
  Selector& s = selectors_[id];
  *compile_error = false;
  if (!s.compiled) {
    s.compilation = cache_.GetOrCompile(s.expression);
    s.compiled = true;
  }
  if (!s.compilation.ok()) {
    *compile_error = true;
    return Error{s.compilation.error.detail};
  }
  if (s.results.empty()) s.results.assign(scan_.devices.size(), -1);
  if (s.results[slot] >= 0) return s.results[slot] == 1;
  const DeviceRecord& d = inventory_.devices()[scan_.devices[slot]];
  if (!d.attributes.ok()) return Error{d.attributes.error()};
  ++evaluations_;
  Result<bool> r = s.compilation.program->Evaluate(*d.view, nullptr, cancelled_);
  if (!r.ok()) return r;
  s.results[slot] = *r ? 1 : 0;
  return r;
}

Result<bool> Selection::Selectable(const Entry& entry, const std::string& claim, Index slot) {
  const Index device = scan_.devices[slot];
  const DeviceRecord& d = inventory_.devices()[device];
  if (!inventory_.features().device_binding_and_status && d.has_binding_conditions) return false;
  bool compile_error = false;
  for (std::size_t i = 0; i < entry.class_selectors.size(); ++i) {
    Result<bool> r = Evaluate(entry.class_selectors[i], slot, &compile_error);
    if (!r.ok()) {
      return Error{"class " + entry.device_class->metadata.name + ": selector #" +
                   std::to_string(i) +
                   (compile_error ? ": CEL compile error: " : ": CEL runtime error: ") +
                   WithHint(r.error())};
    }
    if (!*r) return false;
  }
  for (std::size_t i = 0; i < entry.request_selectors.size(); ++i) {
    Result<bool> r = Evaluate(entry.request_selectors[i], slot, &compile_error);
    if (!r.ok()) {
      return Error{"claim " + claim + ": selector #" + std::to_string(i) +
                   (compile_error ? ": CEL compile error: " : ": CEL runtime error: ") +
                   WithHint(r.error())};
    }
    if (!*r) return false;
  }
  const api::ResourceSlice& slice = *inventory_.slices()[d.slice].slice;
  if (slice.spec.per_device_node_selection.value_or(false)) {
    Result<bool> m =
        NodeMatches(d.device->node_name, d.device->all_nodes, d.device->node_selector, node_);
    if (!m.ok()) {
      return Error{"failed to perform node selection for device " +
                   inventory_.DeviceIdString(device) + ": " + m.error()};
    }
    return *m;
  }
  return true;
}

}  // namespace dra::allocator

#include "allocator/selection.h"

#include "allocator/claim_plan.h"
#include "allocator/node_match.h"
#include "dra/util/mutex.h"

namespace dra::allocator {
namespace {

// Upstream appends a hint to "no such key" runtime errors.
std::string WithHint(std::string message) {
  if (message.find("no such key:") != std::string::npos) {
    message +=
        ". consider using CEL optional chaining (.? followed by "
        "orValue()) or guarding the check "
        "with has() for optional fields";
  }
  return message;
}

}  // namespace

SelectorCache::SelectorCache(const Inventory& inventory, cel::CompileCache& compile_cache)
    : inventory_(inventory), compile_cache_(compile_cache) {}

const SelectorCache::Selector* SelectorCache::Intern(const std::string& expression) {
  MutexLock lock(mu_);
  auto [it, inserted] = selectors_.try_emplace(expression);
  if (inserted) {
    auto s = std::make_unique<Selector>();
    s->expression = expression;
    s->compilation = compile_cache_.GetOrCompile(expression);
    const std::size_t n = inventory_.devices().size();
    s->results = std::make_unique<std::atomic<std::int8_t>[]>(n);
    for (std::size_t i = 0; i < n; ++i) s->results[i].store(-1, std::memory_order_relaxed);
    it->second = std::move(s);
  }
  return it->second.get();
}

std::size_t SelectorCache::bytes() const {
  MutexLock lock(mu_);
  return selectors_.size() * inventory_.devices().size();
}

Selection::Selection(const Inventory& inventory, SelectorCache& cache, NodeRef node,
                     const Scan& scan, const std::atomic<bool>* cancelled)
    : inventory_(inventory), cache_(cache), node_(node), scan_(scan), cancelled_(cancelled) {}

int Selection::Intern(const std::string& expression) {
  auto [it, inserted] = ids_.try_emplace(expression, static_cast<int>(selectors_.size()));
  if (inserted) selectors_.push_back(cache_.Intern(expression));
  return it->second;
}

Result<bool> Selection::Evaluate(int id, Index slot, bool* compile_error) {
  return EvaluateDevice(id, scan_.devices[slot], compile_error);
}

Result<bool> Selection::EvaluateDevice(int id, Index device, bool* compile_error) {
  const SelectorCache::Selector& s = *selectors_[static_cast<std::size_t>(id)];
  *compile_error = false;
  if (!s.compilation.ok()) {
    *compile_error = true;
    return Error{s.compilation.error.detail};
  }
  const std::int8_t known = s.results[device].load(std::memory_order_relaxed);
  if (known >= 0) return known == 1;
  if (const std::string* e = inventory_.attribute_error(device)) return Error{*e};
  ++evaluations_;
  Result<bool> r =
      s.compilation.program->Evaluate(inventory_.table().view(device), nullptr, cancelled_);
  if (!r.ok()) return r;
  s.results[device].store(*r ? 1 : 0, std::memory_order_relaxed);
  return r;
}

Result<bool> Selection::Selectable(const Entry& entry, const std::string& claim, Index slot) {
  const Index device = scan_.devices[slot];
  const DeviceRecord& d = inventory_.devices()[device];
  if (!inventory_.features().device_binding_and_status && d.has_binding_conditions) return false;
  bool compile_error = false;
  auto failure = [&](const std::string& owner, std::size_t i, const std::string& message) {
    if (compile_error) {
      return Error{owner + ": selector #" + std::to_string(i) + ": CEL compile error: " + message};
    }
    return Error{owner + ": selector #" + std::to_string(i) + " on device " +
                 inventory_.DeviceIdString(device) + ": CEL runtime error: " + WithHint(message)};
  };
  for (std::size_t i = 0; i < entry.class_selectors.size(); ++i) {
    Result<bool> r = Evaluate(entry.class_selectors[i], slot, &compile_error);
    if (!r.ok()) return failure("class " + entry.device_class->metadata.name, i, r.error());
    if (!*r) return false;
  }
  for (std::size_t i = 0; i < entry.request_selectors.size(); ++i) {
    Result<bool> r = Evaluate(entry.request_selectors[i], slot, &compile_error);
    if (!r.ok()) return failure("claim " + claim, i, r.error());
    if (!*r) return false;
  }
  if (inventory_.slices()[d.slice].per_device_node_selection.value_or(false)) {
    const DeviceExtra& x = inventory_.extra(device);
    Result<bool> m = NodeMatches(x.node_name, x.all_nodes, x.node_selector, node_);
    if (!m.ok()) return m.failure();
    return *m;
  }
  return true;
}

}  // namespace dra::allocator

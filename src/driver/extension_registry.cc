// The registry of driver extensions (dra/driver/extension.h).
#include <map>
#include <mutex>
#include <string>

#include "dra/driver/extension.h"
#include "driver/builtin_extensions.h"

namespace dra::driver {
namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, std::unique_ptr<DriverExtension>, std::less<>> by_name;  // guarded by mu
};

void Add(Registry& r, std::unique_ptr<DriverExtension> extension) {
  std::lock_guard lock(r.mu);
  std::string name(extension->name());
  r.by_name[std::move(name)] = std::move(extension);
}

// Never destroyed: extensions may be looked up until the process ends,
// static destructors included. The built-in ones are added on first use.
Registry& Instance() {
  static Registry* registry = [] {
    auto* r = new Registry;
    for (std::unique_ptr<DriverExtension>& e : BuiltinDriverExtensions()) Add(*r, std::move(e));
    return r;
  }();
  return *registry;
}

}  // namespace

void RegisterDriverExtension(std::unique_ptr<DriverExtension> extension) {
  Add(Instance(), std::move(extension));
}

const DriverExtension* FindDriverExtension(std::string_view name) {
  Registry& r = Instance();
  std::lock_guard lock(r.mu);
  auto it = r.by_name.find(name);
  return it == r.by_name.end() ? nullptr : it->second.get();
}

std::vector<const DriverExtension*> DriverExtensions() {
  Registry& r = Instance();
  std::lock_guard lock(r.mu);
  std::vector<const DriverExtension*> out;
  for (const auto& [name, extension] : r.by_name) out.push_back(extension.get());
  return out;
}

}  // namespace dra::driver

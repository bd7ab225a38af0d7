// The registry of driver extensions (dra/driver/extension.h).
#include <map>
#include <string>

#include "dra/driver/extension.h"
#include "dra/util/mutex.h"
#include "driver/builtin_extensions.h"

namespace dra::driver {
namespace {

struct Registry {
  Mutex mu;
  std::map<std::string, std::unique_ptr<DriverExtension>, std::less<>> by_name DRA_GUARDED_BY(mu);
};

void Add(Registry& r, std::unique_ptr<DriverExtension> extension) {
  MutexLock lock(r.mu);
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
  MutexLock lock(r.mu);
  auto it = r.by_name.find(name);
  return it == r.by_name.end() ? nullptr : it->second.get();
}

std::vector<const DriverExtension*> DriverExtensions() {
  Registry& r = Instance();
  MutexLock lock(r.mu);
  std::vector<const DriverExtension*> out;
  for (const auto& [name, extension] : r.by_name) out.push_back(extension.get());
  return out;
}

}  // namespace dra::driver

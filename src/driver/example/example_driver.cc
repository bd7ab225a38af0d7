#include "driver/example/example_driver.h"

#include <sys/stat.h>

#include <cctype>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "dra/json/value.h"
#include "driver/example/gpu_config.h"
#include "driver/example/health_control.h"
#include "driver/example/slice_inventory.h"

namespace dra::driver::example {
namespace {

// "gpu-0-mig-1g10gb-19-0" -> "GPU_0_MIG_1G10GB_19_0".
std::string EnvKey(std::string_view name) {
  std::string out;
  for (char c : name) {
    out += std::isalnum(static_cast<unsigned char>(c))
               ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
               : '_';
  }
  return out;
}

// The device ID of the example driver's env vars: the name without "gpu-".
std::string EnvId(std::string_view device) {
  if (device.substr(0, 4) == "gpu-") device.remove_prefix(4);
  return EnvKey(device);
}

struct FileStamp {
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  std::int64_t mtime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};

FileStamp Stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {true, st.st_dev, st.st_ino, st.st_size,
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

}  // namespace

Status ValidateExampleDriverOptions(const ExampleDriverOptions& options) {
  if (options.node_name.empty()) return Error{"--node-name (NODE_NAME) is required"};
  if (options.num_devices < 0 || options.num_devices > kMaxSimulatedGpus) {
    return Error{"--num-devices " + std::to_string(options.num_devices) + ": must be 0 to " +
                 std::to_string(kMaxSimulatedGpus)};
  }
  if (options.driver_name.empty()) return Error{"--driver-name must not be empty"};
  // Taint keys are "<driver>/unhealthy"; the prefix must be a DNS subdomain.
  if (options.driver_name.size() > 253) return Error{"--driver-name is longer than 253 characters"};
  if (options.inventory_slices) {
    Result<Inventory> inventory =
        InventoryFromSlices(*options.inventory_slices, options.driver_name);
    if (!inventory) return inventory.failure();
  }
  return {};
}

ExampleDriver::ExampleDriver(ExampleDriverOptions options)
    : options_(std::move(options)),
      gpus_(MakeSimulatedGpus(options_.node_name,
                              options_.inventory_slices ? 0 : options_.num_devices)) {
  if (!options_.now) options_.now = [] { return static_cast<std::int64_t>(std::time(nullptr)); };
  if (options_.inventory_slices) {
    Result<Inventory> inventory =
        InventoryFromSlices(*options_.inventory_slices, options_.driver_name);
    // Validated by ValidateExampleDriverOptions; an empty inventory otherwise.
    slice_inventory_ = inventory ? std::move(*inventory) : Inventory{};
  }
  Result<Inventory> inventory = Enumerate();
  if (inventory) {
    for (Pool& pool : inventory->pools) {
      for (api::Device& d : pool.devices) {
        std::string pool_name = pool.name.empty() ? options_.node_name : pool.name;
        devices_.emplace(std::make_pair(std::move(pool_name), d.name), std::move(d));
      }
    }
  }
}

ExampleDriver::~ExampleDriver() { Stop(); }

Status ExampleDriver::Start(DriverEvents& events) {
  {
    MutexLock lock(mu_);
    events_ = &events;
  }
  if (options_.health_control_file.empty()) return {};
  // Stamped before the first read, so a change racing with it is seen.
  FileStamp initial = Stamp(options_.health_control_file);
  if (Status s = ReloadHealthControl(); !s) return s;
  {
    MutexLock lock(poll_mu_);
    stopping_ = false;
  }
  poller_ = std::thread([this, initial] {
    FileStamp last = initial;
    MutexLock lock(poll_mu_);
    while (true) {
      const auto deadline = std::chrono::steady_clock::now() + options_.health_poll_interval;
      while (!stopping_ && poll_cv_.WaitUntil(poll_mu_, deadline) != std::cv_status::timeout) {
      }
      if (stopping_) break;
      FileStamp now = Stamp(options_.health_control_file);
      if (now == last) continue;
      last = now;
      lock.Unlock();
      if (Status s = ReloadHealthControl(); !s) {
        std::cerr << "dra driver example: " << options_.health_control_file << ": " << s.error()
                  << " (health unchanged)\n";
      }
      lock.Lock();
    }
  });
  return {};
}

void ExampleDriver::Stop() {
  {
    MutexLock lock(poll_mu_);
    stopping_ = true;
  }
  poll_cv_.NotifyAll();
  if (poller_.joinable()) poller_.join();
  MutexLock lock(mu_);
  events_ = nullptr;
}

Status ExampleDriver::ReloadHealthControl() {
  std::string text;
  {
    std::ifstream in(options_.health_control_file);
    if (in) {
      std::ostringstream buf;
      buf << in.rdbuf();
      text = buf.str();
    }
  }
  std::set<std::string> names;
  for (const SimulatedGpu& g : gpus_) names.insert(g.name);
  Result<std::map<std::string, std::string>> parsed = ParseHealthControl(text, names);
  if (!parsed) return parsed.failure();
  ApplyUnhealthy(*parsed);
  return {};
}

Status ExampleDriver::SetGpuHealth(const std::string& gpu, bool healthy,
                                   const std::string& reason) {
  std::set<std::string> names;
  for (const SimulatedGpu& g : gpus_) names.insert(g.name);
  std::map<std::string, std::string> reasons;
  {
    MutexLock lock(mu_);
    for (const auto& [name, u] : unhealthy_) reasons[name] = u.reason;
  }
  std::string line = gpu + (healthy ? " healthy" : " unhealthy " + reason) + "\n";
  Result<std::map<std::string, std::string>> one = ParseHealthControl(line, names);
  if (!one) return one.failure();
  if (healthy) {
    reasons.erase(gpu);
  } else {
    reasons[gpu] = one->at(gpu);
  }
  ApplyUnhealthy(reasons);
  return {};
}

void ExampleDriver::ApplyUnhealthy(const std::map<std::string, std::string>& reasons) {
  DriverEvents* events = nullptr;
  {
    MutexLock lock(mu_);
    std::map<std::string, UnhealthyGpu> next;
    bool changed = reasons.size() != unhealthy_.size();
    for (const auto& [name, reason] : reasons) {
      auto it = unhealthy_.find(name);
      if (it != unhealthy_.end() && it->second.reason == reason) {
        next[name] = it->second;  // keeps timeAdded
      } else {
        next[name] = UnhealthyGpu{reason, api::Time::FromUnix(options_.now())};
        changed = true;
      }
    }
    if (!changed) return;
    unhealthy_ = std::move(next);
    events = events_;
    // Notifying under mu_ would deadlock an SDK that calls Enumerate from
    // inside InventoryChanged; events_ stays valid until Stop, which joins
    // the only other caller (the poller) before clearing it.
  }
  if (events != nullptr) {
    events->InventoryChanged();
    events->HealthChanged();
  }
}

Result<Inventory> ExampleDriver::Enumerate() {
  if (slice_inventory_) return *slice_inventory_;
  SimulatedPoolOptions pool_options;
  pool_options.driver_name = options_.driver_name;
  pool_options.mode = options_.mode;
  {
    MutexLock lock(mu_);
    pool_options.unhealthy = unhealthy_;
  }
  Inventory inventory;
  inventory.pools.push_back(BuildSimulatedPool(gpus_, pool_options));
  return inventory;
}

std::vector<DeviceHealth> ExampleDriver::Health() {
  if (slice_inventory_) {
    std::vector<DeviceHealth> out;
    for (const Pool& pool : slice_inventory_->pools) {
      for (const api::Device& d : pool.devices) {
        out.push_back(DeviceHealth{pool.name, d.name, Health::kHealthy, "", 0});
      }
    }
    return out;
  }
  std::map<std::string, UnhealthyGpu> unhealthy;
  {
    MutexLock lock(mu_);
    unhealthy = unhealthy_;
  }
  SimulatedPoolOptions pool_options;
  pool_options.driver_name = options_.driver_name;
  pool_options.mode = options_.mode;
  Pool pool = BuildSimulatedPool(gpus_, pool_options);
  std::vector<DeviceHealth> out;
  for (const api::Device& d : pool.devices) {
    DeviceHealth h;
    h.device = d.name;
    auto it = unhealthy.find(GpuOfDevice(d.name));
    if (it == unhealthy.end()) {
      h.health = Health::kHealthy;
    } else {
      h.health = Health::kUnhealthy;
      h.message = "GPU " + it->first + " is unhealthy: " + it->second.reason;
    }
    out.push_back(std::move(h));
  }
  return out;
}

namespace {

// status.devices entry of a prepared device: its string and version
// attributes as a JSON object in data.
api::AllocatedDeviceStatus DeviceStatus(const AllocatedDevice& a, const api::Device& device) {
  json::Value data = json::Value::Object();
  for (const auto& [name, attribute] : device.attributes) {
    const std::optional<std::string>& text =
        attribute.string_value ? attribute.string_value : attribute.version_value;
    if (text) data.members.push_back(json::Member{name, json::Value::String(*text), {}});
  }
  api::AllocatedDeviceStatus status;
  status.pool = a.pool;
  status.device = a.device;
  status.share_id = a.share_id;
  status.data = api::RawExtension{json::ToJson(data)};
  return status;
}

}  // namespace

Result<PreparedClaim> ExampleDriver::Prepare(const ClaimToPrepare& claim) {
  PreparedClaim prepared;
  prepared.claim_edits.env = {"KUBERNETES_NODE_NAME=" + options_.node_name,
                              "DRA_RESOURCE_DRIVER_NAME=" + options_.driver_name};
  for (const AllocatedDevice& a : claim.devices) {
    auto found = devices_.find({a.pool, a.device});
    if (found == devices_.end()) {
      return Error{"device " + a.pool + "/" + a.device + " of request " + a.full_request +
                   " is not a device of this driver on node " + options_.node_name};
    }
    Result<GpuConfig> config = EffectiveGpuConfig(a.opaque_configs);
    if (!config) return config.failure().WithPrefix("request " + a.request + ": ");
    std::string id = "GPU_DEVICE_" + EnvId(a.device);
    PreparedDevice p;
    p.pool = a.pool;
    p.device = a.device;
    std::vector<std::string>& env = p.edits.env;
    env.push_back("GPU_DEVICE_" + EnvKey(a.device) + "_RESOURCE_CLAIM=" + claim.uid);
    env.push_back(std::string("DRA_ADMIN_ACCESS=") + (a.admin_access ? "true" : "false"));
    env.push_back(id + "=" + a.device);
    env.push_back(id + "_SHARING_STRATEGY=" + config->strategy);
    if (config->strategy == "TimeSlicing") {
      env.push_back(id + "_TIMESLICE_INTERVAL=" + config->interval);
    } else {
      env.push_back(id + "_PARTITION_COUNT=" + std::to_string(config->partition_count));
    }
    for (const auto& [name, quantity] : a.consumed_capacity) {
      env.push_back(id + "_" + EnvKey(name) + "=" + quantity.String());
    }
    prepared.devices.push_back(std::move(p));
    if (options_.device_status) prepared.device_status.push_back(DeviceStatus(a, found->second));
  }
  return prepared;
}

Status ExampleDriver::Unprepare(const ClaimToUnprepare& claim) {
  // Nothing outside the SDK's CDI spec and checkpoint to undo.
  (void)claim;
  return {};
}

}  // namespace dra::driver::example

// minimal_driver: a complete DRA driver in about 100 lines, built on the dra
// driver SDK (docs/DRIVER-SDK.md walks through it). It publishes
// --num-devices fake accelerators, hands each prepared device to containers
// as environment variables through CDI, honours one opaque config field and
// reports every device healthy.
#include <optional>
#include <string>
#include <utility>

#include "dra/driver/flags.h"
#include "dra/json/value.h"

namespace {

using dra::Result;
using dra::Status;
using namespace dra::driver;  // NOLINT(google-build-using-namespace)

// Reads {"greeting": "<text>"} from an opaque config; other fields are errors.
Result<std::string> Greeting(const std::string& parameters) {
  auto json = dra::json::ParseJson(parameters);
  if (!json.ok() || !json->is_object()) return dra::Error{"opaque config: not a JSON object"};
  std::string greeting = "hello";
  for (const auto& member : json->members) {
    if (member.key != "greeting" || !member.value.is_string()) {
      return dra::Error{"opaque config: unknown field or not a string: " + member.key};
    }
    greeting = member.value.text;
  }
  return greeting;
}

class MinimalDriver final : public Driver {
 public:
  explicit MinimalDriver(int devices) : devices_(devices) {}

  Result<Inventory> Enumerate() override {
    Pool pool;  // no name: the pool is named after the node
    for (int i = 0; i < devices_; ++i) {
      dra::api::Device device;
      device.name = "accel-" + std::to_string(i);
      device.attributes["index"].int_value = i;
      device.attributes["model"].string_value = "minimal-1";
      device.capacity["memory"].value = dra::api::Quantity::MustParse("16Gi");
      pool.devices.push_back(std::move(device));
    }
    Inventory inventory;
    inventory.pools.push_back(std::move(pool));
    return inventory;
  }

  Result<PreparedClaim> Prepare(const ClaimToPrepare& claim) override {
    PreparedClaim prepared;
    for (const AllocatedDevice& allocated : claim.devices) {
      std::string greeting = "hello";
      for (const std::string& config : allocated.opaque_configs) {
        auto parsed = Greeting(config);
        if (!parsed.ok()) return parsed.failure();
        greeting = *parsed;  // later configs override earlier ones
      }
      PreparedDevice device;
      device.pool = allocated.pool;
      device.device = allocated.device;
      device.edits.env.push_back("MINIMAL_DEVICE=" + allocated.device);
      device.edits.env.push_back("MINIMAL_GREETING=" + greeting);
      prepared.devices.push_back(std::move(device));
    }
    prepared.claim_edits.env.push_back("MINIMAL_CLAIM=" + claim.namespace_ + "/" + claim.name);
    return prepared;
  }

  // Nothing to undo: the SDK removes the claim's CDI spec itself.
  Status Unprepare(const ClaimToUnprepare& /*claim*/) override { return {}; }

  bool ReportsHealth() const override { return true; }
  std::vector<DeviceHealth> Health() override {
    std::vector<DeviceHealth> health;
    for (int i = 0; i < devices_; ++i) {
      DeviceHealth device;
      device.device = "accel-" + std::to_string(i);
      device.health = dra::driver::Health::kHealthy;
      health.push_back(device);
    }
    return health;
  }

 private:
  int devices_;
};

}  // namespace

int main(int argc, char** argv) {
  DriverCommandLine command_line("minimal_driver", "a DRA driver with fake accelerators",
                                 "minimal.example.com");
  int devices = 4;
  command_line.AddIntFlag("--num-devices", "NUM_DEVICES", "number of fake accelerators", &devices,
                          0, 1024);
  if (std::optional<int> exit_status = command_line.Parse(argc, argv)) return *exit_status;
  MinimalDriver driver(devices);
  return RunPluginFromFlags(driver, command_line.flags());
}

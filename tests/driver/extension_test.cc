// The driver extension registry (dra/driver/extension.h): the built-in
// drivers found by name, built from their flags, and a driver of one's own.
#include "dra/driver/extension.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace dra::driver {
namespace {

std::size_t DeviceCount(Driver& d) {
  Result<Inventory> inventory = d.Enumerate();
  EXPECT_TRUE(inventory.ok()) << inventory.error();
  std::size_t n = 0;
  if (inventory.ok()) {
    for (const Pool& p : inventory->pools) n += p.devices.size();
  }
  return n;
}

TEST(DriverExtension, BuiltinDriversAreFoundByName) {
  const DriverExtension* example = FindDriverExtension("example");
  ASSERT_NE(example, nullptr);
  EXPECT_EQ(example->name(), "example");
  ASSERT_NE(FindDriverExtension("nvml"), nullptr);
  EXPECT_EQ(FindDriverExtension("no-such-driver"), nullptr);
  std::vector<std::string> names;
  for (const DriverExtension* e : DriverExtensions()) names.emplace_back(e->name());
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_NE(std::find(names.begin(), names.end(), "example"), names.end());
}

TEST(DriverExtension, ExampleDriverFromItsFlags) {
  const DriverExtension* example = FindDriverExtension("example");
  ASSERT_NE(example, nullptr);
  Result<std::unique_ptr<Driver>> three =
      example->Create({"gpu.example.com", "node-1", {"--num-devices=3"}, {}});
  ASSERT_TRUE(three.ok()) << three.error();
  EXPECT_EQ(DeviceCount(**three), 3u);
  // The same flag as two arguments, and MIG partitions: more devices per GPU.
  Result<std::unique_ptr<Driver>> mig = example->Create(
      {"gpu.example.com", "node-1", {"--num-devices", "1", "--mig-partitions"}, {}});
  ASSERT_TRUE(mig.ok()) << mig.error();
  EXPECT_GT(DeviceCount(**mig), 1u);
}

TEST(DriverExtension, BadFlagsAreErrorsNamingThem) {
  const DriverExtension* example = FindDriverExtension("example");
  ASSERT_NE(example, nullptr);
  Result<std::unique_ptr<Driver>> unknown =
      example->Create({"gpu.example.com", "n", {"--no-such-flag"}, {}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("--no-such-flag"), std::string::npos) << unknown.error();
  Result<std::unique_ptr<Driver>> both = example->Create(
      {"gpu.example.com", "n", {"--mig-partitions", "--gpu-allow-multiple-allocations"}, {}});
  ASSERT_FALSE(both.ok());
  EXPECT_NE(both.error().find("cannot be combined"), std::string::npos) << both.error();
  Result<std::unique_ptr<Driver>> too_many =
      example->Create({"gpu.example.com", "n", {"--num-devices=5000"}, {}});
  EXPECT_FALSE(too_many.ok());
  // The NVML driver serves what NVML reports, never given slices.
  Result<std::unique_ptr<Driver>> nvml = FindDriverExtension("nvml")->Create(
      {"gpu.nvidia.com", "n", {}, std::vector<api::ResourceSlice>{}});
  EXPECT_FALSE(nvml.ok());
}

class OwnExtension final : public DriverExtension {
 public:
  std::string_view name() const override { return "own-test-driver"; }
  std::string_view summary() const override { return "a test driver"; }
  Result<std::unique_ptr<Driver>> Create(const DriverConfig&) const override {
    return Error{"not buildable"};
  }
  int Main(int, char**) const override { return 7; }
};

TEST(DriverExtension, ProgramsRegisterTheirOwn) {
  RegisterDriverExtension(std::make_unique<OwnExtension>());
  const DriverExtension* own = FindDriverExtension("own-test-driver");
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->Main(0, nullptr), 7);
  EXPECT_NE(FindDriverExtension("example"), nullptr);  // the built-in ones stay
}

}  // namespace
}  // namespace dra::driver

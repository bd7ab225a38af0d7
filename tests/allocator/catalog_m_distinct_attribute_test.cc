// distinctAttribute constraints: cases of upstream's shared allocator suite
// (release v0.37.2, see allocator_test_util.h), one test each, including the release's
// distinct-constraint-single-request-* and -two-requests-with-count-not-distinct
// cases, which assert the correct answer where older upstream allocators forgot
// values: every pair of devices in scope must differ, not only the last device
// of each request.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const Features kCC = Feat("ConsumableCapacity");

std::string Distinct(const std::string& attribute, const std::string& requests = "") {
  return "{distinctAttribute: driver-a/" + attribute +
         (requests.empty() ? "" : ", requests: [" + requests + "]") + "}";
}
std::string StringDevices(std::initializer_list<const char*> values) {
  std::string out;
  int i = 1;
  for (const char* v : values) {
    out += (i > 1 ? ", " : "") + std::string("{name: device-") + std::to_string(i) +
           ", attributes: {stringAttribute: {string: " + v + "}}}";
    ++i;
  }
  return Devices("slice-1", "node-1", "pool-1", "driver-a", out);
}
std::string NumaDevices(std::initializer_list<int> values) {
  std::string out;
  int i = 1;
  for (int v : values) {
    out += (i > 1 ? ", " : "") + std::string("{name: device-") + std::to_string(i) +
           ", attributes: {numa: {int: " + std::to_string(v) + "}}}";
    ++i;
  }
  return Devices("slice-1", "node-1", "pool-1", "driver-a", out);
}

TEST(CatalogM, WithDistinctConstraints) {
  auto device = [](const char* name, const char* version, int numa, bool b) {
    return std::string("{name: ") + name +
           ", allowMultipleAllocations: true, attributes: {driverVersion: {version: " + version +
           "}, numa: {int: " + std::to_string(numa) +
           "}, boolAttribute: {bool: " + (b ? "true" : "false") + "}}}";
  };
  Expect(
      Devices("slice-1", "node-1", "pool-1", "driver-a",
              device("device-1", "1.0.0", 0, true) + ", " + device("device-2", "1.0.1", 1, false) +
                  ", " + device("device-3", "1.0.2", 2, true) + ", " +
                  device("device-4", "1.0.0", 3, true)) +
          ClaimYaml("claim-0",
                    {Exact("req-0", "class-a", 1), Exact("req-1", "class-a", 1),
                     Exact("req-2", "class-a", 1), Exact("req-3", "class-a", 1)},
                    Distinct("boolAttribute", "req-0, req-1") + ", " +
                        Distinct("driverVersion", "req-0, req-1, req-2") + ", " +
                        Distinct("numa", "req-0, req-1, req-2, req-3")),
      Variants(kCC),
      std::string(kNode1) +
          "req-0 driver-a/pool-1/device-1 share\nreq-1 driver-a/pool-1/device-2 share\n"
          "req-2 driver-a/pool-1/device-3 share\nreq-3 driver-a/pool-1/device-4 share\n");
}

// device-3 repeats device-1's value although it differs from device-2's (older
// upstream allocators compared it with device-2's only; fixed in this release).
TEST(CatalogM, DistinctConstraintSingleRequestCount3NotDistinct) {
  Expect(StringDevices({"value1", "value2", "value1"}) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 3)}, Distinct("stringAttribute")),
         Variants(kCC), kUnschedulable);
}

TEST(CatalogM, DistinctConstraintSingleRequestCount3AllDistinct) {
  Expect(StringDevices({"value1", "value2", "value3"}) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 3)}, Distinct("stringAttribute")),
         Variants(kCC),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1\nreq-0 driver-a/pool-1/device-2\n"
             "req-0 driver-a/pool-1/device-3\n");
}

// After req-1 fails on device-2, the distinct state must still
// hold device-1's value for req-0.
TEST(CatalogM, DistinctConstraintTwoRequestsWithCountNotDistinct) {
  Expect(StringDevices({"value1", "value2", "value1"}) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2), Exact("req-1", "class-a", 1)},
                       Distinct("stringAttribute", "req-0, req-1")),
         Variants(kCC), kUnschedulable);
}

TEST(CatalogM, WithDistinctConstraintsAttributeNotSet) {
  Expect(
      Devices("slice-1", "node-1", "pool-1", "driver-a",
              "{name: device-1, allowMultipleAllocations: true}") +
          ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}, Distinct("boolAttribute", "req-0")),
      Variants(kCC), kUnschedulable);
}

TEST(CatalogM, WithDistinctConstraintsUnknownTypeAttribute) {
  ExpectError(
      Devices("slice-1", "node-1", "pool-1", "driver-a",
              "{name: device-1, allowMultipleAllocations: true, attributes: {boolAttribute: {}}}") +
          ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}, Distinct("boolAttribute", "req-0")),
      Variants(kCC), "unsupported attribute value");
}

// device-1 is shareable, so only the distinct constraint keeps req-1 off it:
// req-1 falls back to subReq-1 and device-2; req-2, outside the constraint,
// shares device-1.
TEST(CatalogM, WithDistinctConstraintsWithSubrequests) {
  const std::string b = Sel(R"(device.attributes["driver-a"].boolAttribute)");
  auto request = [&](const std::string& name) {
    return FirstAvailable(name, {Sub("subReq-0", "class-a", 1, b), Sub("subReq-1", "class-a", 1)});
  };
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1, allowMultipleAllocations: true, attributes: {boolAttribute: "
                 "{bool: true}}}, "
                 "{name: device-2, allowMultipleAllocations: true, attributes: {boolAttribute: "
                 "{bool: false}}}") +
             ClaimYaml("claim-0", {request("req-0"), request("req-1"), request("req-2")},
                       Distinct("boolAttribute", "req-0, req-1")),
         Variants(Feat("ConsumableCapacity,PrioritizedList")),
         std::string(kNode1) +
             "req-0/subReq-0 driver-a/pool-1/device-1 share\n"
             "req-1/subReq-1 driver-a/pool-1/device-2 share\n"
             "req-2/subReq-0 driver-a/pool-1/device-1 share\n");
}

TEST(CatalogM, DistinctConstraintSingleRequestMultipleDevicesAttributeNotSet) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1}, {name: device-2}, {name: device-3}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 3)}, Distinct("numa")),
         Variants(kCC), kUnschedulable);
}

TEST(CatalogM, DistinctConstraintSingleRequestNotEnoughDistinctValues) {
  Expect(NumaDevices({1, 2, 2, 2}) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 3)}, Distinct("numa")),
         Variants(kCC), kUnschedulable);
}

// device-3 repeats device-1's value, so device-4 completes the set.
TEST(CatalogM, DistinctConstraintSingleRequestMultipleDevicesAttributeSet) {
  Expect(NumaDevices({1, 2, 1, 3}) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 3)}, Distinct("numa")),
         Variants(kCC),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1\nreq-0 driver-a/pool-1/device-2\n"
             "req-0 driver-a/pool-1/device-4\n");
}

const std::string kMultiClass = ClassYaml(
    "class-a", R"(device.driver == "driver-a" && device.allowMultipleAllocations == true)");
RunOptions OwnClasses() {
  RunOptions o;
  o.classes = false;
  return o;
}
std::string RangeDevice(const std::string& name, const std::string& value,
                        const std::string& attr) {
  return "{name: " + name +
         ", allowMultipleAllocations: true, attributes: {stringAttribute: {string: " + attr +
         "}}, capacity: {capacity-0: {value: \"" + value +
         "\", requestPolicy: {default: \"2\", validRange: {min: \"2\", step: \"2\", max: "
         "\"4\"}}}}}";
}

TEST(CatalogM, DistinctConstraintOneMultiAllocatableDeviceWithDistinctConstraint) {
  Expect(kMultiClass +
             Devices("slice-1", "node-1", "pool-1", "driver-a",
                     RangeDevice("device-1", "2", "stringAttributeValue")) +
             ClaimYaml("claim-0",
                       {Exact("req-0", "class-a", 1, CapReq("1")),
                        Exact("req-1", "class-a", 1, CapReq("1"))},
                       Distinct("stringAttribute")),
         Variants(kCC), kUnschedulable, OwnClasses());
}

TEST(CatalogM, DistinctConstraintTwoMultiAllocatableDevicesWithDistinctConstraint) {
  Expect(kMultiClass +
             Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                     RangeDevice("device-1", "4", "stringAttributeValue1")) +
             Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                     RangeDevice("device-2", "4", "stringAttributeValue2")) +
             ClaimYaml("claim-0",
                       {Exact("req-0", "class-a", 1, CapReq("2")),
                        Exact("req-1", "class-a", 1, CapReq("2"))},
                       Distinct("stringAttribute")),
         Variants(kCC),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 share cc=capacity-0=2\n"
             "req-1 driver-a/pool-1/device-2 share cc=capacity-0=2\n",
         OwnClasses());
}

}  // namespace
}  // namespace dra::allocator::catalog

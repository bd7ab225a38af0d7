// matchAttribute and distinctAttribute with scalar attributes, after the
// constraint cases of upstream's shared allocator suite.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string TwoDevices(const std::string& attrs1, const std::string& attrs2) {
  return Slice("slice-1", "pool-1",
               "{name: device-1, attributes: {" + attrs1 + "}}, {name: device-2, attributes: {" +
                   attrs2 + "}}");
}

std::string Count2With(const std::string& constraint) {
  return Claim("claim-0",
               OneRequest("req-0", "class-a", 2) + "    constraints:\n    - " + constraint + "\n");
}

TEST(MatchAttribute, AllTypesMatch) {
  std::string attrs =
      "numa: {int: 1}, driverVersion: {version: 1.0.0}, stringAttribute: {string: s}, "
      "boolAttribute: {bool: true}";
  std::string claim = Claim("claim-0", OneRequest("req-0", "class-a", 2) + R"(    constraints:
    - {matchAttribute: driver-a/numa}
    - {matchAttribute: driver-a/driverVersion}
    - {matchAttribute: driver-a/stringAttribute}
    - {matchAttribute: driver-a/boolAttribute}
)");
  EXPECT_THAT(Allocate(TwoDevices(attrs, attrs) + claim).devices,
              ElementsAre("req-0:driver-a/pool-1/device-1 req-0:driver-a/pool-1/device-2"));
}

TEST(MatchAttribute, NonMatchingValuesAreUnschedulable) {
  for (const auto& [a, b, name] :
       std::vector<std::array<std::string, 3>>{{"numa: {int: 1}", "numa: {int: 2}", "numa"},
                                               {"s: {string: a}", "s: {string: b}", "s"},
                                               {"b: {bool: true}", "b: {bool: false}", "b"},
                                               {"v: {version: 1.0.0}", "v: {version: 2.0.0}", "v"},
                                               {"numa: {int: 1}", "numa: {int: 1}", "missing"}}) {
    Outcome o = Allocate(TwoDevices(a, b) + Count2With("{matchAttribute: driver-a/" + name + "}"));
    EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable) << name;
  }
}

// An attribute with more than one value field (validation rejects it, a
// file may hold it): upstream compares the first present of string, int,
// bool, version, which the allocator keeps the published attribute for.
TEST(MatchAttribute, AttributeWithTwoValuesComparesItsStringFirst) {
  Outcome same = Allocate(TwoDevices("x: {int: 1, string: s}", "x: {int: 2, string: s}") +
                          Count2With("{matchAttribute: driver-a/x}"));
  EXPECT_EQ(same.result.outcome, dra::allocator::Outcome::kAllocated);
  Outcome different = Allocate(TwoDevices("x: {int: 1, string: a}", "x: {int: 1, string: b}") +
                               Count2With("{matchAttribute: driver-a/x}"));
  EXPECT_EQ(different.result.outcome, dra::allocator::Outcome::kUnschedulable);
  Outcome distinct = Allocate(TwoDevices("x: {int: 1, string: s}", "x: {int: 2, string: s}") +
                              Count2With("{distinctAttribute: driver-a/x}"));
  EXPECT_EQ(distinct.result.outcome, dra::allocator::Outcome::kUnschedulable);
}

// Values longer than the chunks the allocator keeps attribute text in, and
// short ones kept after them, compare whole.
TEST(MatchAttribute, LongStringValuesCompareWhole) {
  const std::string long_a(20000, 'a');
  const std::string long_b = std::string(19999, 'a') + "b";
  // Attributes are indexed in name order: zone's text is kept after serial's.
  auto attrs = [](const std::string& serial, const std::string& zone) {
    return "serial: {string: " + serial + "}, zone: {string: " + zone + "}";
  };
  EXPECT_EQ(Allocate(TwoDevices(attrs(long_a, "r1"), attrs(long_a, "r1")) +
                     Count2With("{matchAttribute: driver-a/serial}"))
                .result.outcome,
            dra::allocator::Outcome::kAllocated);
  EXPECT_EQ(Allocate(TwoDevices(attrs(long_a, "r1"), attrs(long_b, "r1")) +
                     Count2With("{matchAttribute: driver-a/serial}"))
                .result.outcome,
            dra::allocator::Outcome::kUnschedulable);
  EXPECT_EQ(Allocate(TwoDevices(attrs(long_a, "r1"), attrs(long_b, "r2")) +
                     Count2With("{matchAttribute: driver-a/zone}"))
                .result.outcome,
            dra::allocator::Outcome::kUnschedulable);
  EXPECT_EQ(Allocate(TwoDevices(attrs(long_a, "r2"), attrs(long_b, "r2")) +
                     Count2With("{matchAttribute: driver-a/zone}"))
                .result.outcome,
            dra::allocator::Outcome::kAllocated);
}

TEST(MatchAttribute, FullyQualifiedAttributeName) {
  std::string attrs = "example.com/model: {string: m}";
  EXPECT_EQ(Allocate(TwoDevices(attrs, attrs) + Count2With("{matchAttribute: example.com/model}"))
                .result.outcome,
            dra::allocator::Outcome::kAllocated);
}

TEST(MatchAttribute, ScopedToOneRequest) {
  std::string claim = Claim("claim-0", R"(
    requests:
    - {name: req-0, exactly: {deviceClassName: class-a}}
    - {name: req-1, exactly: {deviceClassName: class-a}}
    constraints:
    - {requests: [req-0], matchAttribute: driver-a/driverVersion}
)");
  EXPECT_THAT(
      Allocate(TwoDevices("driverVersion: {version: 1.0.0}", "driverVersion: {version: 2.0.0}") +
               claim)
          .devices,
      ElementsAre("req-0:driver-a/pool-1/device-1 req-1:driver-a/pool-1/device-2"));
}

// Upstream case with-constraint-for-request-retry (matchAttribute scope and
// backtracking).
TEST(MatchAttribute, ForRequestRetry) {
  std::string slice = Slice("slice-1", "pool-1", R"(
    {name: device-1, attributes: {driverVersion: {version: 1.0.0}, stringAttribute: {string: a}}},
    {name: device-2, attributes: {driverVersion: {version: 2.0.0}, stringAttribute: {string: b}}},
    {name: device-3, attributes: {driverVersion: {version: 3.0.0}, stringAttribute: {string: b}}})");
  std::string claim = Claim("claim-0", R"(
    requests:
    - {name: req-0, exactly: {deviceClassName: class-a, allocationMode: ExactCount, count: 1}}
    - {name: req-1, exactly: {deviceClassName: class-a, allocationMode: ExactCount, count: 1}}
    constraints:
    - {requests: [req-0], matchAttribute: driver-a/driverVersion}
    - {matchAttribute: driver-a/stringAttribute}
)");
  Outcome o = Allocate(slice + claim);
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-2 req-1:driver-a/pool-1/device-3"));
  EXPECT_EQ(o.result.steps, 8u);
}

TEST(DistinctAttribute, PicksDevicesWithDifferentValues) {
  std::string slice = Slice("slice-1", "pool-1",
                            "{name: device-1, attributes: {numa: {int: 1}}}, "
                            "{name: device-2, attributes: {numa: {int: 1}}}, "
                            "{name: device-3, attributes: {numa: {int: 2}}}");
  EXPECT_THAT(Allocate(slice + Count2With("{distinctAttribute: driver-a/numa}")).devices,
              ElementsAre("req-0:driver-a/pool-1/device-1 req-0:driver-a/pool-1/device-3"));
}

TEST(DistinctAttribute, MissingAttributeIsUnschedulable) {
  EXPECT_EQ(Allocate(TwoDevices("numa: {int: 1}", "other: {int: 2}") +
                     Count2With("{distinctAttribute: driver-a/numa}"))
                .result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

// Every device in scope is compared, not only the last of each request (older
// upstream allocators kept one value per request; fixed in Kubernetes 1.37).
TEST(DistinctAttribute, ComparesWithEveryPickedDevice) {
  std::string slice = Slice("slice-1", "pool-1",
                            "{name: device-1, attributes: {v: {string: p}}}, "
                            "{name: device-2, attributes: {v: {string: q}}}, "
                            "{name: device-3, attributes: {v: {string: p}}}");
  Outcome o = Allocate(slice + Claim("claim-0", OneRequest("req-0", "class-a", 3) +
                                                    "    constraints:\n    - {distinctAttribute: "
                                                    "driver-a/v}\n"));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
}

// Removing a device during backtracking forgets only that device's value (older
// upstream allocators forgot the whole request's), so D3 is still compared with D1.
TEST(DistinctAttribute, BacktrackingForgetsOnlyTheRemovedDevice) {
  std::string slice = Slice("slice-1", "pool-1",
                            "{name: device-1, attributes: {v: {string: p}, k: {int: 1}}}, "
                            "{name: device-2, attributes: {v: {string: q}, k: {int: 2}}}, "
                            "{name: device-3, attributes: {v: {string: p}, k: {int: 3}}}");
  std::string claim =
      Claim("claim-0",
            "    requests:\n"
            "    - name: req-0\n"
            "      exactly: {deviceClassName: class-a, allocationMode: ExactCount, "
            "count: 2}\n"
            "    - name: req-1\n"
            "      exactly:\n"
            "        deviceClassName: class-a\n"
            "        allocationMode: ExactCount\n"
            "        count: 1\n"
            "        selectors:\n"
            "        - cel: {expression: 'device.attributes[\"driver-a\"].k == 2'}\n"
            "    constraints:\n"
            "    - {distinctAttribute: driver-a/v, requests: [req-0]}\n");
  // The only distinct pair for req-0 is {D1, D2} or {D2, D3}, and req-1 needs D2.
  EXPECT_EQ(Allocate(slice + claim).result.outcome, dra::allocator::Outcome::kUnschedulable);
}

TEST(DistinctAttribute, UnsetAttributeIsACelConversionErrorOnlyWhenSelected) {
  std::string slice = Slice("slice-1", "pool-1", "{name: device-1, attributes: {v: {}}}");
  std::string claim = Claim("claim-0", OneRequest() +
                                           "    constraints:\n    - {distinctAttribute: "
                                           "driver-a/v}\n");
  Outcome o = Allocate(slice + claim);
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kError);
  EXPECT_THAT(o.result.error, HasSubstr("unsupported attribute value"));
}

}  // namespace
}  // namespace dra::allocator::testing

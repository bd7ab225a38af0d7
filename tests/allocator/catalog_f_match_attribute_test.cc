// Scalar matchAttribute constraints: cases of upstream's shared allocator
// suite (release v0.37.2, see allocator_test_util.h), one test each, plus the release's
// partitionable-all-mode-constraint-must-error-with-reserved-counter.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

std::string Match(const std::string& attribute, const std::string& requests = "") {
  return "{matchAttribute: driver-a/" + attribute +
         (requests.empty() ? "" : ", requests: [" + requests + "]") + "}";
}

TEST(CatalogF, WithConstraint) {
  const std::string attrs =
      "attributes: {driverVersion: {version: 1.0.0}, numa: {int: 1}, stringAttribute: {string: "
      "stringAttributeValue}, boolAttribute: {bool: true}}";
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1, " + attrs + "}, {name: device-2, " + attrs + "}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1), Exact("req-1", "class-a", 1)},
                       Match("numa") + ", " + Match("driverVersion") + ", " +
                           Match("stringAttribute") + ", " + Match("boolAttribute")),
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\nreq-1 driver-a/pool-1/device-2\n");
}

TEST(CatalogF, WithConstraintNonExistentAttribute) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}, Match("NonExistentAttribute")),
         Variants({}), kUnschedulable);
}

std::string TwoDevices(const std::string& attribute, const std::string& v1, const std::string& v2) {
  return Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1, attributes: {" + attribute + ": " + v1 +
                     "}}, {name: device-2, attributes: {" + attribute + ": " + v2 + "}}");
}

TEST(CatalogF, WithConstraintNotMatchingIntAttribute) {
  Expect(TwoDevices("numa", "{int: 1}", "{int: 2}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)}, Match("numa")),
         Variants({}), kUnschedulable);
}

TEST(CatalogF, WithConstraintNotMatchingIntAttributeAllDevices) {
  ExpectError(TwoDevices("numa", "{int: 1}", "{int: 2}") +
                  ClaimYaml("claim-0", {AllOf("req-0", "class-a", ", count: 0")}, Match("numa")),
              Variants({}),
              "claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a "
              "claim constraint would not be satisfied");
}

// The rejected device has consumed the pool's only counter when the
// constraint refuses it; the error is what is observable.
TEST(CatalogF, PartitionableAllModeConstraintMustErrorWithReservedCounter) {
  ExpectError(
      Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
              "{name: device-1, attributes: {numa: {int: 1}}}, "
              "{name: device-2, attributes: {numa: {int: 2}}, consumesCounters: [{counterSet: "
              "counter-set-1, counters: {c: {value: \"1\"}}}]}") +
          SliceYaml("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                    "sharedCounters: [{name: counter-set-1, counters: {c: {value: \"1\"}}}]") +
          ClaimYaml("claim-0", {AllOf("req-0", "class-a", ", count: 0")}, Match("numa")),
      Variants(Feat("PartitionableDevices")),
      "claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim "
      "constraint would not be satisfied");
}

TEST(CatalogF, WithConstraintNotMatchingStringAttribute) {
  Expect(TwoDevices("stringAttribute", "{string: stringAttributeValue}",
                    "{string: stringAttributeValue2}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)}, Match("stringAttribute")),
         Variants({}), kUnschedulable);
}

TEST(CatalogF, WithConstraintNotMatchingBoolAttribute) {
  Expect(TwoDevices("boolAttribute", "{bool: true}", "{bool: false}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)}, Match("boolAttribute")),
         Variants({}), kUnschedulable);
}

TEST(CatalogF, WithConstraintNotMatchingVersionAttribute) {
  Expect(TwoDevices("driverVersion", "{version: 1.0.0}", "{version: 2.0.0}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)}, Match("driverVersion")),
         Variants({}), kUnschedulable);
}

TEST(CatalogF, WithConstraintForRequest) {
  Expect(TwoDevices("driverVersion", "{version: 1.0.0}", "{version: 2.0.0}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1), Exact("req-1", "class-a", 1)},
                       Match("driverVersion", "req-0")),
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\nreq-1 driver-a/pool-1/device-2\n");
}

// The claim-wide constraint makes req-0 give up device-1.
TEST(CatalogF, WithConstraintForRequestRetry) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1, attributes: {driverVersion: {version: 1.0.0}, stringAttribute: "
                 "{string: a}}}, "
                 "{name: device-2, attributes: {driverVersion: {version: 2.0.0}, stringAttribute: "
                 "{string: b}}}, "
                 "{name: device-3, attributes: {driverVersion: {version: 3.0.0}, stringAttribute: "
                 "{string: b}}}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1), Exact("req-1", "class-a", 1)},
                       Match("driverVersion", "req-0") + ", " + Match("stringAttribute")),
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-2\nreq-1 driver-a/pool-1/device-3\n");
}

}  // namespace
}  // namespace dra::allocator::catalog

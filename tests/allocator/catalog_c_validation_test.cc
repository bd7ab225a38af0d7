// Input validation and error reporting: cases of upstream's shared allocator
// suite (release v0.37.2, see allocator_test_util.h), one test each, including the
// release's exact-count-* claim-limit cases.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const std::string kOneDevice =
    Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}");

TEST(CatalogC, NoClasses) {
  RunOptions no_classes;
  no_classes.classes = false;
  ExpectError(kOneDevice + ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}), Variants({}),
              "could not retrieve device class class-a", no_classes);
}

TEST(CatalogC, UnknownClass) {
  ExpectError(kOneDevice + ClaimYaml("claim-0", {Exact("req-0", "unknown-class", 1)}), Variants({}),
              "could not retrieve device class unknown-class");
}

TEST(CatalogC, EmptyClass) {
  ExpectError(kOneDevice + ClaimYaml("claim-0", {Exact("req-0", "\"\"", 1)}), Variants({}),
              "claim claim-0, request req-0: missing device class name (unsupported request "
              "type?)");
}

TEST(CatalogC, NoClaimsToAllocate) { Expect(kOneDevice, Variants({}), ""); }

TEST(CatalogC, UnknownSelector) {
  ExpectError(
      kOneDevice + ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, ", selectors: [{}]")}),
      Variants({}), "CEL expression empty (unsupported selector type?)");
}

TEST(CatalogC, UnknownAllocationMode) {
  ExpectError(
      kOneDevice + ClaimYaml("claim-0", {"{name: req-0, exactly: {deviceClassName: "
                                         "class-a, allocationMode: future-mode, count: 1}}"}),
      Variants({}), "unsupported count mode future-mode");
}

TEST(CatalogC, UnknownConstraint) {
  ExpectError(kOneDevice + ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}, "{}"), Variants({}),
              "empty constraint (unsupported constraint type?)");
}

TEST(CatalogC, InvalidCELOneDevice) {
  ExpectError(kOneDevice + ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, Sel("noSuchVar"))}),
              Variants({}), "undeclared reference");
}

TEST(CatalogC, InvalidCELOneDeviceClass) {
  RunOptions own_class;
  own_class.classes = false;
  ExpectError(
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: class-a}\nspec:\n"
      "  selectors: [{cel: {expression: noSuchVar}}]\n---\n" +
          kOneDevice + ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}),
      Variants({}), "undeclared reference", own_class);
}

TEST(CatalogC, InvalidCELAllDevices) {
  ExpectError(kOneDevice + ClaimYaml("claim-0", {AllOf("req-0", "class-a", Sel("noSuchVar"))}),
              Variants({}), "undeclared reference");
}

TEST(CatalogC, TooManyDevicesSingleRequest) {
  ExpectError(ClaimYaml("claim-0", {Exact("req-0", "class-a", 500)}), Variants({}),
              "claim claim-0, request req-0: adding 500 devices exceeds the claim limit of 32, "
              "with 0 already accounted for");
}

TEST(CatalogC, ManyDevicesOkay) {
  Expect(ClaimYaml("claim-0", {Exact("req-0", "class-a", 32)}), Variants({}), kUnschedulable);
}

std::string ManyDevices(int n) {
  std::string devices;
  for (int i = 0; i < n; ++i) {
    devices += (i ? ", " : "") + std::string("{name: device-") + std::to_string(i) + "}";
  }
  return Devices("slice-1", "node-1", "pool-1", "driver-a", devices);
}

TEST(CatalogC, TooManyDevicesTotal) {
  ExpectError(ManyDevices(33) + ClaimYaml("claim-0", {Exact("req-0", "class-a", 32),
                                                      Exact("req-1", "class-a", 1)}),
              Variants({}),
              "claim claim-0, request req-1: adding 1 devices exceeds the claim limit of 32, with "
              "32 already accounted for");
}

// Counts of MaxInt/2+1 must not overflow the sum of minimum device counts:
// each request is compared with the room left before it is added.
const std::string kHalfMaxPlusOne = "4611686018427387904";

TEST(CatalogC, ExactCountTotalOverflowsClaimLimit) {
  ExpectError(
      ClaimYaml("claim-0", {"{name: req-0, exactly: {deviceClassName: class-a, allocationMode: "
                            "ExactCount, count: " +
                                kHalfMaxPlusOne + "}}",
                            "{name: req-1, exactly: {deviceClassName: class-a, allocationMode: "
                            "ExactCount, count: " +
                                kHalfMaxPlusOne + "}}"}),
      Variants({}),
      "claim claim-0, request req-0: adding " + kHalfMaxPlusOne +
          " devices exceeds the claim limit of 32, with 0 already accounted for");
}

TEST(CatalogC, ExactCountTotalWouldWrapToZero) {
  std::string in = ClaimYaml("claim-0", {});
  std::string requests;
  for (const char* name : {"req-0", "req-1", "req-2", "req-3"}) {
    requests += std::string("    - {name: ") + name +
                ", exactly: {deviceClassName: class-a, allocationMode: ExactCount, count: " +
                kHalfMaxPlusOne + "}}\n";
  }
  in.insert(in.find("---"), requests);
  ExpectError(in, Variants({}),
              "claim claim-0, request req-0: adding " + kHalfMaxPlusOne +
                  " devices exceeds the claim limit of 32, with 0 already accounted for");
}

// req-0 alone fits; the error names req-1, which pushes the claim over.
TEST(CatalogC, ExactCountSumExceedsClaimLimit) {
  std::string in =
      ClaimYaml("claim-0", {Exact("req-0", "class-a", 20), Exact("req-1", "class-a", 20)});
  ExpectError(in, Variants({}),
              "claim claim-0, request req-1: adding 20 devices exceeds the claim limit of 32, with "
              "20 already accounted for");
}

TEST(CatalogC, ExactCountSumExactlyFillsClaimLimit) {
  std::string want = kNode1;
  for (int i = 0; i < 32; ++i) {
    want += std::string(i < 16 ? "req-0" : "req-1") + " driver-a/pool-1/device-" +
            std::to_string(i) + "\n";
  }
  Expect(ManyDevices(32) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 16), Exact("req-1", "class-a", 16)}),
         Variants({}), want);
}

// Misnamed upstream: the same input as TooManyDevicesSingleRequest.
TEST(CatalogC, AllDevicesInvalidCEL) {
  ExpectError(ClaimYaml("claim-0", {Exact("req-0", "class-a", 500)}), Variants({}),
              "claim claim-0, request req-0: adding 500 devices exceeds the claim limit of 32, "
              "with 0 already accounted for");
}

}  // namespace
}  // namespace dra::allocator::catalog

// Claim validation before the search and lazily surfacing CEL errors, after
// the validation cases of upstream's shared allocator suite.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::HasSubstr;

const std::string kOneDevice = Slice("slice-1", "pool-1", "{name: device-1}");

std::string ErrorOf(const std::string& yaml, const Features& f = Base()) {
  Outcome o = Allocate(yaml, f);
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kError);
  return o.result.error;
}

TEST(Validation, UnknownClass) {
  EXPECT_EQ(ErrorOf(kOneDevice + Claim("claim-0", OneRequest("req-0", "no-such-class"))),
            "claim default/claim-0, request req-0: could not retrieve device class no-such-class: "
            "deviceclass.resource.k8s.io \"no-such-class\" not found");
}

TEST(Validation, EmptyClassName) {
  EXPECT_THAT(ErrorOf(kOneDevice + Claim("claim-0", R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: ""}
)")),
              HasSubstr("missing device class name (unsupported request type?)"));
}

TEST(Validation, UnknownAllocationMode) {
  EXPECT_THAT(ErrorOf(kOneDevice + Claim("claim-0", R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, allocationMode: future-mode}
)")),
              HasSubstr("unsupported count mode future-mode"));
}

TEST(Validation, UnknownSelectorAndConstraint) {
  EXPECT_THAT(ErrorOf(kOneDevice + Claim("claim-0", R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, selectors: [{}]}
)")),
              HasSubstr("selector #0: CEL expression empty (unsupported selector type?)"));
  EXPECT_THAT(ErrorOf(kOneDevice + Claim("claim-0", OneRequest() + "    constraints: [{}]\n")),
              HasSubstr("claim default/claim-0, constraint #0: empty constraint (unsupported "
                        "constraint type?)"));
}

TEST(Validation, InvalidCelInRequestSurfacesWhenADeviceIsChecked) {
  std::string claim = Claim("claim-0", R"(
    requests:
    - name: req-0
      exactly:
        deviceClassName: class-a
        selectors: [{cel: {expression: noSuchVar}}]
)");
  EXPECT_THAT(ErrorOf(kOneDevice + claim),
              HasSubstr("claim default/claim-0: selector #0: CEL compile error"));
  EXPECT_THAT(ErrorOf(kOneDevice + claim), HasSubstr("undeclared reference"));
  // No device, no evaluation, no error.
  EXPECT_EQ(Allocate(claim).result.outcome, dra::allocator::Outcome::kUnschedulable);
}

TEST(Validation, InvalidCelInClass) {
  std::string cls = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: broken}
spec:
  selectors: [{cel: {expression: noSuchVar}}]
---
)";
  EXPECT_THAT(ErrorOf(kOneDevice + cls + Claim("claim-0", OneRequest("req-0", "broken"))),
              HasSubstr("class broken: selector #0: CEL compile error"));
}

TEST(Validation, InvalidCelWithAllModeFailsUpFront) {
  EXPECT_THAT(ErrorOf(kOneDevice + Claim("claim-0", R"(
    requests:
    - name: req-0
      exactly:
        deviceClassName: class-a
        allocationMode: All
        selectors: [{cel: {expression: noSuchVar}}]
)")),
              HasSubstr("CEL compile error"));
}

TEST(Validation, RuntimeErrorHasHint) {
  EXPECT_THAT(ErrorOf(kOneDevice + Claim("claim-0", R"(
    requests:
    - name: req-0
      exactly:
        deviceClassName: class-a
        selectors: [{cel: {expression: 'device.attributes["driver-a"].model == "x"'}}]
)")),
              HasSubstr("CEL runtime error: no such key: model. consider using CEL optional "
                        "chaining"));
}

TEST(Validation, TooManyDevices) {
  EXPECT_THAT(ErrorOf(kOneDevice + Claim("claim-0", OneRequest("req-0", "class-a", 500))),
              HasSubstr("claim default/claim-0, request req-0: adding 500 devices exceeds the "
                        "claim limit of 32, with 0 already accounted for"));
  std::string two = R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, count: 32}
    - name: req-1
      exactly: {deviceClassName: class-a, count: 1}
)";
  EXPECT_EQ(ErrorOf(Claim("claim-0", two)),
            "claim default/claim-0, request req-1: adding 1 devices exceeds the claim limit of 32, "
            "with 32 already accounted for");
  // Exactly 32 passes validation even without devices.
  EXPECT_EQ(Allocate(Claim("claim-0", OneRequest("req-0", "class-a", 32))).result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

TEST(Validation, DisabledFeatures) {
  EXPECT_THAT(ErrorOf(kOneDevice + Claim("claim-0", R"(
    requests:
    - name: req-0
      firstAvailable: [{name: sub-0, deviceClassName: class-a}]
)")),
              HasSubstr("request req-0: has subrequests, but the DRAPrioritizedList feature is "
                        "disabled"));
  EXPECT_THAT(ErrorOf(kOneDevice + Claim("claim-0", R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, adminAccess: false}
)")),
              HasSubstr("request req-0: admin access is requested, but the feature is disabled"));
  EXPECT_THAT(ErrorOf(kOneDevice + Claim("claim-0", R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, capacity: {requests: {memory: 1Gi}}}
)")),
              HasSubstr("has capacity requests, but the DRAConsumableCapacity feature is "
                        "disabled"));
}

TEST(Validation, ZeroClaimsSucceed) {
  Outcome o = Allocate(kOneDevice);
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated);
  EXPECT_TRUE(o.result.allocations.empty());
}

}  // namespace
}  // namespace dra::allocator::testing

// Registry strategies before create for DeviceClass, ResourceClaim and
// ResourceClaimTemplate: status reset, generation and the silent dropping of
// fields whose feature gate is off.
#include <gtest/gtest.h>

#include "dra/api/validation.h"
#include "validation_test_support.h"

namespace dra::api {
namespace {

using testing::ExactRequest;
using testing::SubRequest;

// A spec using every gated field that claims and templates can carry.
ResourceClaimSpec GatedSpec() {
  ResourceClaimSpec spec;
  DeviceRequest exact = ExactRequest("gpu");
  exact.exactly->admin_access = true;
  exact.exactly->tolerations.emplace_back();
  exact.exactly->capacity.emplace();
  spec.devices.requests.push_back(exact);
  DeviceSubRequest sub = SubRequest("sub");
  sub.tolerations.emplace_back();
  sub.capacity.emplace();
  spec.devices.requests.push_back(testing::FirstAvailableRequest("pick", {sub}));
  DeviceConstraint constraint;
  constraint.distinct_attribute = "gpu.example.com/id";
  spec.devices.constraints.push_back(constraint);
  return spec;
}

FeatureGates AllClaimGatesOff() {
  FeatureGates gates;
  gates.Set(Feature::kDRAPrioritizedList, false);
  gates.Set(Feature::kDRADeviceTaints, false);
  gates.Set(Feature::kDRAAdminAccess, false);
  gates.Set(Feature::kDRAConsumableCapacity, false);
  return gates;
}

TEST(PrepareForCreateTest, DeviceClassStartsAtGenerationOne) {
  DeviceClass cls;
  cls.metadata.generation = 7;
  PrepareForCreate(cls, FeatureGates{});
  EXPECT_EQ(cls.metadata.generation, 1);
}

TEST(PrepareForCreateTest, ClaimStatusIsCleared) {
  ResourceClaim claim = testing::ValidClaim();
  claim.status.allocation.emplace();
  claim.status.reserved_for.emplace_back();
  claim.status.devices.emplace_back();
  PrepareForCreate(claim, FeatureGates{});
  EXPECT_EQ(claim.status, ResourceClaimStatus{});
  EXPECT_TRUE(claim.status.reserved_for.nil());
  EXPECT_EQ(claim.spec, testing::ValidClaim().spec);
}

TEST(PrepareForCreateTest, EnabledGatesKeepTheirFields) {
  ResourceClaim claim;
  claim.spec = GatedSpec();
  PrepareForCreate(claim, FeatureGates{});
  EXPECT_EQ(claim.spec, GatedSpec());
}

TEST(PrepareForCreateTest, DisabledGatesDropTheirFields) {
  ResourceClaim claim;
  claim.spec = GatedSpec();
  PrepareForCreate(claim, AllClaimGatesOff());
  const DeviceClaim& devices = claim.spec.devices;
  const ExactDeviceRequest& exact = *devices.requests[0].exactly;
  EXPECT_FALSE(exact.admin_access.has_value());
  EXPECT_TRUE(exact.tolerations.nil());
  EXPECT_FALSE(exact.capacity.has_value());
  EXPECT_EQ(exact.device_class_name, "gpu.example.com");
  EXPECT_TRUE(devices.requests[1].first_available.nil());
  EXPECT_FALSE(devices.constraints[0].distinct_attribute.has_value());
}

TEST(PrepareForCreateTest, EachGateDropsOnlyItsFields) {
  ResourceClaim claim;
  claim.spec = GatedSpec();
  FeatureGates gates;
  gates.Set(Feature::kDRADeviceTaints, false);
  PrepareForCreate(claim, gates);
  ResourceClaimSpec expected = GatedSpec();
  expected.devices.requests[0].exactly->tolerations.set_nil();
  expected.devices.requests[1].first_available[0].tolerations.set_nil();
  EXPECT_EQ(claim.spec, expected);
  EXPECT_TRUE(claim.spec.devices.requests[1].first_available[0].tolerations.nil());

  claim.spec = GatedSpec();
  gates = FeatureGates{};
  gates.Set(Feature::kDRAConsumableCapacity, false);
  PrepareForCreate(claim, gates);
  EXPECT_FALSE(claim.spec.devices.requests[1].first_available[0].capacity.has_value());
  EXPECT_FALSE(claim.spec.devices.requests[0].exactly->capacity.has_value());
  EXPECT_TRUE(claim.spec.devices.requests[0].exactly->admin_access.has_value());
}

TEST(PrepareForCreateTest, TemplateSpecIsPreparedLikeAClaim) {
  ResourceClaimTemplate tmpl;
  tmpl.spec.spec = GatedSpec();
  PrepareForCreate(tmpl, FeatureGates{});
  EXPECT_EQ(tmpl.spec.spec, GatedSpec());
  PrepareForCreate(tmpl, AllClaimGatesOff());
  EXPECT_FALSE(tmpl.spec.spec.devices.requests[0].exactly->admin_access.has_value());
  EXPECT_TRUE(tmpl.spec.spec.devices.requests[1].first_available.nil());
}

// With firstAvailable dropped the request has neither alternative, which
// validation then reports.
TEST(PrepareForCreateTest, DroppedFirstAvailableIsReportedByValidation) {
  ResourceClaim claim = testing::ValidClaim();
  claim.spec.devices.requests[0] = testing::FirstAvailableRequest("gpu", {SubRequest("a")});
  FeatureGates gates;
  gates.Set(Feature::kDRAPrioritizedList, false);
  PrepareForCreate(claim, gates);
  EXPECT_EQ(testing::Texts(ValidateResourceClaim(claim, {})),
            testing::Strings{"spec.devices.requests[0]: Required value: exactly one of `exactly` "
                             "or `firstAvailable` is required"});
}

}  // namespace
}  // namespace dra::api

namespace dra::api {
namespace {

DeviceRequestAllocationResult Result(std::string device) {
  DeviceRequestAllocationResult r;
  r.request = "req";
  r.driver = "d";
  r.pool = "p";
  r.device = std::move(device);
  return r;
}

AllocatedDeviceStatus DeviceStatus(std::string device) {
  AllocatedDeviceStatus s;
  s.driver = "d";
  s.pool = "p";
  s.device = std::move(device);
  return s;
}

TEST(PrepareForStatusUpdateTest, PrunesStatusOfDevicesNoLongerAllocated) {
  ResourceClaim old;
  old.status.allocation.emplace();
  old.status.allocation->devices.results = {Result("a"), Result("b")};
  ResourceClaim update = old;
  update.status.allocation->devices.results = {Result("b")};
  // "a" was allocated before and is not now; "c" was never allocated and is
  // left for validation to reject.
  update.status.devices = {DeviceStatus("a"), DeviceStatus("b"), DeviceStatus("c")};
  PrepareForStatusUpdate(update, old, FeatureGates());
  ASSERT_EQ(update.status.devices.size(), 2u);
  EXPECT_EQ(update.status.devices[0].device, "b");
  EXPECT_EQ(update.status.devices[1].device, "c");
}

TEST(PrepareForStatusUpdateTest, ResetsSpecAndProtectedMetadata) {
  ResourceClaim old;
  old.metadata.labels = {{"a", "1"}};
  old.metadata.finalizers = {"f"};
  old.metadata.generation = 3;
  old.spec.devices.requests.emplace_back().name = "old";
  ResourceClaim update = old;
  update.metadata.labels = {{"b", "2"}};
  update.metadata.finalizers.clear();
  update.metadata.generation = 9;
  update.spec.devices.requests[0].name = "new";
  PrepareForStatusUpdate(update, old, FeatureGates());
  EXPECT_EQ(update.metadata.labels, old.metadata.labels);
  EXPECT_EQ(update.metadata.finalizers, old.metadata.finalizers);
  EXPECT_EQ(update.metadata.generation, 3);
  EXPECT_EQ(update.spec.devices.requests[0].name, "old");
}

TEST(PrepareForStatusUpdateTest, DropsGatedStatusFieldsUnlessAlreadyUsed) {
  FeatureGates gates;
  gates.Set(Feature::kDRAConsumableCapacity, false);
  ResourceClaim old;
  old.status.allocation.emplace();
  old.status.allocation->devices.results = {Result("a")};
  ResourceClaim update = old;
  update.status.allocation->devices.results[0].share_id = "01234567-89ab-cdef-0123-456789abcdef";
  update.status.allocation->devices.results[0].consumed_capacity["m"] = Quantity::MustParse("1");
  PrepareForStatusUpdate(update, old, gates);
  EXPECT_FALSE(update.status.allocation->devices.results[0].share_id.has_value());
  EXPECT_TRUE(update.status.allocation->devices.results[0].consumed_capacity.empty());

  // Once the stored claim uses the feature, an update keeps it.
  old.status.allocation->devices.results[0].share_id = "01234567-89ab-cdef-0123-456789abcdef";
  update = old;
  PrepareForStatusUpdate(update, old, gates);
  EXPECT_TRUE(update.status.allocation->devices.results[0].share_id.has_value());
}

TEST(WarningsOnCreateTest, UpperCaseDriverName) {
  ResourceSlice slice;
  slice.spec.driver = "GPU.example.com";
  EXPECT_EQ(WarningsOnCreate(slice),
            std::vector<std::string>{"spec.driver: driver names should be lowercase; "
                                     "\"GPU.example.com\" contains uppercase characters"});
  slice.spec.driver = "gpu.example.com";
  EXPECT_TRUE(WarningsOnCreate(slice).empty());
}

}  // namespace
}  // namespace dra::api

namespace dra::api {
namespace {

DeviceTaintRule StoredRule() {
  DeviceTaintRule rule;
  rule.metadata.name = "r";
  rule.metadata.generation = 4;
  rule.spec.taint.key = "k";
  rule.spec.taint.effect = "NoSchedule";
  rule.spec.taint.time_added = Time::FromUnix(1000);
  rule.status.conditions.emplace_back().type = "EvictionInProgress";
  return rule;
}

TEST(PrepareForUpdateTest, EffectChangeWithStoredTimeAddedGetsTheCurrentTime) {
  const DeviceTaintRule old = StoredRule();
  DeviceTaintRule update = old;
  update.spec.taint.effect = "NoExecute";
  update.status = DeviceTaintRuleStatus{};
  PrepareForUpdate(update, old, 5000);
  EXPECT_EQ(update.spec.taint.time_added, Time::FromUnix(5000));
  EXPECT_EQ(update.metadata.generation, 5);
  EXPECT_EQ(update.status, old.status);
}

TEST(PrepareForUpdateTest, ClientTimeAddedAndUnchangedSpecAreKept) {
  const DeviceTaintRule old = StoredRule();
  DeviceTaintRule update = old;
  update.spec.taint.effect = "NoExecute";
  update.spec.taint.time_added = Time::FromUnix(2000);
  PrepareForUpdate(update, old, 5000);
  EXPECT_EQ(update.spec.taint.time_added, Time::FromUnix(2000));

  DeviceTaintRule same = old;
  PrepareForUpdate(same, old, 5000);
  EXPECT_EQ(same.spec.taint.time_added, Time::FromUnix(1000));
  EXPECT_EQ(same.metadata.generation, 4);
}

}  // namespace
}  // namespace dra::api

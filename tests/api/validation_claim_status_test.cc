// ResourceClaim status updates: reservedFor, allocation
// results, status.devices and network data.
#include <gtest/gtest.h>

#include <string>

#include "api/validation/interface_address.h"
#include "dra/api/validation.h"
#include "validation_test_support.h"

namespace dra::api {
namespace {

using testing::kBadReferenceMsg;
using testing::kCaselessSubdomainMsg;
using testing::kLabelMsg;
using testing::kSubdomainMsg;
using testing::OpaqueConfig;
using testing::Strings;
using testing::Texts;
using testing::ValidClaim;

constexpr char kShareId[] = "0f6e8b3c-6a4a-4c1e-9a7e-2b6d1c0e9f11";
constexpr char kResults[] = "status.allocation.devices.results";

DeviceRequestAllocationResult Result(std::string device = "gpu-0") {
  DeviceRequestAllocationResult result;
  result.request = "gpu";
  result.driver = "gpu.example.com";
  result.pool = "node-1";
  result.device = std::move(device);
  return result;
}

AllocationResult Allocation(std::vector<DeviceRequestAllocationResult> results = {Result()}) {
  AllocationResult allocation;
  for (auto& r : results) allocation.devices.results.push_back(std::move(r));
  return allocation;
}

ResourceClaimConsumerReference Pod(std::string name, std::string uid) {
  ResourceClaimConsumerReference ref;
  ref.resource = "pods";
  ref.name = std::move(name);
  ref.uid = std::move(uid);
  return ref;
}

AllocatedDeviceStatus DeviceStatus(std::string device = "gpu-0") {
  AllocatedDeviceStatus status;
  status.driver = "gpu.example.com";
  status.pool = "node-1";
  status.device = std::move(device);
  return status;
}

// A stored claim and the update of its status under test.
struct StatusUpdate {
  ResourceClaim old = ValidClaim();
  ResourceClaim claim = ValidClaim();

  Strings Validate(const ValidationOptions& options = {}) const {
    return Texts(ValidateResourceClaimStatusUpdate(claim, old, options));
  }
};

TEST(ResourceClaimStatusValidationTest, AllocateAndReserve) {
  StatusUpdate update;
  update.claim.status.allocation = Allocation();
  update.claim.status.reserved_for.push_back(Pod("p", "uid-1"));
  EXPECT_EQ(update.Validate(), Strings{});
}

TEST(ResourceClaimStatusValidationTest, ResultRules) {
  StatusUpdate update;
  DeviceRequestAllocationResult result = Result("Bad");
  result.request = "other";
  result.driver = "";
  result.pool = "a//b";
  result.share_id = "ABC";
  update.claim.status.allocation = Allocation({result});
  const std::string r = std::string(kResults) + "[0]";
  EXPECT_EQ(
      update.Validate(),
      (Strings{
          r + R"(.request: Invalid value: "other": )" + kBadReferenceMsg,
          r + R"(.device: Invalid value: "Bad": )" + kLabelMsg,
          r + ".driver: Required value",
          r + R"(.pool: Invalid value: "a//b": segment 1: must not be empty)",
          r + R"(.shareID: Invalid value: "ABC": must be a lowercase UUID in 8-4-4-4-12 format)",
      }));
}

TEST(ResourceClaimStatusValidationTest, ResultDriverUsesCaselessTexts) {
  StatusUpdate update;
  DeviceRequestAllocationResult result = Result();
  result.driver = "Bad_Driver";
  update.claim.status.allocation = Allocation({result});
  EXPECT_EQ(update.Validate(),
            Strings{std::string(kResults) + R"([0].driver: Invalid value: "Bad_Driver": )" +
                    kCaselessSubdomainMsg});
}

TEST(ResourceClaimStatusValidationTest, ResultBindingConditions) {
  StatusUpdate update;
  DeviceRequestAllocationResult a = Result("a");
  a.binding_failure_conditions.push_back("failed");
  DeviceRequestAllocationResult b = Result("b");
  b.binding_conditions = {"ready", "ready", "bad key"};
  b.binding_failure_conditions = {"ready", "gone", "gone"};
  DeviceRequestAllocationResult c = Result("c");
  c.binding_conditions = {"a", "b", "c", "d", "e"};
  c.binding_conditions.push_back("f");
  update.claim.status.allocation = Allocation({a, b, c});
  const std::string r = kResults;
  EXPECT_EQ(
      update.Validate(),
      (Strings{
          r + "[0].bindingConditions: Invalid value: null: bindingConditions are required to "
              "use bindingFailureConditions",
          r + R"([1].bindingConditions[2]: Invalid value: "bad key": )" + testing::kLabelKeyNameMsg,
          r + R"([1].bindingConditions[1]: Duplicate value: "ready")",
          r + R"([1].bindingFailureConditions[0]: Invalid value: "ready": bindingFailureConditions must not overlap with bindingConditions)",
          r + R"([1].bindingFailureConditions[2]: Duplicate value: "gone")",
          r + "[2].bindingFailureConditions: Invalid value: null: bindingFailureConditions are "
              "required to use bindingConditions",
          r + "[2].bindingConditions: Too many: 6: must have at most 4 items",
      }));
}

TEST(ResourceClaimStatusValidationTest, ResultTolerations) {
  StatusUpdate update;
  DeviceRequestAllocationResult result = Result();
  DeviceToleration toleration;
  toleration.operator_ = "Exists";
  toleration.value = "x";
  toleration.effect = "Never";
  result.tolerations.push_back(toleration);
  update.claim.status.allocation = Allocation({result});
  const std::string t = std::string(kResults) + "[0].tolerations[0]";
  EXPECT_EQ(
      update.Validate(),
      (Strings{
          t + R"(.value: Invalid value: "x": must be empty for operator `Exists`)",
          t + R"(.effect: Unsupported value: "Never": supported values: "NoExecute", "NoSchedule", "None")",
      }));
}

TEST(ResourceClaimStatusValidationTest, ResultSkipNodeOperations) {
  StatusUpdate update;
  DeviceRequestAllocationResult a = Result("a");
  a.skip_node_operations = {"NodePrepareResources"};
  DeviceRequestAllocationResult b = Result("b");
  b.skip_node_operations = {"*", "Other", "*"};
  DeviceRequestAllocationResult c = Result("c");
  c.skip_node_operations = {"NodePrepareResources", "*"};
  update.claim.status.allocation = Allocation({a, b, c});
  const std::string r = kResults;
  EXPECT_EQ(
      update.Validate(),
      (Strings{
          r + R"([0].skipNodeOperations: Invalid value: ["NodePrepareResources"]: NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped)",
          r + R"([1].skipNodeOperations[2]: Duplicate value: "*")",
          r + R"([1].skipNodeOperations[1]: Unsupported value: "Other": supported values: "*", "NodePrepareResources", "NodeUnprepareResources")",
      }));
}

TEST(ResourceClaimStatusValidationTest, ResultRequestMayNameASubRequest) {
  StatusUpdate update;
  update.claim.spec.devices.requests[0] =
      testing::FirstAvailableRequest("gpu", {testing::SubRequest("big")});
  update.old.spec = update.claim.spec;
  DeviceRequestAllocationResult result = Result();
  result.request = "gpu/big";
  update.claim.status.allocation = Allocation({result});
  EXPECT_EQ(update.Validate(), Strings{});
}

TEST(ResourceClaimStatusValidationTest, TooManyResultsAndConfigs) {
  StatusUpdate update;
  std::vector<DeviceRequestAllocationResult> results(33, Result("Bad"));
  update.claim.status.allocation = Allocation(results);
  EXPECT_EQ(update.Validate(),
            Strings{std::string(kResults) + ": Too many: 33: must have at most 32 items"});
  update.claim.status.allocation = Allocation();
  update.claim.status.allocation->devices.config.resize(65);
  EXPECT_EQ(update.Validate(),
            Strings{"status.allocation.devices.config: Too many: 65: must have at most 64 items"});
}

TEST(ResourceClaimStatusValidationTest, AllocationConfig) {
  StatusUpdate update;
  update.claim.status.allocation = Allocation();
  auto& config = update.claim.status.allocation->devices.config;
  config.resize(3);
  config[0].source = "FromClass";
  config[0].config = OpaqueConfig("gpu.example.com");
  config[0].requests = {"gpu", "nope", "gpu"};
  config[1].source = "";
  config[2].source = "Elsewhere";
  config[2].config = OpaqueConfig("");
  const std::string c = "status.allocation.devices.config";
  EXPECT_EQ(
      update.Validate(),
      (Strings{
          c + R"([0].requests[1]: Invalid value: "nope": )" + kBadReferenceMsg,
          c + "[1].opaque: Required value",
          c + R"([0].requests[2]: Duplicate value: "gpu")",
          c + "[1].source: Required value",
          c + R"([2].source: Unsupported value: "Elsewhere": supported values: "FromClaim", "FromClass")",
          c + "[2].opaque.driver: Required value",
      }));
}

TEST(ResourceClaimStatusValidationTest, AllocationNodeSelector) {
  StatusUpdate update;
  update.claim.status.allocation = Allocation();
  update.claim.status.allocation->node_selector.emplace();
  EXPECT_EQ(update.Validate(),
            Strings{"status.allocation.nodeSelector.nodeSelectorTerms: Required value: must "
                    "have at least one node selector term"});
}

TEST(ResourceClaimStatusValidationTest, AllocationCannotBeModified) {
  StatusUpdate update;
  update.old.status.allocation = Allocation({Result("Bad")});
  update.claim.status.allocation = update.old.status.allocation;
  EXPECT_EQ(update.Validate(), Strings{});  // stored results are not checked again

  update.claim.status.allocation = Allocation({Result("gpu-1")});
  EXPECT_EQ(update.Validate(),
            Strings{"status.allocation: Invalid value: null: field cannot be modified once set"});

  update.claim.status.allocation.reset();
  EXPECT_EQ(update.Validate(), Strings{});
}

TEST(ResourceClaimStatusValidationTest, ReservedFor) {
  StatusUpdate update;
  update.claim.status.allocation = Allocation();
  auto& reserved = update.claim.status.reserved_for;
  reserved.push_back(Pod("a", "1"));
  reserved.push_back(ResourceClaimConsumerReference{});
  reserved.push_back(Pod("b", "1"));
  EXPECT_EQ(
      update.Validate(),
      (Strings{
          "status.reservedFor[1].resource: Required value",
          "status.reservedFor[1].name: Required value",
          "status.reservedFor[1].uid: Required value",
          R"(status.reservedFor[2]: Duplicate value: {"resource":"pods","name":"b","uid":"1"})",
      }));
}

TEST(ResourceClaimStatusValidationTest, TooManyConsumers) {
  StatusUpdate update;
  update.claim.status.allocation = Allocation();
  for (int i = 0; i < 257; ++i) update.claim.status.reserved_for.push_back(Pod("p", ""));
  EXPECT_EQ(update.Validate(),
            Strings{"status.reservedFor: Too many: 257: must have at most 256 items"});
}

TEST(ResourceClaimStatusValidationTest, ReservedForNeedsAllocation) {
  StatusUpdate update;
  update.claim.status.reserved_for.push_back(Pod("p", "1"));
  EXPECT_EQ(update.Validate(),
            Strings{"status.reservedFor: Forbidden: may not be specified when `allocated` is not "
                    "set"});
}

TEST(ResourceClaimStatusValidationTest, NoNewConsumersWhileDeleting) {
  StatusUpdate update;
  update.old.metadata.deletion_timestamp = Time::FromUnix(100);
  update.claim.metadata.deletion_timestamp = Time::FromUnix(100);
  update.old.status.allocation = Allocation();
  update.old.status.reserved_for = {Pod("a", "1"), Pod("b", "2")};
  update.claim.status = update.old.status;
  update.claim.status.reserved_for.pop_back();
  EXPECT_EQ(update.Validate(), Strings{});
  update.claim.status.reserved_for.push_back(Pod("c", "3"));
  EXPECT_EQ(update.Validate(),
            Strings{"status.reservedFor: Forbidden: new entries may not be added while "
                    "`deallocationRequested` or `deletionTimestamp` are set"});
}

TEST(ResourceClaimStatusValidationTest, DeviceStatusMustBeAllocated) {
  StatusUpdate update;
  update.claim.status.allocation = Allocation();
  update.claim.status.devices.push_back(DeviceStatus());
  AllocatedDeviceStatus shared = DeviceStatus();
  shared.share_id = kShareId;
  update.claim.status.devices.push_back(shared);
  EXPECT_EQ(
      update.Validate(),
      Strings{
          std::string(
              R"(status.devices[1]: Invalid value: {"Driver":"gpu.example.com","Pool":"node-1","Device":"gpu-0","ShareID":")") +
          kShareId + R"("}: must be an allocated device in the claim)"});
}

TEST(ResourceClaimStatusValidationTest, DeviceStatusRules) {
  StatusUpdate update;
  DeviceRequestAllocationResult result = Result();
  result.driver = "";
  result.pool = "";
  update.old.status.allocation = Allocation({result});
  update.claim.status.allocation = update.old.status.allocation;
  AllocatedDeviceStatus device = DeviceStatus();
  device.driver = "";
  device.pool = "";
  device.share_id = "nope";
  for (int i = 0; i < 9; ++i) {
    Condition condition;
    condition.type = "T" + std::to_string(i);
    condition.status = "True";
    condition.last_transition_time = Time::FromUnix(1);
    condition.reason = "Reason";
    device.conditions.push_back(condition);
  }
  device.data.emplace();
  device.data->raw = "1";
  update.claim.status.devices.push_back(device);
  const std::string d = "status.devices[0]";
  EXPECT_EQ(
      update.Validate(),
      (Strings{
          // An empty driver name is Required and nothing else
          // (ValidateCSIDriverName, k8s.io/kubernetes v1.37.2).
          d + ".driver: Required value",
          d + ".pool: Required value",
          d + R"(: Invalid value: {"Driver":"","Pool":"","Device":"gpu-0","ShareID":"nope"}: must be an allocated device in the claim)",
          d + ".conditions: Too many: 9: must have at most 8 items",
          d + R"(.data: Invalid value: "<value omitted>": must be a valid JSON object)",
          d + R"(.shareID: Invalid value: "nope": must be a lowercase UUID in 8-4-4-4-12 format)",
      }));
}

TEST(ResourceClaimStatusValidationTest, NetworkData) {
  StatusUpdate update;
  update.claim.status.allocation = Allocation();
  AllocatedDeviceStatus device = DeviceStatus();
  device.network_data.emplace();
  device.network_data->interface_name = std::string(257, 'i');
  device.network_data->hardware_address = std::string(129, 'h');
  device.network_data->ips = {"10.0.0.1", "10.0.0.01/24", "10.0.0.1/24", "10.0.0.1/24"};
  update.claim.status.devices.push_back(device);
  const std::string n = "status.devices[0].networkData";
  EXPECT_EQ(
      update.Validate(),
      (Strings{
          n + R"(.ips[0]: Invalid value: "10.0.0.1": must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64))",
          n + R"(.ips[1]: Invalid value: "10.0.0.01/24": must be in canonical form ("10.0.0.1/24"))",
          n + ".interfaceName: Too long: may not be more than 256 bytes",
          n + R"(.ips[3]: Duplicate value: "10.0.0.1/24")",
          n + ".hardwareAddress: Too long: may not be more than 128 bytes",
      }));
  device.network_data->ips.assign(17, "10.0.0.1");
  update.claim.status.devices[0] = device;
  EXPECT_EQ(update.Validate(),
            (Strings{n + ".interfaceName: Too long: may not be more than 256 bytes",
                     n + ".ips: Too many: 17: must have at most 16 items",
                     n + ".hardwareAddress: Too long: may not be more than 128 bytes"}));
}

TEST(ResourceClaimStatusValidationTest, DuplicateDeviceStatus) {
  StatusUpdate update;
  update.claim.status.allocation = Allocation();
  update.claim.status.devices = {DeviceStatus(), DeviceStatus()};
  EXPECT_EQ(
      update.Validate(),
      Strings{
          R"(status.devices[1]: Duplicate value: {"driver":"gpu.example.com","pool":"node-1","device":"gpu-0","conditions":null})"});
}

// Declarative rules skip entries unchanged from the stored object; the
// hand-written rules they cover then report, in hand-written order.
TEST(ResourceClaimStatusValidationTest, UnchangedEntriesGetHandwrittenChecks) {
  StatusUpdate update;
  update.old.status.allocation = Allocation({Result("gpu-0"), Result("gpu-1")});
  AllocatedDeviceStatus stored = DeviceStatus("gpu-0");
  stored.network_data.emplace();
  stored.network_data->interface_name = std::string(257, 'i');
  update.old.status.devices = {stored, stored};
  update.claim.status = update.old.status;
  update.claim.status.devices.push_back(DeviceStatus("Bad"));
  const std::string d = "status.devices";
  const std::string too_long =
      ".networkData.interfaceName: Too long: may not be more than 256 bytes";
  EXPECT_EQ(
      update.Validate(),
      (Strings{
          d + "[0]" + too_long,
          d + "[1]" + too_long,
          d + R"([2].device: Invalid value: "Bad": )" + kLabelMsg,
          d + R"([2]: Invalid value: {"Driver":"gpu.example.com","Pool":"node-1","Device":"Bad","ShareID":""}: must be an allocated device in the claim)",
          d + R"([1]: Duplicate value: {"driver":"gpu.example.com","pool":"node-1","device":"gpu-0","conditions":null,"networkData":{"interfaceName":")" +
              std::string(257, 'i') + R"("}})",
      }));

  update.claim.status.devices.pop_back();
  EXPECT_EQ(
      update.Validate(),
      (Strings{
          d + "[0]" + too_long,
          d + "[1]" + too_long,
          d + R"([1]: Duplicate value: {"Driver":"gpu.example.com","Pool":"node-1","Device":"gpu-0","ShareID":""})",
      }));
}

TEST(ResourceClaimStatusValidationTest, AdminAccessGrantNeedsNamespaceLabel) {
  StatusUpdate update;
  DeviceRequestAllocationResult plain = Result("gpu-0");
  DeviceRequestAllocationResult admin = Result("gpu-1");
  admin.admin_access = true;
  admin.request = "nope";
  update.claim.status.allocation = Allocation({plain, admin});
  const std::string bad_request =
      std::string(kResults) + R"([1].request: Invalid value: "nope": )" + kBadReferenceMsg;
  EXPECT_EQ(update.Validate(),
            (Strings{"status.allocation.devices.results[1].adminAccess: Forbidden: admin access "
                     "to devices requires the `resource.kubernetes.io/admin-access: true` label "
                     "on the containing namespace",
                     bad_request}));

  ValidationOptions labelled;
  labelled.namespace_labels = [](std::string_view) -> std::optional<StringMap> {
    return StringMap{{"resource.kubernetes.io/admin-access", "true"}};
  };
  EXPECT_EQ(update.Validate(labelled), Strings{bad_request});

  // An allocation that already granted admin access is not checked again.
  update.old.status.allocation = Allocation({admin});
  EXPECT_EQ(update.Validate(),
            Strings{"status.allocation: Invalid value: null: field cannot be modified once set"});
}

TEST(ResourceClaimStatusValidationTest, MetadataUpdateRules) {
  StatusUpdate update;
  update.claim.metadata.name = "c2";
  EXPECT_EQ(update.Validate(),
            Strings{R"(metadata.name: Invalid value: "c2": field is immutable)"});
}

TEST(InterfaceAddressTest, CanonicalForms) {
  auto check = [](std::string_view value) {
    FieldErrors errors;
    validation::ValidateInterfaceAddress(value, "ip", errors);
    return Texts(errors);
  };
  auto canonical = [](std::string value, std::string form) {
    return Strings{"ip: Invalid value: \"" + value + "\": must be in canonical form (\"" + form +
                   "\")"};
  };
  const Strings not_cidr = {
      R"(ip: Invalid value: "x": must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64))"};
  EXPECT_EQ(check("192.168.1.5/24"), Strings{});
  EXPECT_EQ(check("2001:db8::1/64"), Strings{});
  EXPECT_EQ(check("::/0"), Strings{});
  // The first of two equally long zero runs becomes "::".
  EXPECT_EQ(check("2001:db8::1:0:0:1/64"), Strings{});
  EXPECT_EQ(check("2001:db8:0:1:0:0:0:1/64"),
            canonical("2001:db8:0:1:0:0:0:1/64", "2001:db8:0:1::1/64"));
  EXPECT_EQ(check("2001:DB8::1/64"), canonical("2001:DB8::1/64", "2001:db8::1/64"));
  EXPECT_EQ(check("2001:db8:0:0:1:0:0:1/128"),
            canonical("2001:db8:0:0:1:0:0:1/128", "2001:db8::1:0:0:1/128"));
  EXPECT_EQ(check("::ffff:192.168.0.1/120"), canonical("::ffff:192.168.0.1/120", "192.168.0.1/24"));
  EXPECT_EQ(check("::ffff:192.168.0.1/64"), canonical("::ffff:192.168.0.1/64", "192.168.0.1/-32"));
  EXPECT_EQ(check("1.2.3.4/024"), canonical("1.2.3.4/024", "1.2.3.4/24"));
  EXPECT_EQ(check("001.2.3.4/8"), canonical("001.2.3.4/8", "1.2.3.4/8"));
  EXPECT_EQ(check("::1.2.3.4/96"), canonical("::1.2.3.4/96", "::102:304/96"));
  for (std::string_view bad :
       {"1.2.3.4/33", "1.2.3.4", "1.2.3/8", "1.2.3.256/8", "::1/129", "1::2::3/64",
        "1:2:3:4:5:6:7:8:9/64", "fe80::1%eth0/64", "1.2.3.4/", "1.2.3.4/-1", ":1::/64"}) {
    EXPECT_EQ(check(bad).size(), 1u) << bad;
    EXPECT_NE(check(bad)[0].find("must be a valid address in CIDR form"), std::string::npos) << bad;
  }
  EXPECT_EQ(check("x"), not_cidr);
}

}  // namespace
}  // namespace dra::api

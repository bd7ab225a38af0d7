// ResourceSlice validation, on create and on update, and create preparation.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "dra/api/validation.h"

namespace dra::api {
namespace {

using Strings = std::vector<std::string>;

const std::string kLabel =
    R"x(a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'))x";
const std::string kSub =
    R"x(a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))x";
const std::string kCid =
    R"x(a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*'))x";
const std::string kLkName =
    R"x(name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'))x";
const std::string kLValue =
    R"x(a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'))x";
const std::string kAttributeMembers =
    "`int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`";

ResourceSlice Slice() {
  ResourceSlice slice;
  slice.metadata.name = "s1";
  slice.spec.driver = "gpu.example.com";
  slice.spec.pool = ResourcePool{"pool-a", 0, 1};
  slice.spec.node_name = "node-1";
  return slice;
}

Device Dev(std::string name) {
  Device device;
  device.name = std::move(name);
  return device;
}

DeviceAttribute IntAttr(std::int64_t v) {
  DeviceAttribute a;
  a.int_value = v;
  return a;
}

DeviceAttribute StringAttr(std::string v) {
  DeviceAttribute a;
  a.string_value = std::move(v);
  return a;
}

Quantity Q(std::string_view text) { return Quantity::MustParse(text); }

Strings Texts(const FieldErrors& errors) {
  Strings out;
  for (const FieldError& e : errors) out.push_back(e.ToString());
  return out;
}

Strings Validate(const ResourceSlice& slice, const ValidationOptions& options = {}) {
  return Texts(ValidateResourceSlice(slice, options));
}

Strings ValidateUpdate(const ResourceSlice& slice, const ResourceSlice& old,
                       const ValidationOptions& options = {}) {
  return Texts(ValidateResourceSliceUpdate(slice, old, options));
}

ValidationOptions WithGate(Feature feature, bool enabled) {
  ValidationOptions options;
  options.gates.Set(feature, enabled);
  return options;
}

TEST(ResourceSliceTest, ValidSliceHasNoErrors) {
  ResourceSlice slice = Slice();
  Device device = Dev("gpu-0");
  device.attributes["model"] = StringAttr("A100");
  DeviceAttribute version;
  version.version_value = "1.2.3";
  device.attributes["driverVersion"] = version;
  device.capacity["memory"] = DeviceCapacity{Q("40Gi"), std::nullopt};
  slice.spec.devices = {device};
  EXPECT_EQ(Validate(slice), Strings{});
}

TEST(ResourceSliceTest, WorkedExampleNodeNameAndAllNodes) {
  ResourceSlice slice = Slice();
  slice.spec.all_nodes = true;
  EXPECT_EQ(InvalidObjectMessage("ResourceSlice", "resource.k8s.io", "s1",
                                 ValidateResourceSlice(slice, {})),
            "ResourceSlice.resource.k8s.io \"s1\" is invalid: spec: Invalid value: \"{`nodeName`, "
            "`allNodes`}\": exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
            "`perDeviceNodeSelection` is required, but multiple fields are set");
}

TEST(ResourceSliceTest, MetadataComesFirst) {
  ResourceSlice slice = Slice();
  slice.metadata.name = "";
  slice.spec.driver = "";
  EXPECT_EQ(Validate(slice), (Strings{
                                 "metadata.name: Required value: name or generateName is required",
                                 "spec.driver: Required value",
                             }));
}

TEST(ResourceSliceTest, DriverAndPool) {
  ResourceSlice slice = Slice();
  slice.spec.driver = "bad_driver";
  slice.spec.pool = ResourcePool{"a//B", -1, 0};
  EXPECT_EQ(Validate(slice),
            (Strings{
                R"(spec.driver: Invalid value: "bad_driver": )" + kSub,
                R"(spec.pool.name: Invalid value: "": )" + kSub,
                R"(spec.pool.name: Invalid value: "B": )" + kSub,
                "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
                "spec.pool.generation: Invalid value: -1: must be greater than or equal to zero",
            }));
}

TEST(ResourceSliceTest, NodeSelectionRequired) {
  ResourceSlice slice = Slice();
  slice.spec.node_name = "";
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          R"(spec.nodeName: Invalid value: "": must be either unset or set to a non-empty string)",
          "spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
          "`perDeviceNodeSelection` is required",
      }));
  slice.spec.node_name.reset();
  slice.spec.all_nodes = false;
  slice.spec.per_device_node_selection = false;
  EXPECT_EQ(Validate(slice),
            (Strings{
                "spec.allNodes: Invalid value: false: must be either unset or set to true",
                "spec.perDeviceNodeSelection: Invalid value: false: must be either unset or set to "
                "true",
                "spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
                "`perDeviceNodeSelection` is required",
            }));
}

TEST(ResourceSliceTest, NodeNameFormatAndAllFourSet) {
  ResourceSlice slice = Slice();
  slice.spec.node_name = "Node_1";
  NodeSelector selector;
  selector.node_selector_terms = {NodeSelectorTerm{}};
  slice.spec.node_selector = selector;
  slice.spec.all_nodes = true;
  slice.spec.per_device_node_selection = true;
  EXPECT_EQ(Validate(slice),
            (Strings{
                R"(spec.nodeName: Invalid value: "Node_1": )" + kSub,
                "spec: Invalid value: \"{`nodeName`, `nodeSelector`, `allNodes`, "
                "`perDeviceNodeSelection`}\": exactly one of `nodeName`, `nodeSelector`, "
                "`allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set",
            }));
}

TEST(ResourceSliceTest, NodeSelectorNeedsExactlyOneTerm) {
  ResourceSlice slice = Slice();
  slice.spec.node_name.reset();
  NodeSelector selector;
  NodeSelectorTerm term;
  term.match_expressions = {NodeSelectorRequirement{"zone", "In", {"a"}}};
  selector.node_selector_terms = {term, NodeSelectorTerm{}};
  slice.spec.node_selector = selector;
  EXPECT_EQ(
      Validate(slice),
      Strings{
          R"(spec.nodeSelector.nodeSelectorTerms: Invalid value: [{"MatchExpressions":[{"Key":"zone","Operator":"In","Values":["a"]}],"MatchFields":null},{"MatchExpressions":null,"MatchFields":null}]: must have exactly one node selector term)"});
  selector.node_selector_terms = {};
  selector.node_selector_terms.set_present();
  slice.spec.node_selector = selector;
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          "spec.nodeSelector.nodeSelectorTerms: Required value: must have at least one node "
          "selector term",
          "spec.nodeSelector.nodeSelectorTerms: Invalid value: []: must have exactly one node "
          "selector term",
      }));
}

TEST(ResourceSliceTest, SharedCountersAndDevicesExcludeEachOther) {
  ResourceSlice slice = Slice();
  slice.spec.devices.set_present();
  slice.spec.shared_counters.set_present();
  EXPECT_EQ(
      Validate(slice),
      Strings{R"(spec: Invalid value: "": only one of `sharedCounters` or `devices` is allowed)"});
}

TEST(ResourceSliceTest, TooManyDevicesSkipsHandWrittenDeviceChecks) {
  ResourceSlice slice = Slice();
  for (int i = 0; i < 129; ++i) slice.spec.devices.push_back(Dev("Bad-" + std::to_string(i)));
  // Declarative checks still run on every device.
  slice.spec.devices[0].attributes["a"] = DeviceAttribute{};
  EXPECT_EQ(Validate(slice),
            (Strings{
                "spec.devices: Too many: 129: must have at most 128 items",
                R"(spec.devices[0].attributes[a]: Invalid value: "": must specify one of: )" +
                    kAttributeMembers,
            }));
}

TEST(ResourceSliceTest, AdvancedFeaturesLowerTheDeviceLimit) {
  ResourceSlice slice = Slice();
  for (int i = 0; i < 65; ++i) slice.spec.devices.push_back(Dev("d" + std::to_string(i)));
  EXPECT_EQ(Validate(slice), Strings{});
  slice.spec.devices[7].taints = {DeviceTaint{"example.com/t", "", "NoSchedule", {}}};
  EXPECT_EQ(Validate(slice), Strings{"spec.devices: Too many: 65: must have at most 64 items"});
  slice.spec.devices[7].taints.set_nil();
  slice.spec.devices[3].attributes["list"] = DeviceAttribute{};
  slice.spec.devices[3].attributes["list"].int_values.set_present();  // even an empty list
  EXPECT_EQ(Texts(ValidateResourceSlice(slice, {})).front(),
            "spec.devices: Too many: 65: must have at most 64 items");
}

TEST(ResourceSliceTest, DeviceNamesAndDuplicates) {
  ResourceSlice slice = Slice();
  slice.spec.devices = {Dev("gpu-0"), Dev("GPU_1"), Dev("gpu-0")};
  EXPECT_EQ(Validate(slice), (Strings{
                                 R"(spec.devices[1].name: Invalid value: "GPU_1": )" + kLabel,
                                 R"(spec.devices[2]: Duplicate value: "gpu-0")",
                             }));
}

TEST(ResourceSliceTest, AttributeAndCapacityCounts) {
  ResourceSlice slice = Slice();
  Device device = Dev("d");
  for (int i = 0; i < 20; ++i) device.attributes["a" + std::to_string(i)] = IntAttr(i);
  for (int i = 0; i < 13; ++i) {
    device.capacity["c" + std::to_string(i)] = DeviceCapacity{Q("1"), std::nullopt};
  }
  DeviceAttribute list;
  list.int_values = List<std::int64_t>(30, 1);
  device.attributes["a0"] = list;
  slice.spec.devices = {device};
  EXPECT_EQ(Validate(slice, WithGate(Feature::kDRAListTypeAttributes, true)),
            (Strings{
                "spec.devices[0]: Invalid value: 33: the total number of attributes and capacities "
                "must not exceed 32",
                "spec.devices[0]: Invalid value: 49: the total number of attribute values must not "
                "exceed 48",
            }));
}

TEST(ResourceSliceTest, AttributeValues) {
  ResourceSlice slice = Slice();
  Device device = Dev("d");
  device.attributes["long"] = StringAttr(std::string(65, 's'));
  DeviceAttribute version;
  version.version_value = "v" + std::string(64, '1');
  device.attributes["ver"] = version;
  DeviceAttribute strings;
  strings.string_values = {"ok", std::string(65, 'x')};
  device.attributes["strs"] = strings;
  DeviceAttribute versions;
  versions.version_values = {"1.2.3", "01.2.3"};
  device.attributes["vers"] = versions;
  slice.spec.devices = {device};
  const std::string d = "spec.devices[0].attributes";
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          d + "[long].string: Too long: may not be more than 64 bytes",
          d + "[strs].strings[1]: Too long: may not be more than 64 bytes",
          d + "[ver].version: Invalid value: \"v" + std::string(64, '1') +
              "\": must be a string compatible with semver.org spec 2.0.0",
          d + "[ver].version: Too long: may not be more than 64 bytes",
          d + R"([vers].versions[1]: Invalid value: "01.2.3": must be a string compatible with semver.org spec 2.0.0)",
      }));
}

TEST(ResourceSliceTest, AttributeUnionWorkedExample) {
  ResourceSlice slice = Slice();
  Device device = Dev("d");
  DeviceAttribute two = IntAttr(1);
  two.string_value = "x";
  device.attributes["a"] = two;
  slice.spec.devices = {device};
  EXPECT_EQ(
      Validate(slice),
      Strings{
          R"(spec.devices[0].attributes[a]: Invalid value: "{int, string}": must specify exactly one of: )" +
          kAttributeMembers});
}

TEST(ResourceSliceTest, AttributeUnionHandWrittenTextWithoutDeclarativeTwin) {
  ResourceSlice slice = Slice();
  Device device = Dev("d");
  DeviceAttribute int_and_empty_list = IntAttr(1);
  int_and_empty_list.int_values.set_present();
  device.attributes["a"] = int_and_empty_list;
  DeviceAttribute only_empty_list;
  only_empty_list.bool_values.set_present();
  device.attributes["b"] = only_empty_list;
  device.attributes["c"] = DeviceAttribute{};
  slice.spec.devices = {device};
  const std::string p = "spec.devices[0].attributes";
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          p + "[a].ints: Invalid value: []: must not be empty if specified",
          p + R"([a]: Invalid value: {"IntValue":1,"BoolValue":null,"StringValue":null,"VersionValue":null,"IntValues":[],"BoolValues":null,"StringValues":null,"VersionValues":null}: exactly one value must be specified)",
          p + "[b].bools: Invalid value: []: must not be empty if specified",
          p + R"([b]: Invalid value: "": must specify one of: )" + kAttributeMembers,
          p + R"([c]: Invalid value: "": must specify one of: )" + kAttributeMembers,
      }));
}

TEST(ResourceSliceTest, DeclarativePathsFollowTheRequestVersion) {
  ResourceSlice slice = Slice();
  Device device = Dev("d");
  device.attributes["a"] = DeviceAttribute{};
  device.attributes["Bad-Key"] = IntAttr(1);
  slice.spec.devices = {device};
  ValidationOptions options;
  options.request_version = "v1beta1";
  EXPECT_EQ(Validate(slice, options),
            (Strings{
                R"(spec.devices[0].attributes: Invalid value: "Bad-Key": )" + kCid,
                R"(spec.devices[0].basic.attributes[a]: Invalid value: "": must specify one of: )" +
                    kAttributeMembers,
            }));
}

TEST(ResourceSliceTest, QualifiedNameKeys) {
  ResourceSlice slice = Slice();
  Device device = Dev("d");
  device.attributes["/x"] = IntAttr(1);
  device.capacity["bad_domain/mem"] = DeviceCapacity{Q("1"), std::nullopt};
  const std::string long_key = std::string(60, 'd') + "/" + std::string(40, 'i');
  device.attributes[long_key] = StringAttr(std::string(65, 'v'));
  slice.spec.devices = {device};
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          R"(spec.devices[0].attributes: Invalid value: "": the domain must not be empty)",
          "spec.devices[0].attributes: Too long: may not be more than 32 bytes",
          "spec.devices[0].attributes[" + std::string(47, 'd') + "..." + std::string(5, 'd') + "/" +
              std::string(40, 'i') + "].string: Too long: may not be more than 64 bytes",
          R"(spec.devices[0].capacity: Invalid value: "bad_domain": )" + kSub,
      }));
}

TEST(ResourceSliceTest, RequestPolicyNeedsMultipleAllocations) {
  ResourceSlice slice = Slice();
  Device device = Dev("d");
  device.capacity["mem"] = DeviceCapacity{Q("10"), CapacityRequestPolicy{}};
  slice.spec.devices = {device};
  EXPECT_EQ(Validate(slice), Strings{"spec.devices[0].capacity[mem].requestPolicy: Forbidden: "
                                     "allowMultipleAllocations must be true"});
  slice.spec.devices[0].allow_multiple_allocations = true;
  EXPECT_EQ(Validate(slice), Strings{});
}

// A slice with one multi-allocatable device whose "mem" capacity is 10 and
// carries `policy`.
ResourceSlice PolicySlice(const CapacityRequestPolicy& policy, std::string_view capacity = "10") {
  ResourceSlice slice = Slice();
  Device device = Dev("d");
  device.allow_multiple_allocations = true;
  device.capacity["mem"] = DeviceCapacity{Q(capacity), policy};
  slice.spec.devices = {device};
  return slice;
}

const std::string kPolicy = "spec.devices[0].capacity[mem].requestPolicy";

CapacityRequestPolicy ValidValues(std::optional<std::string_view> default_value,
                                  const std::vector<std::string_view>& values) {
  CapacityRequestPolicy policy;
  if (default_value) policy.default_ = Q(*default_value);
  for (std::string_view v : values) policy.valid_values.push_back(Q(v));
  return policy;
}

CapacityRequestPolicy ValidRange(std::optional<std::string_view> default_value,
                                 std::optional<std::string_view> min,
                                 std::optional<std::string_view> max,
                                 std::optional<std::string_view> step) {
  CapacityRequestPolicy policy;
  if (default_value) policy.default_ = Q(*default_value);
  CapacityRequestPolicyRange range;
  if (min) range.min = Q(*min);
  if (max) range.max = Q(*max);
  if (step) range.step = Q(*step);
  policy.valid_range = range;
  return policy;
}

TEST(RequestPolicyTest, OnlyOnePolicyAndDefaultRequired) {
  CapacityRequestPolicy both = ValidRange("1", "1", std::nullopt, std::nullopt);
  both.valid_values = {Q("1")};
  EXPECT_EQ(
      Validate(PolicySlice(both)),
      Strings{
          kPolicy +
          R"(: Forbidden: exactly one policy can be specified, cannot specify "validValues" and "validRange" at the same time)"});
  EXPECT_EQ(Validate(PolicySlice(ValidValues(std::nullopt, {"1"}))),
            Strings{kPolicy + ".default: Required value: required when validValues is defined"});
  EXPECT_EQ(Validate(PolicySlice(ValidRange(std::nullopt, "1", std::nullopt, std::nullopt))),
            Strings{kPolicy + ".default: Required value: required when validRange is defined"});
  EXPECT_EQ(
      Validate(PolicySlice(ValidRange("1", std::nullopt, std::nullopt, std::nullopt))),
      Strings{kPolicy + ".validRange.min: Required value: required when validRange is defined"});
}

TEST(RequestPolicyTest, ValidValues) {
  EXPECT_EQ(
      Validate(PolicySlice(ValidValues("4", {"1", "20", "3"}))),
      (Strings{
          kPolicy +
              R"(.validValues[2]: Invalid value: "3": values must be sorted in ascending order)",
          kPolicy +
              R"(.validValues[1]: Invalid value: "20": option is larger than capacity value: 10)",
          kPolicy +
              R"(.validValues: Invalid value: "4": default value is not valid according to the requestPolicy)",
      }));
  EXPECT_EQ(
      Validate(
          PolicySlice(ValidValues("1", {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "10"}))),
      (Strings{
          kPolicy + ".validValues: Too many: 11: must have at most 10 items",
          kPolicy +
              R"(.validValues: Invalid value: "1": default value is not valid according to the requestPolicy)",
      }));
}

TEST(RequestPolicyTest, DuplicateValuesByIntegerOrExactValue) {
  const CapacityRequestPolicy rounded_equal = ValidValues("1.2", {"1.2", "1.5"});
  EXPECT_EQ(
      Validate(PolicySlice(rounded_equal), WithGate(Feature::kDRAFractionalCapacityRange, false)),
      Strings{kPolicy + R"(.validValues[1]: Duplicate value: "2")"});
  const ValidationOptions fractional = WithGate(Feature::kDRAFractionalCapacityRange, true);
  EXPECT_EQ(Validate(PolicySlice(rounded_equal), fractional), Strings{});
  EXPECT_EQ(Validate(PolicySlice(ValidValues("1.5", {"1.5", "1500m"})), fractional),
            Strings{kPolicy + R"(.validValues[1]: Duplicate value: "1.5")"});
  EXPECT_EQ(Validate(PolicySlice(ValidValues("1Ki", {"1Ki", "1024"}), "2Ki"), fractional),
            Strings{kPolicy + R"(.validValues[1]: Duplicate value: "1024")"});
}

TEST(RequestPolicyTest, RangeBounds) {
  EXPECT_EQ(
      Validate(PolicySlice(ValidRange("1", "20", "5", std::nullopt))),
      (Strings{
          kPolicy +
              R"(.validRange.min: Invalid value: "20": min is larger than capacity value: 10)",
          kPolicy + R"(.validRange.default: Invalid value: "1": default is less than min: 20)",
          kPolicy + R"(.validRange.max: Invalid value: "20": min is larger than max: 5)",
      }));
  EXPECT_EQ(
      Validate(PolicySlice(ValidRange("30", "0", "20", std::nullopt))),
      (Strings{
          kPolicy +
              R"(.validRange.max: Invalid value: "20": max is larger than capacity value: 10)",
          kPolicy + R"(.validRange.default: Invalid value: "30": default is more than max: 20)",
      }));
}

TEST(RequestPolicyTest, RangeSteps) {
  EXPECT_EQ(
      Validate(PolicySlice(ValidRange("1", "1", std::nullopt, "0"))),
      Strings{kPolicy + R"(.validRange.step: Invalid value: "0": must be greater than zero)"});
  EXPECT_EQ(
      Validate(PolicySlice(ValidRange("2", "2", std::nullopt, "9"))),
      Strings{
          kPolicy +
          R"(.validRange.step: Invalid value: "9": one step 11 is larger than capacity value: 10)"});
  EXPECT_EQ(
      Validate(PolicySlice(ValidRange("3", "0", "10", "4"))),
      (Strings{
          kPolicy +
              R"(.validRange.step: Invalid value: "3": value is not a multiple of a given step (4) from (0))",
          kPolicy +
              R"(.validRange.step: Invalid value: "10": value is not a multiple of a given step (4) from (0))",
      }));
  EXPECT_EQ(Validate(PolicySlice(ValidRange("4", "0", "8", "4"))), Strings{});
}

TEST(RequestPolicyTest, IntegerModeBoundsMustFitInt64) {
  EXPECT_EQ(
      Validate(PolicySlice(ValidRange("-2", "-2", std::nullopt, "1"))),
      (Strings{
          kPolicy +
              R"(.validRange.default: Invalid value: "-2": must be greater than or equal to 0)",
          kPolicy + R"(.validRange.min: Invalid value: "-2": must be greater than or equal to 0)",
      }));
  EXPECT_EQ(
      Validate(PolicySlice(ValidRange("0", "0", "20E", "1"), "100E")),
      Strings{
          kPolicy +
          R"(.validRange.max: Invalid value: "20E": must not be larger than 9223372036854775807)"});
}

TEST(RequestPolicyTest, MilliModeWithFractionalRangeGate) {
  const CapacityRequestPolicy policy = ValidRange("1", "0.5", std::nullopt, "0.3");
  // Without the gate, values are rounded up to integers: 1 - 1 is a multiple of 1.
  EXPECT_EQ(Validate(PolicySlice(policy), WithGate(Feature::kDRAFractionalCapacityRange, false)),
            Strings{});
  const ValidationOptions fractional = WithGate(Feature::kDRAFractionalCapacityRange, true);
  EXPECT_EQ(
      Validate(PolicySlice(policy), fractional),
      Strings{
          kPolicy +
          R"(.validRange.step: Invalid value: "1": value is not a multiple of a given step (300m) from (500m))"});
  EXPECT_EQ(Validate(PolicySlice(ValidRange("1", "0.5", "2", "0.25")), fractional), Strings{});
  EXPECT_EQ(
      Validate(PolicySlice(ValidRange("1", "0.0005", std::nullopt, std::nullopt)), fractional),
      Strings{
          kPolicy +
          R"(.validRange.min: Invalid value: "500u": value cannot be represented as a milli value)"});
}

TEST(ResourceSliceTest, Taints) {
  ResourceSlice slice = Slice();
  Device device = Dev("d");
  device.taints = {DeviceTaint{"-bad", "-v", "", {}},
                   DeviceTaint{"example.com/ok", "", "Evict", {}}};
  Device many = Dev("m");
  for (int i = 0; i < 17; ++i) many.taints.push_back(DeviceTaint{"k", "", "NoSchedule", {}});
  slice.spec.devices = {device, many};
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          R"(spec.devices[0].taints[0].key: Invalid value: "-bad": )" + kLkName,
          R"(spec.devices[0].taints[0].value: Invalid value: "-v": )" + kLValue,
          "spec.devices[1].taints: Too many: 17: must have at most 16 items",
          "spec.devices[0].taints[0].effect: Required value",
          R"(spec.devices[0].taints[1].effect: Unsupported value: "Evict": supported values: "NoExecute", "NoSchedule", "None")",
      }));
}

DeviceCounterConsumption Consumption(std::string set, const std::vector<std::string>& names) {
  DeviceCounterConsumption c;
  c.counter_set = std::move(set);
  for (const std::string& n : names) c.counters[n] = Counter{Q("1")};
  return c;
}

TEST(ResourceSliceTest, CounterConsumption) {
  ResourceSlice slice = Slice();
  Device bad = Dev("bad");
  bad.consumes_counters = {Consumption("", {}), Consumption("Set_A", {"Bad_Key"})};
  std::vector<std::string> many(33);
  for (int i = 0; i < 33; ++i) many[i] = "c" + std::to_string(i);
  Device repeated = Dev("repeated");
  repeated.consumes_counters = {Consumption("a", many), Consumption("a", {"x"})};
  Device over = Dev("over");
  over.consumes_counters = {Consumption("a", {"x"}), Consumption("b", {"x"}),
                            Consumption("c", {"x"})};
  slice.spec.devices = {bad, repeated, over};
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          "spec.devices[1].consumesCounters[0].counters: Too many: 33: must have at most 32 items",
          "spec.devices[0].consumesCounters[0].counterSet: Required value",
          "spec.devices[0].consumesCounters[0].counters: Required value",
          R"(spec.devices[0].consumesCounters[1].counterSet: Invalid value: "Set_A": )" + kLabel,
          R"(spec.devices[0].consumesCounters[1].counters: Invalid value: "Bad_Key": )" + kLabel,
          R"(spec.devices[1].consumesCounters[1]: Duplicate value: {"counterSet":"a","counters":{"x":{"value":"1"}}})",
          "spec.devices[2].consumesCounters: Too many: 3: must have at most 2 items",
      }));
}

// Messages as a real kube-apiserver v1.37.2 gives them with
// DRADeviceCompatibilityGroups on (server-side dry-run of the same slice).
TEST(ResourceSliceTest, CompatibilityGroups) {
  ResourceSlice slice = Slice();
  Device twice = Dev("d0");
  twice.consumes_counters = {Consumption("set", {"x"})};
  twice.consumes_counters[0].compatibility_groups = {"a", "a"};
  Device three = Dev("d1");
  three.consumes_counters = {Consumption("set", {"x"})};
  three.consumes_counters[0].compatibility_groups = {"x", "w", "z"};
  Device bad = Dev("d2");
  bad.consumes_counters = {Consumption("set", {"x"})};
  bad.consumes_counters[0].compatibility_groups = {"Bad_Name", "ok"};
  slice.spec.devices = {twice, three, bad};
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          R"(spec.devices[0].consumesCounters[0].compatibilityGroups[1]: Duplicate value: "a")",
          "spec.devices[1].consumesCounters[0].compatibilityGroups: Too many: 3: must have at "
          "most 2 items",
          R"(spec.devices[2].consumesCounters[0].compatibilityGroups[0]: Invalid value: "Bad_Name": )" +
              kLabel,
      }));
  // The registry drops them while the gate is off (the default).
  PrepareForCreate(slice, FeatureGates{});
  for (const Device& d : slice.spec.devices) {
    EXPECT_TRUE(d.consumes_counters.at(0).compatibility_groups.nil()) << d.name;
  }
  FeatureGates on;
  on.Set(Feature::kDRADeviceCompatibilityGroups, true);
  slice.spec.devices[0].consumes_counters[0].compatibility_groups = {"a"};
  PrepareForCreate(slice, on);
  EXPECT_EQ(slice.spec.devices[0].consumes_counters[0].compatibility_groups,
            (List<std::string>{"a"}));
}

TEST(ResourceSliceTest, PerDeviceNodeSelection) {
  ResourceSlice slice = Slice();
  slice.spec.node_name.reset();
  slice.spec.per_device_node_selection = true;
  Device none = Dev("none");
  Device several = Dev("several");
  several.node_name = "node-1";
  several.all_nodes = true;
  Device bad = Dev("bad");
  bad.node_name = "";
  bad.all_nodes = false;
  Device selector = Dev("selector");
  selector.node_selector = NodeSelector{};
  Device named = Dev("named");
  named.node_name = "Node_1";
  slice.spec.devices = {none, several, bad, selector, named};
  const std::string required =
      "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
      "`perDeviceNodeSelection` is set to true in the ResourceSlice spec";
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          "spec.devices[0]: Required value: " + required,
          "spec.devices[1]: Invalid value: \"{`nodeName`, `allNodes`}\": " + required,
          R"(spec.devices[2].nodeName: Invalid value: "": must not be empty)",
          R"(spec.devices[2].allNodes: Invalid value: false: must be either unset or set to true)",
          "spec.devices[2]: Required value: " + required,
          R"(spec.devices[3].nodeSelector.nodeSelectorTerms: Required value: must have at least one node selector term)",
          R"(spec.devices[4].nodeName: Invalid value: "Node_1": )" + kSub,
      }));
}

TEST(ResourceSliceTest, DeviceNodeSelectionNeedsPerDeviceSelection) {
  ResourceSlice slice = Slice();
  Device device = Dev("d");
  device.all_nodes = true;
  slice.spec.devices = {device};
  EXPECT_EQ(Validate(slice),
            Strings{"spec.devices[0]: Invalid value: null: `nodeName`, `nodeSelector` and "
                    "`allNodes` can only be set if `perDeviceNodeSelection` is set to true in the "
                    "ResourceSlice spec"});
}

TEST(ResourceSliceTest, BindingConditions) {
  ResourceSlice slice = Slice();
  Device device = Dev("d");
  device.binding_conditions = {"example.com/ready", "-bad", "example.com/ready"};
  device.binding_failure_conditions = {"example.com/ready"};
  Device failures_only = Dev("f");
  failures_only.binding_failure_conditions = {"a", "b", "c", "d", "-e"};
  slice.spec.devices = {device, failures_only};
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          R"(spec.devices[0].bindingConditions[1]: Invalid value: "-bad": )" + kLkName,
          R"(spec.devices[0].bindingConditions[2]: Duplicate value: "example.com/ready")",
          R"(spec.devices[0].bindingFailureConditions[0]: Invalid value: "example.com/ready": bindingFailureConditions must not overlap with bindingConditions)",
          R"(spec.devices[1].bindingConditions: Invalid value: null: bindingConditions are required to use bindingFailureConditions)",
          "spec.devices[1].bindingFailureConditions: Too many: 5: must have at most 4 items",
      }));
}

TEST(ResourceSliceTest, NodeAllocatableResources) {
  ResourceSlice slice = Slice();
  Device device = Dev("d");
  device.capacity["mem"] = DeviceCapacity{Q("1Gi"), std::nullopt};
  NodeAllocatableMapping both;
  both.capacity_key = "missing";
  both.capacity_multiplier = Q("0");
  both.device_multiplier = Q("-1");
  NodeAllocatableMapping neither;
  neither.capacity_multiplier = Q("2");
  NodeAllocatableMapping empty_key;
  empty_key.capacity_key = "";
  device.node_allocatable_resources["cpu"] = NodeAllocatableResource{both, std::nullopt};
  device.node_allocatable_resources["example.com/gpu"] = NodeAllocatableResource{};
  device.node_allocatable_resources["hugepages-2Mi"] =
      NodeAllocatableResource{neither, NodeAllocatableOverhead{}};
  device.node_allocatable_resources["memory"] =
      NodeAllocatableResource{empty_key, NodeAllocatableOverhead{Q("-1"), Q("1")}};
  slice.spec.devices = {device};
  const std::string n = "spec.devices[0].nodeAllocatableResources";
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          n + R"([cpu].mapping.capacityKey: Not found: "missing")",
          n + R"([cpu].mapping.capacityMultiplier: Invalid value: "0": must be positive)",
          n + R"([cpu].mapping.deviceMultiplier: Invalid value: "-1": must be positive)",
          n + R"([example.com/gpu]: Invalid value: "example.com/gpu": must be a node allocatable resource name)",
          n + "[example.com/gpu]: Required value: at least one of mapping or overhead must be set",
          n + "[hugepages-2Mi].mapping.capacityKey: Required value: capacityKey is required when "
              "capacityMultiplier is set",
          n + R"([hugepages-2Mi].overhead: Invalid value: "": at least one of perPod or perContainer must be set)",
          n + R"([memory].mapping.capacityKey: Invalid value: "": capacityKey must not be an empty string)",
          n + "[memory].mapping.capacityMultiplier: Required value: capacityMultiplier is "
              "required when capacityKey is set",
          n + R"([memory].overhead.perPod: Invalid value: "-1": must be non-negative)",
          n + R"([cpu].mapping: Invalid value: "{capacityKey, deviceMultiplier}": must specify exactly one of: `capacityKey`, `deviceMultiplier`)",
          n + R"([hugepages-2Mi].mapping: Invalid value: "": must specify one of: `capacityKey`, `deviceMultiplier`)",
      }));
}

CounterSet Set(std::string name, const std::vector<std::string>& counters) {
  CounterSet set;
  set.name = std::move(name);
  for (const std::string& c : counters) set.counters[c] = Counter{Q("8Gi")};
  return set;
}

TEST(ResourceSliceTest, SharedCounters) {
  ResourceSlice slice = Slice();
  std::vector<std::string> many(33);
  for (int i = 0; i < 33; ++i) many[i] = "c" + std::to_string(i);
  slice.spec.shared_counters = {Set("", {}), Set("Bad_Set", {"Bad_Counter"}), Set("a", many),
                                Set("a", {"x"})};
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          "spec.sharedCounters[2].counters: Too many: 33: must have at most 32 items",
          R"(spec.sharedCounters[3]: Duplicate value: {"name":"a","counters":{"x":{"value":"8Gi"}}})",
          "spec.sharedCounters[0].name: Required value",
          "spec.sharedCounters[0].counters: Required value",
          R"(spec.sharedCounters[1].name: Invalid value: "Bad_Set": )" + kLabel,
          R"(spec.sharedCounters[1].counters: Invalid value: "Bad_Counter": )" + kLabel,
      }));
  slice.spec.shared_counters.clear();
  for (int i = 0; i < 9; ++i)
    slice.spec.shared_counters.push_back(Set("s" + std::to_string(i), many));
  EXPECT_EQ(Validate(slice),
            Strings{"spec.sharedCounters: Too many: 9: must have at most 8 items"});
}

ResourceSlice PartitionedSlice() {
  ResourceSlice slice = Slice();
  slice.spec.partition_type_attribute = "gpu.example.com/type";
  Device bare = Dev("bare");
  bare.attributes["type"] = StringAttr("1g");
  bare.consumes_counters = {Consumption("set", {"mem"})};
  Device missing = Dev("missing");
  missing.consumes_counters = {Consumption("set", {"mem"})};
  Device wrong_type = Dev("wrong-type");
  wrong_type.attributes["gpu.example.com/type"] = IntAttr(1);
  wrong_type.consumes_counters = {Consumption("set", {"mem"})};
  Device whole = Dev("whole");
  slice.spec.devices = {bare, missing, wrong_type, whole};
  return slice;
}

TEST(ResourceSliceTest, PartitionTypeAttribute) {
  const ValidationOptions typed = WithGate(Feature::kDRAPartitionableDevicesType, true);
  const Strings device_errors = {
      "spec.devices[1].attributes[gpu.example.com/type]: Required value: device consumes "
      "counters and `partitionTypeAttribute` names this attribute, so it must be set",
      R"(spec.devices[2].attributes[gpu.example.com/type]: Invalid value: {"IntValue":1,"BoolValue":null,"StringValue":null,"VersionValue":null,"IntValues":null,"BoolValues":null,"StringValues":null,"VersionValues":null}: must be a string value because `partitionTypeAttribute` names this attribute)",
  };
  EXPECT_EQ(Validate(PartitionedSlice(), typed), device_errors);
  Strings forbidden = device_errors;
  forbidden.push_back("spec.partitionTypeAttribute: Forbidden");
  EXPECT_EQ(Validate(PartitionedSlice()), forbidden);

  ResourceSlice no_consumers = Slice();
  no_consumers.spec.partition_type_attribute = "gpu.example.com/type";
  EXPECT_EQ(
      Validate(no_consumers, typed),
      Strings{
          R"(spec.partitionTypeAttribute: Invalid value: "gpu.example.com/type": may only be set on a slice which declares devices that consume counters)"});

  ResourceSlice malformed = PartitionedSlice();
  malformed.spec.partition_type_attribute = "type";
  EXPECT_EQ(
      Validate(malformed, typed),
      Strings{
          R"(spec.partitionTypeAttribute: Invalid value: "type": a fully qualified name must be a domain and a name separated by a slash)"});
}

TEST(ResourceSliceTest, SkipNodeOperations) {
  ResourceSlice slice = Slice();
  slice.spec.skip_node_operations = {"NodePrepareResources", "Bogus", "NodePrepareResources"};
  EXPECT_EQ(
      Validate(slice),
      (Strings{
          R"(spec.skipNodeOperations: Invalid value: ["NodePrepareResources","Bogus","NodePrepareResources"]: NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped)",
          R"(spec.skipNodeOperations[2]: Duplicate value: "NodePrepareResources")",
          R"(spec.skipNodeOperations[1]: Unsupported value: "Bogus": supported values: "*", "NodePrepareResources", "NodeUnprepareResources")",
      }));
  slice.spec.skip_node_operations = {"NodePrepareResources", "*"};
  EXPECT_EQ(Validate(slice), Strings{});
}

TEST(ResourceSliceTest, HandWrittenErrorsPrecedeDeclarativeOnes) {
  ResourceSlice slice = Slice();
  slice.spec.shared_counters = {Set("", {"a"})};
  Device device = Dev("Bad");
  device.taints = {DeviceTaint{"k", "", "", {}}};
  slice.spec.devices = {device};
  slice.spec.pool.resource_slice_count = 0;
  EXPECT_EQ(Validate(slice),
            (Strings{
                "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
                R"(spec: Invalid value: "": only one of `sharedCounters` or `devices` is allowed)",
                R"(spec.devices[0].name: Invalid value: "Bad": )" + kLabel,
                "spec.devices[0].taints[0].effect: Required value",
                "spec.sharedCounters[0].name: Required value",
            }));
}

TEST(ResourceSliceUpdateTest, ImmutableFields) {
  ResourceSlice old = Slice();
  ResourceSlice slice = old;
  slice.spec.driver = "other.example.com";
  slice.spec.pool.name = "pool-b";
  slice.spec.node_name.reset();
  slice.spec.all_nodes = true;
  EXPECT_EQ(ValidateUpdate(slice, old),
            (Strings{
                R"(spec.pool.name: Invalid value: "pool-b": field is immutable)",
                R"(spec.driver: Invalid value: "other.example.com": field is immutable)",
                "spec.nodeName: Invalid value: null: field is immutable",
            }));
  old.spec.node_name.reset();
  old.spec.all_nodes = true;
  slice = old;
  slice.spec.all_nodes.reset();
  slice.spec.node_name = "node-2";
  EXPECT_EQ(ValidateUpdate(slice, old),
            Strings{R"(spec.nodeName: Invalid value: "node-2": field is immutable)"});
}

TEST(ResourceSliceUpdateTest, MetadataRules) {
  ResourceSlice old = Slice();
  old.metadata.generation = 2;
  ResourceSlice slice = old;
  slice.metadata.generation = 1;
  slice.metadata.name = "s2";
  EXPECT_EQ(ValidateUpdate(slice, old),
            (Strings{"metadata.generation: Invalid value: 1: must not be decremented",
                     R"(metadata.name: Invalid value: "s2": field is immutable)"}));
}

TEST(ResourceSliceUpdateTest, UnchangedCapacityAndTaintsAreNotRevalidated) {
  ResourceSlice old = PolicySlice(ValidValues("4", {"1", "2"}));
  old.spec.devices[0].taints = {DeviceTaint{"-bad", "", "NoSchedule", {}}};
  // A new device keeps the declarative checks of the device list running.
  ResourceSlice slice = old;
  slice.spec.devices.push_back(Dev("new"));
  EXPECT_EQ(ValidateUpdate(slice, old), Strings{});
  slice.spec.devices[0].capacity["mem"].value = Q("11");
  slice.spec.devices[0].taints[0].value = "v";
  EXPECT_EQ(
      ValidateUpdate(slice, old),
      (Strings{
          kPolicy +
              R"(.validValues: Invalid value: "4": default value is not valid according to the requestPolicy)",
          R"(spec.devices[0].taints[0].key: Invalid value: "-bad": )" + kLkName,
      }));
}

TEST(ResourceSliceUpdateTest, UnchangedSpecSkipsDeclarativeChecks) {
  ResourceSlice old = Slice();
  old.spec.devices = {Dev("d")};
  old.spec.devices[0].taints = {DeviceTaint{"k", "", "Stale", {}}};
  old.spec.skip_node_operations = {"Stale"};
  EXPECT_EQ(ValidateUpdate(old, old), Strings{});
  ResourceSlice slice = old;
  slice.metadata.labels["x"] = "y";
  EXPECT_EQ(ValidateUpdate(slice, old), Strings{});
  slice.spec.devices.push_back(Dev("e"));
  EXPECT_EQ(
      ValidateUpdate(slice, old),
      Strings{
          R"(spec.devices[0].taints[0].effect: Unsupported value: "Stale": supported values: "NoExecute", "NoSchedule", "None")"});
}

TEST(ResourceSliceUpdateTest, UnchangedCounterSetsAreNotRevalidated) {
  ResourceSlice old = Slice();
  old.spec.node_name.reset();
  old.spec.all_nodes = true;
  old.spec.shared_counters = {Set("Old_Set", {"x"}), Set("b", {"Old_Key"})};
  ResourceSlice slice = old;
  slice.spec.shared_counters[1].counters["New_Key"] = Counter{Q("1")};
  EXPECT_EQ(ValidateUpdate(slice, old),
            Strings{R"(spec.sharedCounters[1].counters: Invalid value: "New_Key": )" + kLabel});
}

// k8s.io/kubernetes v1.37.2 pkg/registry/resource/resourceslice: the
// partition type attribute belongs to DRAPartitionableDevicesType, whatever
// DRAResourcePoolStatus says.
TEST(PrepareForCreateTest, PartitionTypeAttributeFollowsItsOwnGate) {
  ResourceSlice slice = Slice();
  slice.spec.partition_type_attribute = "gpu.example.com/type";
  FeatureGates pool_status;
  pool_status.Set(Feature::kDRAResourcePoolStatus, true);
  ResourceSlice dropped = slice;
  PrepareForCreate(dropped, pool_status);
  EXPECT_FALSE(dropped.spec.partition_type_attribute.has_value());
  FeatureGates type;
  type.Set(Feature::kDRAPartitionableDevicesType, true);
  ResourceSlice kept = slice;
  PrepareForCreate(kept, type);
  EXPECT_EQ(kept.spec.partition_type_attribute, "gpu.example.com/type");
}

TEST(PrepareForCreateTest, ResourceSliceGenerationAndDisabledGates) {
  ResourceSlice slice = Slice();
  slice.metadata.generation = 7;
  slice.spec.per_device_node_selection = true;
  slice.spec.shared_counters = {Set("a", {"x"})};
  slice.spec.partition_type_attribute = "gpu.example.com/type";
  slice.spec.skip_node_operations = {"*"};
  Device device = Dev("d");
  device.taints = {DeviceTaint{"k", "", "NoSchedule", {}}};
  device.consumes_counters = {Consumption("a", {"x"})};
  device.node_name = "n";
  device.binding_conditions = {"a"};
  device.binding_failure_conditions = {"b"};
  device.binds_to_node = true;
  device.allow_multiple_allocations = true;
  device.capacity["mem"] = DeviceCapacity{Q("1"), CapacityRequestPolicy{}};
  device.node_allocatable_resources["cpu"] = NodeAllocatableResource{};
  DeviceAttribute list;
  list.int_values = {1, 2};
  device.attributes["l"] = list;
  slice.spec.devices = {device};

  ResourceSlice defaults = slice;
  PrepareForCreate(defaults, FeatureGates{});
  EXPECT_EQ(defaults.metadata.generation, 1);
  // Beta and GA features stay; alpha ones are dropped.
  EXPECT_TRUE(defaults.spec.per_device_node_selection.has_value());
  EXPECT_EQ(defaults.spec.devices[0].taints.size(), 1u);
  EXPECT_FALSE(defaults.spec.partition_type_attribute.has_value());
  EXPECT_TRUE(defaults.spec.skip_node_operations.nil());
  EXPECT_TRUE(defaults.spec.devices[0].node_allocatable_resources.empty());
  EXPECT_TRUE(defaults.spec.devices[0].attributes["l"].int_values.nil());
  EXPECT_EQ(defaults.spec.devices[0].attributes.size(), 1u);

  FeatureGates off;
  for (Feature f : {Feature::kDRADeviceTaints, Feature::kDRAPartitionableDevices,
                    Feature::kDRADeviceBindingConditions, Feature::kDRAConsumableCapacity}) {
    off.Set(f, false);
  }
  ResourceSlice dropped = slice;
  PrepareForCreate(dropped, off);
  const Device& d = dropped.spec.devices[0];
  EXPECT_TRUE(dropped.spec.shared_counters.nil());
  EXPECT_FALSE(dropped.spec.per_device_node_selection.has_value());
  EXPECT_TRUE(d.taints.nil());
  EXPECT_TRUE(d.consumes_counters.nil());
  EXPECT_FALSE(d.node_name.has_value());
  EXPECT_TRUE(d.binding_conditions.nil());
  EXPECT_TRUE(d.binding_failure_conditions.nil());
  EXPECT_FALSE(d.binds_to_node.has_value());
  EXPECT_FALSE(d.allow_multiple_allocations.has_value());
  EXPECT_FALSE(d.capacity.at("mem").request_policy.has_value());

  FeatureGates alpha_on;
  alpha_on.Set(Feature::kDRAPartitionableDevicesType, true);
  alpha_on.Set(Feature::kDRAOptionalNodeOperations, true);
  alpha_on.Set(Feature::kDRANodeAllocatableResources, true);
  alpha_on.Set(Feature::kDRAListTypeAttributes, true);
  ResourceSlice kept = slice;
  PrepareForCreate(kept, alpha_on);
  EXPECT_TRUE(kept.spec.partition_type_attribute.has_value());
  EXPECT_EQ(kept.spec.skip_node_operations.size(), 1u);
  EXPECT_EQ(kept.spec.devices[0].node_allocatable_resources.size(), 1u);
  EXPECT_EQ(kept.spec.devices[0].attributes["l"].int_values.size(), 2u);
}

TEST(ResourceSlicePerformanceTest, TenThousandDevicesWellUnderASecond) {
  std::vector<ResourceSlice> slices;
  for (int s = 0; s < 79; ++s) {
    ResourceSlice slice = Slice();
    slice.metadata.name = "slice-" + std::to_string(s);
    slice.spec.pool.resource_slice_count = 79;
    for (int i = 0; i < 128 && s * 128 + i < 10000; ++i) {
      Device device = Dev("gpu-" + std::to_string(i));
      device.attributes["model"] = StringAttr("A100");
      device.attributes["gpu.example.com/index"] = IntAttr(i);
      DeviceAttribute version;
      version.version_value = "1.2.3-rc.1";
      device.attributes["driverVersion"] = version;
      device.capacity["memory"] = DeviceCapacity{Q("40Gi"), std::nullopt};
      slice.spec.devices.push_back(std::move(device));
    }
    slices.push_back(std::move(slice));
  }
  const auto start = std::chrono::steady_clock::now();
  std::size_t errors = 0;
  for (const ResourceSlice& slice : slices) errors += ValidateResourceSlice(slice, {}).size();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
  RecordProperty("validation_ms", static_cast<int>(ms));
  EXPECT_EQ(errors, 0u);
  EXPECT_LT(ms, 500);
}

}  // namespace
}  // namespace dra::api

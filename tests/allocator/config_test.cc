// Class and claim configuration in results, after the config cases of
// upstream's shared allocator suite, prioritized lists included.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;

std::string ClassWithConfig(const std::string& name, const std::string& driver,
                            const std::string& param) {
  return "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: " + name +
         "}\nspec:\n  selectors: [{cel: {expression: 'device.driver == \"" + driver +
         "\"'}}]\n  config:\n  - opaque: {driver: " + driver + ", parameters: {p: " + param +
         "}}\n---\n";
}

const std::string kDevices = Slice("slice-1", "pool-1", "{name: device-1}, {name: device-2}") +
                             Slice("slice-2", "pool-1", "{name: device-1}", "driver-b");

TEST(Config, ClassConfigCoveringAllRequestsHasNoRequestList) {
  Outcome o = Allocate(kDevices + ClassWithConfig("cfg-a", "driver-a", "a") +
                       Claim("c", OneRequest("req-0", "cfg-a")));
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  const auto& config = o.result.allocations[0].devices.config;
  ASSERT_EQ(config.size(), 1u);
  EXPECT_EQ(config[0].source, "FromClass");
  EXPECT_TRUE(config[0].requests.nil());
  ASSERT_TRUE(config[0].config.opaque.has_value());
  EXPECT_EQ(config[0].config.opaque->driver, "driver-a");
}

TEST(Config, ClassConfigsMergedPerClass) {
  std::string claim = Claim("c", R"(
    requests:
    - {name: req-0, exactly: {deviceClassName: cfg-a}}
    - {name: req-1, exactly: {deviceClassName: cfg-a}}
    - {name: req-2, exactly: {deviceClassName: cfg-b}}
)");
  Outcome o = Allocate(kDevices + ClassWithConfig("cfg-a", "driver-a", "a") +
                       ClassWithConfig("cfg-b", "driver-b", "b") + claim);
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  const auto& config = o.result.allocations[0].devices.config;
  ASSERT_EQ(config.size(), 2u);
  EXPECT_THAT(config[0].requests, ElementsAre("req-0", "req-1"));
  EXPECT_THAT(config[1].requests, ElementsAre("req-2"));
}

TEST(Config, ClaimConfigForSomeRequestsKeepsItsList) {
  std::string claim = Claim("c", R"(
    requests:
    - {name: req-0, exactly: {deviceClassName: class-a}}
    - {name: req-1, exactly: {deviceClassName: class-a}}
    - {name: req-2, exactly: {deviceClassName: class-b}}
    config:
    - requests: [req-0, req-1]
      opaque: {driver: driver-a, parameters: {x: 1}}
    - opaque: {driver: driver-b, parameters: {y: 2}}
)");
  Outcome o = Allocate(kDevices + claim);
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  const auto& config = o.result.allocations[0].devices.config;
  ASSERT_EQ(config.size(), 2u);
  EXPECT_EQ(config[0].source, "FromClaim");
  EXPECT_THAT(config[0].requests, ElementsAre("req-0", "req-1"));
  EXPECT_TRUE(config[1].requests.nil());
}

TEST(Config, PrioritizedListKeepsOnlyTheSelectedSubrequestsConfig) {
  std::string claim = Claim("c", R"(
    requests:
    - name: req-0
      firstAvailable:
      - {name: subReq-0, deviceClassName: cfg-b, count: 3}
      - {name: subReq-1, deviceClassName: cfg-a}
    config:
    - requests: [req-0/subReq-0]
      opaque: {driver: driver-b, parameters: {x: 1}}
    - requests: [req-0/subReq-1]
      opaque: {driver: driver-a, parameters: {y: 2}}
)");
  Features f = Base();
  f.prioritized_list = true;
  Outcome o = Allocate(kDevices + ClassWithConfig("cfg-a", "driver-a", "a") +
                           ClassWithConfig("cfg-b", "driver-b", "b") + claim,
                       f);
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  EXPECT_THAT(o.devices, ElementsAre("req-0/subReq-1:driver-a/pool-1/device-1"));
  const auto& config = o.result.allocations[0].devices.config;
  ASSERT_EQ(config.size(), 2u);
  EXPECT_EQ(config[0].source, "FromClass");
  EXPECT_EQ(config[0].config.opaque->driver, "driver-a");
  EXPECT_TRUE(config[0].requests.nil());
  EXPECT_EQ(config[1].source, "FromClaim");
  EXPECT_EQ(config[1].config.opaque->driver, "driver-a");
  EXPECT_TRUE(config[1].requests.nil());
}

TEST(Config, ClaimConfigScopedToSubrequestsOfOneRequest) {
  std::string claim = Claim("c", R"(
    requests:
    - name: req-0
      firstAvailable:
      - {name: subReq-0, deviceClassName: class-a}
      - {name: subReq-1, deviceClassName: class-a}
    - {name: req-1, exactly: {deviceClassName: class-a}}
    config:
    - requests: [req-0/subReq-0, req-0/subReq-1]
      opaque: {driver: driver-a, parameters: {x: 1}}
    - requests: [req-0/subReq-0, req-1]
      opaque: {driver: driver-a, parameters: {y: 1}}
)");
  Features f = Base();
  f.prioritized_list = true;
  Outcome o = Allocate(kDevices + claim, f);
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  const auto& config = o.result.allocations[0].devices.config;
  ASSERT_EQ(config.size(), 2u);
  EXPECT_THAT(config[0].requests, ElementsAre("req-0/subReq-0", "req-0/subReq-1"));
  EXPECT_TRUE(config[1].requests.nil());  // covers the selected subrequest and req-1
}

}  // namespace
}  // namespace dra::allocator::testing

// The test cluster itself (tests/kube/test_cluster.h): a real kube-apiserver
// that serves resource.k8s.io, survives a restart with its data, and enforces
// RBAC on the restricted user.
#include <gtest/gtest.h>

#include <string>

#include "kube/test_cluster.h"

namespace dra::testing_cluster {
namespace {

constexpr const char* kDeviceClass = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: smoke.example.com
spec:
  selectors:
  - cel:
      expression: device.driver == "smoke.example.com"
)";

TEST(ClusterSmokeTest, ApiserverRestartAndRBAC) {
  if (auto why = TestCluster::SkipReason(); !why.empty()) GTEST_SKIP() << why;
  std::string error;
  auto cluster = TestCluster::Start({}, &error);
  ASSERT_TRUE(cluster) << error;

  auto ready = cluster->Kubectl({"get", "--raw", "/readyz"});
  ASSERT_TRUE(ready.ok()) << ready.output;
  EXPECT_EQ(ready.output, "ok");

  auto version = cluster->Kubectl({"version"});
  ASSERT_TRUE(version.ok()) << version.output;
  EXPECT_NE(version.output.find("Server Version: v1.37.2"), std::string::npos) << version.output;

  auto created = cluster->Kubectl({"create", "-f", "-"}, kDeviceClass);
  ASSERT_TRUE(created.ok()) << created.output;

  ASSERT_TRUE(cluster->RestartApiserver(&error)) << error;
  auto got = cluster->Kubectl(
      {"get", "deviceclass", "smoke.example.com", "-o", "jsonpath={.metadata.name}"});
  ASSERT_TRUE(got.ok()) << got.output;
  EXPECT_EQ(got.output, "smoke.example.com");

  // The token admin is in system:masters too.
  auto listed = cluster->Kubectl({"get", "deviceclasses", "-o", "name"}, {},
                                 cluster->token_admin_kubeconfig());
  ASSERT_TRUE(listed.ok()) << listed.output;
  EXPECT_EQ(listed.output, "deviceclass.resource.k8s.io/smoke.example.com\n");

  auto forbidden =
      cluster->Kubectl({"get", "resourceslices"}, {}, cluster->restricted_kubeconfig());
  EXPECT_FALSE(forbidden.ok());
  EXPECT_NE(forbidden.output.find("Forbidden"), std::string::npos) << forbidden.output;
  EXPECT_NE(forbidden.output.find("\"restricted\""), std::string::npos) << forbidden.output;

  int64_t revision = 0;
  ASSERT_TRUE(cluster->Compact(&revision, &error)) << error;
  EXPECT_GT(revision, 1);
  // A list at a compacted resourceVersion, served by etcd (not the watch cache)
  // because of the limit: 410 Gone, reason Expired.
  auto expired =
      cluster->Kubectl({"get", "--raw",
                        "/apis/resource.k8s.io/v1/"
                        "deviceclasses?limit=1&resourceVersion=1&resourceVersionMatch=Exact"});
  EXPECT_FALSE(expired.ok());
  EXPECT_NE(expired.output.find("(Expired)"), std::string::npos) << expired.output;
}

}  // namespace
}  // namespace dra::testing_cluster

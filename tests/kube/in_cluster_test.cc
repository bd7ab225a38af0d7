// In-cluster configuration from a temporary service-account directory, and
// the rotating token file behind it (client-go rest/config.go and
// transport/token_source.go at v0.37.2).
#include "dra/kube/in_cluster.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "dra/kube/token_file.h"
#include "kube/kube_test_util.h"

namespace dra::kube {
namespace {

using testing::TempDir;

class InClusterTest : public ::testing::Test {
 protected:
  InClusterTest() {
    env_.service_account_dir = dir_ / "sa";
    env_.kubernetes_service_host = "10.96.0.1";
    env_.kubernetes_service_port = "443";
  }
  TempDir dir_;
  Environment env_;
};

TEST_F(InClusterTest, Config) {
  dir_.Write("sa/token", "token-1\n");
  dir_.Write("sa/ca.crt", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
  dir_.Write("sa/namespace", " drivers \n");
  ASSERT_TRUE(InClusterPossible(env_));
  Result<RestConfig> r = InClusterConfig(env_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://10.96.0.1:443");
  EXPECT_EQ(r->bearer_token, "token-1");
  ASSERT_NE(r->credentials, nullptr);
  EXPECT_EQ(r->credentials->Get()->bearer_token, "token-1");
  EXPECT_EQ(r->tls.ca_file, dir_ / "sa/ca.crt");
  EXPECT_THAT(r->tls.ca_pem, ::testing::StartsWith("-----BEGIN CERTIFICATE-----"));
  EXPECT_EQ(r->namespace_, "drivers");
  EXPECT_FALSE(r->namespace_explicit);
}

TEST_F(InClusterTest, Ipv6HostAndNamespaceSources) {
  dir_.Write("sa/token", "t");
  env_.kubernetes_service_host = "fd00::1";
  env_.kubernetes_service_port = "6443";
  Result<RestConfig> r = InClusterConfig(env_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://[fd00::1]:6443");
  EXPECT_EQ(r->tls.ca_pem, "");  // no ca.crt: system roots
  EXPECT_EQ(r->namespace_, "default");
  env_.pod_namespace = "from-env";
  dir_.Write("sa/namespace", "from-file");
  EXPECT_EQ(InClusterNamespace(env_), "from-env");
  env_.pod_namespace.clear();
  EXPECT_EQ(InClusterNamespace(env_), "from-file");
}

TEST_F(InClusterTest, Errors) {
  env_.kubernetes_service_port.clear();
  EXPECT_FALSE(InClusterPossible(env_));
  Result<RestConfig> r = InClusterConfig(env_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
            "KUBERNETES_SERVICE_PORT must be defined");
  env_.kubernetes_service_port = "443";
  EXPECT_FALSE(InClusterPossible(env_));
  r = InClusterConfig(env_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "open " + dir_ / "sa/token" + ": no such file or directory");
  std::filesystem::create_directories(dir_ / "sa/token");
  EXPECT_FALSE(InClusterPossible(env_));  // a directory is not a token file
}

TEST(TokenFileProviderTest, RotationCacheAndInvalidate) {
  TempDir dir;
  std::string path = dir.Write("token", "first\n");
  auto now = std::chrono::steady_clock::now();
  auto clock = [&now] { return now; };
  auto p = TokenFileProvider::Create(path, "", clock);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ((*p)->Get()->bearer_token, "first");
  // Rotated on disk: still cached until ~50 s have passed.
  dir.Write("token", "second");
  now += std::chrono::seconds(49);
  EXPECT_EQ((*p)->Get()->bearer_token, "first");
  now += std::chrono::seconds(2);
  EXPECT_EQ((*p)->Get()->bearer_token, "second");
  // Unreadable or empty: the last good token stays.
  std::filesystem::remove(path);
  now += std::chrono::seconds(60);
  EXPECT_EQ((*p)->Get()->bearer_token, "second");
  dir.Write("token", "  \n");
  now += std::chrono::seconds(60);
  EXPECT_EQ((*p)->Get()->bearer_token, "second");
  // A 401 with the cached token forces a re-read without waiting.
  dir.Write("token", "third");
  EXPECT_EQ((*p)->Get()->bearer_token, "third");  // the failed reads left it stale
  dir.Write("token", "fourth");
  EXPECT_EQ((*p)->Get()->bearer_token, "third");
  (*p)->Invalidate(Credentials{"not-ours", "", ""});
  EXPECT_EQ((*p)->Get()->bearer_token, "third");
  (*p)->Invalidate(Credentials{"third", "", ""});
  EXPECT_EQ((*p)->Get()->bearer_token, "fourth");
}

TEST(TokenFileProviderTest, CreateErrorsAndFallback) {
  TempDir dir;
  auto p = TokenFileProvider::Create(dir / "missing");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error(), "failed to read token file \"" + dir / "missing" + "\": open " +
                           dir / "missing" + ": no such file or directory");
  std::string empty = dir.Write("empty", "\n");
  p = TokenFileProvider::Create(empty);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error(), "read empty token from file \"" + empty + "\"");
  // With a fallback token, an unreadable file is not an error.
  p = TokenFileProvider::Create(dir / "missing", "static");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ((*p)->Get()->bearer_token, "static");
}

}  // namespace
}  // namespace dra::kube

// Exec credential plugins run from small shell scripts written by the tests.
// Expected messages are client-go's (plugin/pkg/client/auth/exec/exec.go at
// v0.37.2) except for the time and size bounds, which are ours.
#include "dra/kube/exec_credential.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "kube/kube_test_util.h"

namespace dra::kube {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::TempDir;

constexpr char kV1[] = "client.authentication.k8s.io/v1";
constexpr char kV1beta1[] = "client.authentication.k8s.io/v1beta1";

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class ExecCredentialTest : public ::testing::Test {
 protected:
  // A plugin script: `body` runs under /bin/sh; every run appends a line to
  // the "runs" file.
  std::string Plugin(const std::string& name, const std::string& body) {
    return dir_.Write(name, "#!/bin/sh\necho run >> " + dir_ / "runs" + "\n" + body, true);
  }
  std::string Credential(const std::string& status, const std::string& version = kV1) {
    return "cat <<'EOF'\n{\"kind\":\"ExecCredential\",\"apiVersion\":\"" + version +
           "\",\"status\":" + status + "}\nEOF\n";
  }
  ExecConfig Config(const std::string& command, const std::string& version = kV1) {
    ExecConfig c;
    c.command = command;
    c.api_version = version;
    c.interactive_mode = "Never";
    return c;
  }
  std::shared_ptr<ExecCredentialProvider> Provider(ExecConfig config,
                                                   std::optional<ExecClusterInfo> cluster = {},
                                                   ExecPluginOptions options = {}) {
    if (!options.stdin_is_terminal) options.stdin_is_terminal = false;
    auto p = ExecCredentialProvider::Create(std::move(config), std::move(cluster), options);
    EXPECT_TRUE(p.ok()) << p.error();
    return p.ok() ? *p : nullptr;
  }
  std::string Error(ExecConfig config, ExecPluginOptions options = {}) {
    Result<Credentials> r = Provider(std::move(config), {}, options)->Get();
    EXPECT_FALSE(r.ok());
    return r.ok() ? "" : r.error();
  }
  int Runs() {
    std::string runs = ReadAll(dir_ / "runs");
    return static_cast<int>(std::count(runs.begin(), runs.end(), '\n'));
  }

  TempDir dir_;
};

TEST_F(ExecCredentialTest, TokenWithArgsAndEnv) {
  std::string plugin =
      Plugin("plugin", "printf '%s|%s|%s' \"$1\" \"$2\" \"$MY_VAR\" > " + dir_ / "seen" + "\n" +
                           Credential("{\"token\":\"tok-1\"}"));
  ExecConfig c = Config(plugin);
  c.args = {"get-token", "a b"};
  c.env = {{"MY_VAR", "from-kubeconfig"}};
  auto p = Provider(c);
  Result<Credentials> r = p->Get();
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->bearer_token, "tok-1");
  EXPECT_EQ(ReadAll(dir_ / "seen"), "get-token|a b|from-kubeconfig");
  // Cached: no expiry means no second run.
  ASSERT_TRUE(p->Get().ok());
  EXPECT_EQ(Runs(), 1);
  // A 401 with the cached credentials: the next Get runs the plugin again.
  p->Invalidate(*r);
  ASSERT_TRUE(p->Get().ok());
  EXPECT_EQ(Runs(), 2);
  // Stale credentials do not invalidate fresh ones.
  p->Invalidate(Credentials{"other", "", ""});
  ASSERT_TRUE(p->Get().ok());
  EXPECT_EQ(Runs(), 2);
}

TEST_F(ExecCredentialTest, CertificateAndKey) {
  std::string plugin = Plugin(
      "plugin",
      Credential("{\"clientCertificateData\":\"CERT\",\"clientKeyData\":\"KEY\"}", kV1beta1));
  ExecConfig c = Config(plugin, kV1beta1);
  Result<Credentials> r = Provider(c)->Get();
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->cert_pem, "CERT");
  EXPECT_EQ(r->key_pem, "KEY");
  EXPECT_EQ(r->bearer_token, "");
}

TEST_F(ExecCredentialTest, YamlOutputAccepted) {
  std::string plugin =
      Plugin("plugin", "echo 'kind: ExecCredential'\necho 'apiVersion: " + std::string(kV1) +
                           "'\necho 'status: {token: yaml-token}'\n");
  Result<Credentials> r = Provider(Config(plugin))->Get();
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->bearer_token, "yaml-token");
}

TEST_F(ExecCredentialTest, ExpiryRerunsThePlugin) {
  std::string plugin = Plugin(
      "plugin", Credential("{\"token\":\"t\",\"expirationTimestamp\":\"2030-01-01T00:00:00Z\"}"));
  ExecPluginOptions options;
  std::chrono::system_clock::time_point now =
      std::chrono::system_clock::time_point(std::chrono::seconds(1893455000));  // 2029-12-31
  options.now = [&now] { return now; };
  auto p = Provider(Config(plugin), {}, options);
  ASSERT_TRUE(p->Get().ok());
  ASSERT_TRUE(p->Get().ok());
  EXPECT_EQ(Runs(), 1);
  now = std::chrono::system_clock::time_point(std::chrono::seconds(1893456001));  // expired
  ASSERT_TRUE(p->Get().ok());
  EXPECT_EQ(Runs(), 2);
}

TEST_F(ExecCredentialTest, OutputErrors) {
  EXPECT_EQ(Error(Config(Plugin("p1", Credential("{\"token\":\"t\"}", kV1beta1)))),
            "exec plugin is configured to use API version client.authentication.k8s.io/v1, "
            "plugin returned version client.authentication.k8s.io/v1beta1");
  EXPECT_EQ(Error(Config(Plugin("p2", "echo '{\"kind\":\"ExecCredential\",\"apiVersion\":\"" +
                                          std::string(kV1) + "\"}'\n"))),
            "exec plugin didn't return a status field");
  EXPECT_EQ(Error(Config(Plugin("p3", Credential("{}")))),
            "exec plugin didn't return a token or cert/key pair");
  EXPECT_EQ(Error(Config(Plugin("p4", Credential("{\"clientCertificateData\":\"C\"}")))),
            "exec plugin returned only certificate or key, not both");
  EXPECT_THAT(Error(Config(Plugin("p5", "echo 'not json {'\n"))), StartsWith("decoding stdout: "));
  EXPECT_THAT(Error(Config(Plugin("p6", "echo '{\"apiVersion\":\"v1\"}'\n"))),
              StartsWith("decoding stdout: Object 'Kind' is missing in '"));
  EXPECT_THAT(
      Error(Config(Plugin("p7", Credential("{\"token\":\"t\",\"expirationTimestamp\":\"soon\"}")))),
      StartsWith("decoding stdout: status.expirationTimestamp: "));
}

TEST_F(ExecCredentialTest, ExitCode) {
  EXPECT_EQ(Error(Config(Plugin("failing", "echo oops >&2\nexit 3\n"))),
            "exec: executable " + dir_ / "failing" + " failed with exit code 3");
}

TEST_F(ExecCredentialTest, NotFound) {
  ExecConfig c = Config("dra-test-no-such-plugin-xyz");
  c.install_hint = "Install it with: apt install xyz";
  auto p = Provider(c);
  Result<Credentials> r = p->Get();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            "exec: executable dra-test-no-such-plugin-xyz not found\n"
            "\n"
            "It looks like you are trying to use a client-go credential plugin that is not "
            "installed.\n"
            "\n"
            "To learn more about this feature, consult the documentation available at:\n"
            "      https://kubernetes.io/docs/reference/access-authn-authz/authentication/"
            "#client-go-credential-plugins\n"
            "\n"
            "Install it with: apt install xyz");
  // The help is shown at most 10 times an hour.
  for (int i = 0; i < 9; ++i) ASSERT_FALSE(p->Get().ok());
  EXPECT_EQ(p->Get().error(), "exec: executable dra-test-no-such-plugin-xyz not found");
  // A path that does not exist is a fork/exec error, as in Go.
  EXPECT_EQ(Error(Config(dir_ / "missing/plugin")),
            "exec: fork/exec " + dir_ / "missing/plugin" + ": no such file or directory");
}

TEST_F(ExecCredentialTest, HangingPluginIsKilled) {
  ExecPluginOptions options;
  options.timeout = std::chrono::milliseconds(300);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Error(Config(Plugin("hang", "sleep 30\n")), options),
            "exec: executable " + dir_ / "hang" + " did not exit within 300ms; it was killed");
  // A plugin that closes stdout but does not exit is bounded too.
  EXPECT_EQ(Error(Config(Plugin("hang2", "exec >&-\nsleep 30\n")), options),
            "exec: executable " + dir_ / "hang2" + " did not exit within 300ms; it was killed");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST_F(ExecCredentialTest, HugeOutputIsBounded) {
  ExecPluginOptions options;
  options.max_output_bytes = 4096;
  EXPECT_EQ(Error(Config(Plugin("chatty", "while :; do echo xxxxxxxxxxxxxxxxxxxxxxxxx; done\n")),
                  options),
            "exec: executable " + dir_ / "chatty" +
                " wrote more than 4096 bytes to standard output; it was killed");
}

TEST_F(ExecCredentialTest, InteractiveModes) {
  std::string plugin = Plugin("plugin", Credential("{\"token\":\"t\"}"));
  ExecConfig c = Config(plugin);
  c.interactive_mode = "Always";
  EXPECT_EQ(Error(c),
            "exec plugin cannot support interactive mode: standard input is not a terminal");
  c.interactive_mode = "IfAvailable";
  EXPECT_TRUE(Provider(c)->Get().ok());
}

TEST_F(ExecCredentialTest, InvalidApiVersion) {
  auto r = ExecCredentialProvider::Create(Config("x", "client.authentication.k8s.io/v1alpha1"), {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "exec plugin: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\"");
}

TEST_F(ExecCredentialTest, ExecInfoEnvironment) {
  std::string plugin = Plugin("plugin", "printf '%s' \"$KUBERNETES_EXEC_INFO\" > " + dir_ / "info" +
                                            "\n" + Credential("{\"token\":\"t\"}"));
  ExecConfig c = Config(plugin);
  ASSERT_TRUE(Provider(c)->Get().ok());
  EXPECT_EQ(ReadAll(dir_ / "info"),
            "{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\","
            "\"spec\":{\"interactive\":false}}\n");

  c.provide_cluster_info = true;
  ExecClusterInfo cluster;
  cluster.server = "https://k8s:6443";
  cluster.tls_server_name = "k8s.internal";
  cluster.certificate_authority_data = "CA";
  cluster.proxy_url = "http://proxy:3128";
  cluster.disable_compression = true;
  ASSERT_TRUE(Provider(c, cluster)->Get().ok());
  EXPECT_EQ(ReadAll(dir_ / "info"),
            "{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\","
            "\"spec\":{\"cluster\":{\"server\":\"https://k8s:6443\",\"tls-server-name\":"
            "\"k8s.internal\",\"certificate-authority-data\":\"Q0E=\",\"proxy-url\":"
            "\"http://proxy:3128\",\"disable-compression\":true,\"config\":null},"
            "\"interactive\":false}}\n");
  Result<json::Value> config = json::ParseJson(R"({"audience":"a<b"})");
  ASSERT_TRUE(config.ok());
  cluster = ExecClusterInfo{};
  cluster.server = "https://s";
  cluster.insecure_skip_tls_verify = true;
  cluster.config = *config;
  ASSERT_TRUE(Provider(c, cluster)->Get().ok());
  EXPECT_EQ(ReadAll(dir_ / "info"),
            "{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\","
            "\"spec\":{\"cluster\":{\"server\":\"https://s\",\"insecure-skip-tls-verify\":true,"
            "\"config\":{\"audience\":\"a\\u003cb\"}},\"interactive\":false}}\n");
}

TEST_F(ExecCredentialTest, ConcurrentGetsRunOnce) {
  std::string plugin = Plugin("plugin", "sleep 0.2\n" + Credential("{\"token\":\"t\"}"));
  auto p = Provider(Config(plugin));
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] { EXPECT_TRUE(p->Get().ok()); });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(Runs(), 1);
}

}  // namespace
}  // namespace dra::kube

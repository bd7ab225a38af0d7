// kubeconfig loading, merging, selection, overrides and validation. Expected
// messages are client-go's and kubectl's (tools/clientcmd validation.go,
// client_config.go, loader.go; kubectl cmd/util/helpers.go at v0.37.2).
#include "dra/kube/kubeconfig.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "dra/kube/token_file.h"
#include "kube/kube_test_util.h"

namespace dra::kube {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::TempDir;

// One cluster, user and context, all named "c"/"u"/"ctx".
std::string Config(const std::string& cluster, const std::string& user,
                   const std::string& context_extra = "") {
  return "apiVersion: v1\nkind: Config\ncurrent-context: ctx\nclusters:\n- name: c\n  cluster:\n" +
         cluster + "users:\n- name: u\n  user:\n" + user +
         "contexts:\n- name: ctx\n  context:\n    cluster: c\n    user: u\n" + context_extra;
}

class KubeconfigTest : public ::testing::Test {
 protected:
  KubeconfigTest() {
    env_.home = dir_.path();
    env_.service_account_dir = dir_ / "no-sa";
  }
  // Loads with --kubeconfig=<file written from text>.
  Result<RestConfig> Load(const std::string& text, ConfigFlags flags = {},
                          ConfigDefaults defaults = ConfigDefaults::kKubectl) {
    flags.kubeconfig = dir_.Write("kc/config", text);
    return LoadRestConfig(flags, env_, defaults);
  }
  std::string LoadError(const std::string& text, ConfigFlags flags = {},
                        ConfigDefaults defaults = ConfigDefaults::kKubectl) {
    Result<RestConfig> r = Load(text, std::move(flags), defaults);
    EXPECT_FALSE(r.ok());
    return r.ok() ? "" : r.error();
  }

  TempDir dir_;
  Environment env_;
};

TEST_F(KubeconfigTest, BasicHttpsConfig) {
  Result<RestConfig> r = Load(Config("    server: https://k8s.example:6443/prefix/\n",
                                     "    token: abc\n", "    namespace: team\n"));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://k8s.example:6443/prefix");
  EXPECT_EQ(r->bearer_token, "abc");
  EXPECT_EQ(r->namespace_, "team");
  EXPECT_TRUE(r->namespace_explicit);
  EXPECT_EQ(r->context_name, "ctx");
  EXPECT_EQ(r->cluster_name, "c");
  EXPECT_EQ(r->user_name, "u");
  EXPECT_EQ(r->credentials, nullptr);
}

TEST_F(KubeconfigTest, JsonKubeconfig) {
  Result<RestConfig> r =
      Load(R"({"clusters":[{"name":"c","cluster":{"server":"https://j:1"}}],"users":[{"name":"u",)"
           R"("user":{"username":"a","password":"b","unknown":1}}],"contexts":[{"name":"x",)"
           R"("context":{"cluster":"c","user":"u"}}],"current-context":"x","preferences":{}})");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://j:1");
  EXPECT_EQ(r->username, "a");
  EXPECT_EQ(r->password, "b");
  EXPECT_EQ(r->namespace_, "default");
  EXPECT_FALSE(r->namespace_explicit);
}

TEST_F(KubeconfigTest, HttpServerGetsNoCredentials) {
  std::string ca = dir_.Write("ca.crt", "-----BEGIN CERTIFICATE-----\n");
  Result<RestConfig> r =
      Load(Config("    server: http://plain:8080\n    certificate-authority: " + ca + "\n",
                  "    token: abc\n    as: alice\n"));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "http://plain:8080");
  EXPECT_EQ(r->bearer_token, "");
  EXPECT_EQ(r->tls.ca_pem, "");
  EXPECT_EQ(r->impersonate_user, "alice");  // impersonation does not depend on TLS
  // A scheme-less server is http to client-go as well.
  r = Load(Config("    server: host:6443\n", "    token: abc\n"));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "http://host:6443");
  EXPECT_EQ(r->bearer_token, "");
}

TEST_F(KubeconfigTest, MergeFirstFileWins) {
  std::string a = dir_.Write("a", R"(
clusters:
- name: shared
  cluster: {server: "https://from-a"}
users:
- name: u
  user: {token: token-a}
contexts:
- name: ctx-a
  context: {cluster: shared, user: u}
)");
  std::string b = dir_.Write("b", R"(
current-context: ctx-b
clusters:
- name: shared
  cluster: {server: "https://from-b", insecure-skip-tls-verify: true}
- name: only-b
  cluster: {server: "https://only-b"}
users:
- name: u
  user: {token: token-b, as: bob}
contexts:
- name: ctx-b
  context: {cluster: shared, user: u, namespace: nb}
)");
  std::string c = dir_.Write("c", "current-context: ctx-a\n");
  env_.kubeconfig = dir_ / "missing" + ":" + a + ":" + b + "::" + a + ":" + c;
  Result<RestConfig> r = LoadRestConfig({}, env_);
  ASSERT_TRUE(r.ok()) << r.error();
  // current-context from b (the first non-empty one), cluster entry from a
  // whole (b's insecure flag does not leak in), user from a.
  EXPECT_EQ(r->context_name, "ctx-b");
  EXPECT_EQ(r->server, "https://from-a");
  EXPECT_FALSE(r->tls.insecure);
  EXPECT_EQ(r->bearer_token, "token-a");
  EXPECT_EQ(r->impersonate_user, "");
  EXPECT_EQ(r->namespace_, "nb");

  ConfigFlags flags;
  flags.cluster = "only-b";
  r = LoadRestConfig(flags, env_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://only-b");
}

TEST_F(KubeconfigTest, MergeKubeconfigsDirectly) {
  Kubeconfig a, b;
  a.clusters["x"].server = "https://a";
  b.clusters["x"].server = "https://b";
  b.clusters["y"].server = "https://y";
  b.current_context = "cb";
  Kubeconfig m = MergeKubeconfigs({a, b});
  EXPECT_EQ(m.clusters["x"].server, "https://a");
  EXPECT_EQ(m.clusters["y"].server, "https://y");
  EXPECT_EQ(m.current_context, "cb");
}

TEST_F(KubeconfigTest, DefaultFileInHome) {
  dir_.Write(".kube/config", Config("    server: https://home:1\n", "    token: t\n"));
  Result<RestConfig> r = LoadRestConfig({}, env_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://home:1");
}

TEST_F(KubeconfigTest, ExplicitFileMissing) {
  ConfigFlags flags;
  flags.kubeconfig = dir_ / "nope";
  Result<RestConfig> r = LoadRestConfig(flags, env_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "error: stat " + dir_ / "nope" + ": no such file or directory");
}

TEST_F(KubeconfigTest, UnparseableFiles) {
  std::string bad1 = dir_.Write("bad1", "clusters: [\n");
  std::string bad2 = dir_.Write("bad2", "clusters: 3\n");
  env_.kubeconfig = bad1;
  Result<RestConfig> r = LoadRestConfig({}, env_);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error(), StartsWith("error: error loading config file \"" + bad1 + "\": "));
  env_.kubeconfig = bad1 + ":" + bad2;
  r = LoadRestConfig({}, env_);
  ASSERT_FALSE(r.ok());
  // An aggregate: one line per file, no "error: " prefix.
  EXPECT_THAT(r.error(), StartsWith("error loading config file \"" + bad1 + "\": "));
  EXPECT_THAT(r.error(), HasSubstr("\nerror loading config file \"" + bad2 + "\": "));
  EXPECT_THAT(r.error(), HasSubstr("clusters: cannot decode number as a list"));
}

TEST_F(KubeconfigTest, WrongTypesAreErrorsNotCrashes) {
  const char* inputs[] = {
      "clusters: abc\n",
      "clusters: [abc]\n",
      "clusters:\n- name: c\n  cluster: [1]\n",
      "clusters:\n- name: [x]\n",
      "users:\n- name: u\n  user: {as-groups: g}\n",
      "users:\n- name: u\n  user: {as-user-extra: {k: v}}\n",
      "users:\n- name: u\n  user: {exec: {args: {a: b}}}\n",
      "users:\n- name: u\n  user: {exec: {env: [x]}}\n",
      "users:\n- name: u\n  user: {auth-provider: {config: {a: [1]}}}\n",
      "contexts:\n- name: c\n  context: {namespace: 12}\n",
      "current-context: {a: b}\n",
      "insecure: true\nclusters:\n- name: c\n  cluster: {insecure-skip-tls-verify: yes-please}\n",
      "[1, 2]",
      "just a string",
      "apiVersion: v2\n",
      "kind: Pod\n",
      "clusters:\n- name: c\n- name: c\n",
  };
  for (const char* text : inputs) {
    std::string e = LoadError(text);
    EXPECT_THAT(e, StartsWith("error: error loading config file \"")) << text;
  }
  EXPECT_THAT(LoadError("clusters:\n- name: c\n- name: c\n"),
              HasSubstr("clusters[1]: error converting *[]NamedCluster into "
                        "*map[string]*api.Cluster: duplicate name \"c\" in list"));
  EXPECT_THAT(LoadError("users:\n- name: u\n  user: {as-groups: g}\n"),
              HasSubstr("users[0].user.as-groups: cannot decode string as a list of strings"));
}

TEST_F(KubeconfigTest, Base64Errors) {
  std::string e = LoadError(Config("    server: https://x\n",
                                   "    client-certificate-data: Zm9v\n"
                                   "    client-key-data: Zm9v!!==\n"));
  EXPECT_THAT(e, StartsWith("error: error loading config file \"" + dir_ / "kc/config" + "\": "));
  EXPECT_THAT(e, HasSubstr("users[0].user.client-key-data: illegal base64 data at input byte 4"));
  e = LoadError(Config("    server: https://x\n    certificate-authority-data: Zm9vYg\n", ""));
  EXPECT_THAT(e, HasSubstr("clusters[0].cluster.certificate-authority-data: illegal base64 data"));
  Result<Kubeconfig> k = ParseKubeconfig(
      "clusters:\n- name: c\n  cluster: {certificate-authority-data: \"Zm9v\\nYmFy\"}\n");
  ASSERT_TRUE(k.ok()) << k.error();
  EXPECT_EQ(k->clusters["c"].certificate_authority_data, "foobar");
}

TEST_F(KubeconfigTest, DataFieldsDecoded) {
  Result<RestConfig> r = Load(Config(
      "    server: https://x\n    certificate-authority-data: " + std::string("Q0EtUEVN") + "\n",
      "    client-certificate-data: Q0VSVA==\n"
      "    client-key-data: S0VZ\n"));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->tls.ca_pem, "CA-PEM");
  EXPECT_EQ(r->tls.cert_pem, "CERT");
  EXPECT_EQ(r->tls.key_pem, "KEY");
}

TEST_F(KubeconfigTest, EmptyAndHugeFiles) {
  // An empty file is an empty config: kubectl's default server.
  Result<RestConfig> r = Load("");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "http://localhost:8080");
  std::string huge = dir_ / "huge";
  { std::ofstream out(huge); }
  std::filesystem::resize_file(huge, kMaxConfigFileBytes + 1);
  ConfigFlags flags;
  flags.kubeconfig = huge;
  r = LoadRestConfig(flags, env_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "error: error loading config file \"" + huge + "\": read " + huge +
                           ": file is larger than 16777216 bytes");
  // A directory given as kubeconfig.
  flags.kubeconfig = dir_.path();
  r = LoadRestConfig(flags, env_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "error: error loading config file \"" + dir_.path() + "\": read " +
                           dir_.path() + ": is a directory");
}

TEST_F(KubeconfigTest, NothingConfigured) {
  Result<RestConfig> r = LoadRestConfig({}, env_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "http://localhost:8080");
  env_.kubernetes_master = "https://master:443";
  r = LoadRestConfig({}, env_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://master:443");
  r = LoadRestConfig({}, env_, ConfigDefaults::kClientGo);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            "Error in configuration: no configuration has been provided, try setting "
            "KUBERNETES_MASTER environment variable");
}

TEST_F(KubeconfigTest, SelectionErrors) {
  const std::string text = Config("    server: https://x\n", "    token: t\n");
  ConfigFlags flags;
  flags.context = "nope";
  EXPECT_EQ(LoadError(text, flags),
            "Error in configuration: context was not found for specified context: nope");
  flags.namespace_ = "ns";  // the namespace no longer validates first
  EXPECT_EQ(LoadError(text, flags), "error: context \"nope\" does not exist");
  flags = {};
  flags.namespace_ = "ns";
  flags.user = "ghost";
  EXPECT_EQ(LoadError(text, flags), "error: auth info \"ghost\" does not exist");
  flags.user.reset();
  flags.cluster = "ghost";
  EXPECT_EQ(LoadError(text, flags), "error: cluster \"ghost\" does not exist");
  // current-context naming a missing context.
  EXPECT_EQ(LoadError("current-context: gone\n"),
            "Error in configuration: context was not found for specified context: gone");
}

struct ValidationCase {
  std::string cluster;
  std::string user;
  std::string message;
};

TEST_F(KubeconfigTest, ValidationMessages) {
  std::string ca = dir_.Write("ca.pem", "CA");
  std::string missing = dir_ / "missing.pem";
  const ValidationCase cases[] = {
      {"    insecure-skip-tls-verify: true\n", "    token: t\n",
       "no server found for cluster \"c\""},
      {"    server: https://x\n    certificate-authority: " + ca +
           "\n    certificate-authority-data: Q0E=\n",
       "    token: t\n",
       "certificate-authority-data and certificate-authority are both specified for c. "
       "certificate-authority-data will override."},
      {"    server: https://x\n    certificate-authority: " + missing + "\n", "    token: t\n",
       "unable to read certificate-authority " + missing + " for c due to open " + missing +
           ": no such file or directory"},
      {"    server: https://x\n    proxy-url: ftp://proxy\n", "    token: t\n",
       "invalid 'proxy-url' \"ftp://proxy\" for cluster \"c\": unsupported scheme \"ftp\", must "
       "be http, https, or socks5"},
      {"    server: https://x\n",
       "    client-certificate: " + ca +
           "\n    client-certificate-data: Q0E=\n    client-key: " + ca + "\n",
       "client-cert-data and client-cert are both specified for u. client-cert-data will "
       "override."},
      {"    server: https://x\n", "    client-certificate-data: Q0E=\n",
       "client-key-data or client-key must be specified for u to use the clientCert "
       "authentication method."},
      {"    server: https://x\n", "    token: t\n    username: a\n    password: b\n",
       "more than one authentication method found for u; found [token basicAuth], only one is "
       "allowed"},
      {"    server: https://x\n",
       "    auth-provider: {name: oidc}\n    exec: {command: x, apiVersion: "
       "client.authentication.k8s.io/v1, interactiveMode: Never}\n",
       "authProvider cannot be provided in combination with an exec plugin for u"},
      {"    server: https://x\n",
       "    exec: {apiVersion: client.authentication.k8s.io/v1, interactiveMode: Never}\n",
       "command must be specified for u to use exec authentication plugin"},
      {"    server: https://x\n", "    exec: {command: x, interactiveMode: Never}\n",
       "apiVersion must be specified for u to use exec authentication plugin"},
      {"    server: https://x\n",
       "    exec: {command: x, apiVersion: client.authentication.k8s.io/v1}\n",
       "interactiveMode must be specified for u to use exec authentication plugin"},
      {"    server: https://x\n", "    as-groups: [g]\n",
       "requesting uid, groups or user-extra for u without impersonating a user"},
  };
  for (const ValidationCase& c : cases) {
    EXPECT_EQ(LoadError(Config(c.cluster, c.user), {}, ConfigDefaults::kClientGo),
              "Error in configuration: " + c.message)
        << c.cluster << c.user;
  }
  // v1beta1 defaults interactiveMode to IfAvailable: no error.
  EXPECT_TRUE(
      Load(Config("    server: https://x\n",
                  "    exec: {command: x, apiVersion: client.authentication.k8s.io/v1beta1}\n"))
          .ok());
  // Several problems: kubectl's multi-line form (note the space after the colon).
  EXPECT_EQ(LoadError(Config("    server: https://x\n    proxy-url: ftp://p\n",
                             "    token: t\n    password: p\n    as-uid: \"1\"\n")),
            "Error in configuration: \n"
            "* more than one authentication method found for u; found [token basicAuth], only "
            "one is allowed\n"
            "* requesting uid, groups or user-extra for u without impersonating a user\n"
            "* invalid 'proxy-url' \"ftp://p\" for cluster \"c\": unsupported scheme \"ftp\", "
            "must be http, https, or socks5");
  // A context naming a missing cluster: "cluster has no server defined" (shown
  // only next to another problem; alone it is the empty-configuration error).
  EXPECT_EQ(LoadError("current-context: x\ncontexts:\n- name: x\n  context: {cluster: gone, user: "
                      "u}\nusers:\n- name: u\n  user: {token: t, username: a}\n",
                      {}, ConfigDefaults::kClientGo),
            "Error in configuration: \n"
            "* more than one authentication method found for u; found [token basicAuth], only "
            "one is allowed\n"
            "* cluster has no server defined");
}

TEST_F(KubeconfigTest, KubectlDefaultsFillMissingServer) {
  // kubectl's cluster defaults make a server-less cluster http://localhost:8080.
  Result<RestConfig> r = Load(Config("    insecure-skip-tls-verify: true\n", "    token: t\n"));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "http://localhost:8080");
}

TEST_F(KubeconfigTest, ServerOverrideClearsTlsServerName) {
  const std::string text =
      Config("    server: https://a\n    tls-server-name: from-config\n", "    token: t\n");
  Result<RestConfig> r = Load(text);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->tls.server_name, "from-config");
  ConfigFlags flags;
  flags.server = "https://b:6443";
  r = Load(text, flags);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://b:6443");
  EXPECT_EQ(r->tls.server_name, "");
  flags.tls_server_name = "flag-name";
  r = Load(text, flags);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->tls.server_name, "flag-name");
}

TEST_F(KubeconfigTest, CaOverrides) {
  std::string ca_file = dir_.Write("flag-ca.pem", "FLAG-CA");
  const std::string text =
      Config("    server: https://a\n    certificate-authority-data: Q0E=\n", "    token: t\n");
  ConfigFlags flags;
  flags.certificate_authority = ca_file;
  Result<RestConfig> r = Load(text, flags);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->tls.ca_pem, "FLAG-CA");
  EXPECT_EQ(r->tls.ca_file, ca_file);
  flags = {};
  flags.insecure_skip_tls_verify = true;
  r = Load(text, flags);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(r->tls.insecure);
  EXPECT_EQ(r->tls.ca_pem, "");
  // Insecure and a CA from the kubeconfig together are refused.
  EXPECT_EQ(LoadError(Config("    server: https://a\n    insecure-skip-tls-verify: true\n"
                             "    certificate-authority-data: Q0E=\n",
                             "    token: t\n")),
            "error: specifying a root certificates file with the insecure flag is not allowed");
}

TEST_F(KubeconfigTest, ClientCertificateOverrides) {
  std::string cert = dir_.Write("c.pem", "FILE-CERT");
  std::string key = dir_.Write("k.pem", "FILE-KEY");
  ConfigFlags flags;
  flags.client_certificate = cert;
  flags.client_key = key;
  Result<RestConfig> r = Load(Config("    server: https://a\n",
                                     "    client-certificate-data: Q0VSVA==\n"
                                     "    client-key-data: S0VZ\n"),
                              flags);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->tls.cert_pem, "FILE-CERT");
  EXPECT_EQ(r->tls.key_pem, "FILE-KEY");
  EXPECT_EQ(r->tls.cert_file, cert);
}

TEST_F(KubeconfigTest, TokenFlagAndTokenFileQuirk) {
  std::string token_file = dir_.Write("tok", "  file-token\n");
  const std::string text = Config("    server: https://a\n", "    tokenFile: " + token_file + "\n");
  Result<RestConfig> r = Load(text);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->bearer_token, "file-token");
  ASSERT_NE(r->credentials, nullptr);
  EXPECT_EQ(r->credentials->Get()->bearer_token, "file-token");
  // --token does not clear tokenFile: a readable file still wins.
  ConfigFlags flags;
  flags.token = "flag-token";
  r = Load(text, flags);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->bearer_token, "flag-token");
  ASSERT_NE(r->credentials, nullptr);
  EXPECT_EQ(r->credentials->Get()->bearer_token, "file-token");
  std::filesystem::remove(token_file);
  r = Load(text, flags);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->credentials->Get()->bearer_token, "flag-token");
  // Only tokenFile, unreadable: an error at configuration time.
  EXPECT_EQ(LoadError(text), "error: open " + token_file + ": no such file or directory");
}

TEST_F(KubeconfigTest, ImpersonationAndOtherFlags) {
  ConfigFlags flags;
  flags.as = "alice";
  flags.as_uid = "42";
  flags.as_groups = {"g1", "g2"};
  flags.as_user_extra = {"scope=a", "scope=b", "bad", "k=v=w"};
  flags.request_timeout = "90";
  flags.proxy_url = "socks5://p:1080";
  flags.disable_compression = true;
  flags.namespace_ = "flag-ns";
  Result<RestConfig> r =
      Load(Config("    server: https://a\n", "    token: t\n", "    namespace: ctx-ns\n"), flags);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->impersonate_user, "alice");
  EXPECT_EQ(r->impersonate_uid, "42");
  EXPECT_EQ(r->impersonate_groups, (std::vector<std::string>{"g1", "g2"}));
  EXPECT_EQ(r->impersonate_extra.at("scope"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r->impersonate_extra.at("k"), (std::vector<std::string>{"v=w"}));
  EXPECT_EQ(r->impersonate_extra.count("bad"), 0u);
  EXPECT_EQ(r->timeout, std::chrono::seconds(90));
  EXPECT_EQ(r->proxy_url, "socks5://p:1080");
  EXPECT_TRUE(r->disable_compression);
  EXPECT_EQ(r->namespace_, "flag-ns");
  EXPECT_TRUE(r->namespace_explicit);
  flags.request_timeout = "soon";
  EXPECT_EQ(LoadError(Config("    server: https://a\n", "    token: t\n"), flags),
            "error: Invalid timeout value. Timeout must be a single integer in seconds, or an "
            "integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)");
}

TEST_F(KubeconfigTest, RelativePathsResolvedAgainstTheFile) {
  dir_.Write("conf/sub/ca.crt", "CA");
  dir_.Write("conf/certs/client.crt", "CERT");
  dir_.Write("conf/certs/client.key", "KEY");
  std::string file = dir_.Write("conf/sub/config", R"(
current-context: ctx
clusters:
- name: c
  cluster: {server: "https://a", certificate-authority: ca.crt}
users:
- name: u
  user: {client-certificate: ../certs/client.crt, client-key: ./../certs/client.key}
- name: e1
  user: {exec: {command: ./bin/plugin, apiVersion: client.authentication.k8s.io/v1beta1}}
- name: e2
  user: {exec: {command: plugin, apiVersion: client.authentication.k8s.io/v1beta1}}
- name: t
  user: {tokenFile: /abs/token}
contexts:
- name: ctx
  context: {cluster: c, user: u}
)");
  Result<Kubeconfig> k = LoadKubeconfigFile(file);
  ASSERT_TRUE(k.ok()) << k.error();
  EXPECT_EQ(k->clusters["c"].certificate_authority, dir_ / "conf/sub/ca.crt");
  EXPECT_EQ(k->users["u"].client_certificate, dir_ / "conf/certs/client.crt");
  EXPECT_EQ(k->users["u"].client_key, dir_ / "conf/certs/client.key");
  EXPECT_EQ(k->users["e1"].exec->command, dir_ / "conf/sub/bin/plugin");
  EXPECT_EQ(k->users["e2"].exec->command, "plugin");
  EXPECT_EQ(k->users["t"].token_file, "/abs/token");
  EXPECT_EQ(k->users["u"].location_of_origin, file);

  ConfigFlags flags;
  flags.kubeconfig = file;
  Result<RestConfig> r = LoadRestConfig(flags, env_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->tls.ca_pem, "CA");
  EXPECT_EQ(r->tls.cert_pem, "CERT");
  EXPECT_EQ(r->tls.key_pem, "KEY");
}

TEST_F(KubeconfigTest, AuthProviders) {
  EXPECT_THAT(LoadError(Config("    server: https://a\n", "    auth-provider: {name: gcp}\n")),
              StartsWith("error: The gcp auth plugin has been removed.\nPlease use the "
                         "\"gke-gcloud-auth-plugin\" kubectl/client-go credential plugin "
                         "instead."));
  EXPECT_EQ(LoadError(Config("    server: https://a\n", "    auth-provider: {name: magic}\n")),
            "error: no Auth Provider found for name \"magic\"");
}

TEST_F(KubeconfigTest, ExecPluginBecomesProvider) {
  Result<RestConfig> r = Load(
      Config("    server: https://a\n",
             "    exec: {command: p, apiVersion: client.authentication.k8s.io/v1, interactiveMode: "
             "Never}\n"));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_NE(r->credentials, nullptr);
  // Static credentials win over the plugin.
  r = Load(Config("    server: https://a\n",
                  "    token: t\n    exec: {command: p, apiVersion: "
                  "client.authentication.k8s.io/v1, interactiveMode: Never}\n"));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->credentials, nullptr);
  EXPECT_EQ(LoadError(Config("    server: https://a\n",
                             "    exec: {command: p, apiVersion: v9, interactiveMode: Never}\n")),
            "error: exec plugin: invalid apiVersion \"v9\"");
}

TEST_F(KubeconfigTest, InClusterFallback) {
  std::string sa = dir_ / "sa";
  dir_.Write("sa/token", "sa-token\n");
  dir_.Write("sa/namespace", "pod-ns\n");
  env_.service_account_dir = sa;
  env_.kubernetes_service_host = "10.0.0.1";
  env_.kubernetes_service_port = "443";
  // Nothing configured: in-cluster.
  Result<RestConfig> r = LoadRestConfig({}, env_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://10.0.0.1:443");
  EXPECT_EQ(r->namespace_, "pod-ns");
  ASSERT_NE(r->credentials, nullptr);
  EXPECT_EQ(r->credentials->Get()->bearer_token, "sa-token");
  // Flags that apply in-cluster: --server, --token, --certificate-authority;
  // -n does not make the configuration non-default.
  ConfigFlags flags;
  flags.namespace_ = "mine";
  flags.token = "flag-token";
  r = LoadRestConfig(flags, env_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://10.0.0.1:443");
  EXPECT_EQ(r->bearer_token, "flag-token");
  EXPECT_EQ(r->credentials, nullptr);
  EXPECT_EQ(r->namespace_, "mine");
  // --server makes it a kubeconfig configuration again.
  flags = {};
  flags.server = "https://elsewhere";
  r = LoadRestConfig(flags, env_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://elsewhere");
  // A real kubeconfig wins, but its namespace-less context takes the pod's.
  dir_.Write(".kube/config", Config("    server: https://k\n", "    token: t\n"));
  r = LoadRestConfig({}, env_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://k");
  EXPECT_EQ(r->namespace_, "pod-ns");
  EXPECT_FALSE(r->namespace_explicit);
  // client-go's library defaults: only an empty configuration falls back.
  std::filesystem::remove(dir_ / ".kube/config");
  r = LoadRestConfig({}, env_, ConfigDefaults::kClientGo);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->server, "https://10.0.0.1:443");
}

TEST(ParseRequestTimeoutTest, KubectlRules) {
  using std::chrono::milliseconds;
  EXPECT_EQ(*ParseRequestTimeout("0"), milliseconds(0));
  EXPECT_EQ(*ParseRequestTimeout("5"), milliseconds(5000));
  EXPECT_EQ(*ParseRequestTimeout("+7"), milliseconds(7000));
  EXPECT_EQ(*ParseRequestTimeout("1s"), milliseconds(1000));
  EXPECT_EQ(*ParseRequestTimeout("2m"), milliseconds(120000));
  EXPECT_EQ(*ParseRequestTimeout("3h"), milliseconds(3 * 3600 * 1000));
  EXPECT_EQ(*ParseRequestTimeout("1.5s"), milliseconds(1500));
  EXPECT_EQ(*ParseRequestTimeout("1m30s"), milliseconds(90000));
  EXPECT_EQ(*ParseRequestTimeout("500us"), milliseconds(1));
  EXPECT_EQ(*ParseRequestTimeout("250ms"), milliseconds(250));
  const std::string message =
      "Invalid timeout value. Timeout must be a single integer in seconds, or an integer "
      "followed by a corresponding time unit (e.g. 1s | 2m | 3h)";
  for (const char* bad :
       {"", "-1", "abc", "5x", "1.s.", "s", "1e3", " 5", "99999999999999999999"}) {
    Result<std::chrono::milliseconds> r = ParseRequestTimeout(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error(), message);
  }
}

}  // namespace
}  // namespace dra::kube

// The kube layer against a real kube-apiserver v1.37.2 (docs/CLUSTER.md):
// every verb on every kind, conflicts, pagination, strict field validation,
// dry-run, RBAC errors compared with what the real kubectl prints, exec
// credential plugins, in-cluster configuration, and older served versions.
#include "dra/kube/client.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "dra/api/resource.h"
#include "dra/json/value.h"
#include "dra/kube/api_error.h"
#include "dra/kube/kubeconfig.h"
#include "dra/kube/resource_client.h"
#include "kube/test_cluster.h"

namespace dra::kube {
namespace {

using testing_cluster::ClusterOptions;
using testing_cluster::TestCluster;

json::Value Json(std::string_view text) {
  Result<json::Value> v = json::ParseJson(text);
  EXPECT_TRUE(v.ok()) << v.error();
  return v.ok() ? std::move(v).value() : json::Value();
}

std::string Str(const json::Value& v, std::initializer_list<std::string_view> path) {
  const json::Value* at = &v;
  for (std::string_view key : path) {
    if (!at->is_object()) return "";
    at = at->Find(key);
    if (at == nullptr) return "";
  }
  return at->is_string() || at->kind == json::Kind::kNumber ? at->text : "";
}

RestConfig ConfigFrom(const std::string& kubeconfig) {
  ConfigFlags flags;
  flags.kubeconfig = kubeconfig;
  Environment env;
  env.home = "/nonexistent";
  Result<RestConfig> config = LoadRestConfig(flags, env);
  EXPECT_TRUE(config.ok()) << config.error();
  return config.ok() ? *config : RestConfig{};
}

std::shared_ptr<Client> ClientFrom(RestConfig config) {
  config.qps = -1;  // tests are not throttled
  Result<std::shared_ptr<Client>> c = Client::New(std::move(config));
  EXPECT_TRUE(c.ok()) << c.error();
  return c.ok() ? *c : nullptr;
}

class ClusterClientTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!TestCluster::SkipReason().empty()) return;
    std::string error;
    cluster_ = TestCluster::Start(ClusterOptions{}, &error).release();
    if (cluster_ == nullptr) start_error_ = new std::string(error);
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  void SetUp() override {
    if (std::string why = TestCluster::SkipReason(); !why.empty()) GTEST_SKIP() << why;
    ASSERT_NE(cluster_, nullptr) << (start_error_ ? *start_error_ : "");
    client_ = ClientFrom(ConfigFrom(cluster_->admin_kubeconfig()));
    ASSERT_NE(client_, nullptr);
  }

  static TestCluster* cluster_;
  static std::string* start_error_;
  std::shared_ptr<Client> client_;
};
TestCluster* ClusterClientTest::cluster_ = nullptr;
std::string* ClusterClientTest::start_error_ = nullptr;

TEST_F(ClusterClientTest, DiscoversV1AndSpeaksHttp2) {
  auto v = DiscoverResourceVersion(*client_);
  ASSERT_TRUE(v.ok()) << KubectlErrorText(v.error());
  EXPECT_EQ(*v, api::ApiVersion::kV1);
  EXPECT_EQ(client_->LastHttpVersion(), "2");
}

TEST_F(ClusterClientTest, TypedVerbsOnEveryResourceKind) {
  auto typed = TypedClient::New(client_);
  ASSERT_TRUE(typed.ok());
  ObjectClient& objects = typed->objects();
  ObjectClient ns_client(client_);
  ASSERT_TRUE(
      ns_client
          .Create(Namespaces(), "",
                  Json(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"verbs"}})"))
          .ok());

  // DeviceClass: create, get, update, merge patch, JSON patch, apply, delete.
  api::DeviceClass cls;
  cls.metadata.name = "gpu.example.com";
  api::DeviceSelector selector;
  selector.cel = api::CELDeviceSelector{"device.driver == \"gpu.example.com\""};
  cls.spec.selectors.push_back(selector);
  auto created = typed->Create(cls);
  ASSERT_TRUE(created.ok()) << KubectlErrorText(created.error());
  EXPECT_FALSE(created->metadata.uid.empty());
  auto got = typed->Get<api::DeviceClass>("", "gpu.example.com");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->spec.selectors.size(), 1u);
  got->metadata.labels["tier"] = "a";
  auto updated = typed->Update(*got);
  ASSERT_TRUE(updated.ok()) << KubectlErrorText(updated.error());
  EXPECT_EQ(updated->metadata.labels.at("tier"), "a");
  auto merged = objects.Patch(DeviceClasses(typed->version()), "", "gpu.example.com",
                              PatchType::kMerge, R"({"metadata":{"labels":{"m":"1"}}})");
  ASSERT_TRUE(merged.ok()) << KubectlErrorText(merged.error());
  EXPECT_EQ(Str(*merged, {"metadata", "labels", "m"}), "1");
  auto jsonp =
      objects.Patch(DeviceClasses(typed->version()), "", "gpu.example.com", PatchType::kJson,
                    R"([{"op":"add","path":"/metadata/labels/j","value":"2"}])");
  ASSERT_TRUE(jsonp.ok()) << KubectlErrorText(jsonp.error());
  EXPECT_EQ(Str(*jsonp, {"metadata", "labels", "j"}), "2");
  WriteOptions apply;
  apply.field_manager = "dra-test";
  auto applied = objects.Patch(
      DeviceClasses(typed->version()), "", "gpu.example.com", PatchType::kApply,
      R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu.example.com","labels":{"applied":"yes"}}})",
      apply);
  ASSERT_TRUE(applied.ok()) << KubectlErrorText(applied.error());
  EXPECT_EQ(Str(*applied, {"metadata", "labels", "applied"}), "yes");
  // Apply without a field manager: the server's own message.
  auto no_manager = objects.Patch(DeviceClasses(typed->version()), "", "gpu.example.com",
                                  PatchType::kApply, R"({"metadata":{"labels":{"x":"y"}}})");
  ASSERT_FALSE(no_manager.ok());
  EXPECT_NE(no_manager.error().message.find("fieldManager"), std::string::npos)
      << no_manager.error().message;

  // ResourceSlice, ResourceClaimTemplate, DeviceTaintRule round trips.
  api::ResourceSlice slice;
  slice.metadata.name = "node-a-gpus";
  slice.spec.driver = "gpu.example.com";
  slice.spec.pool.name = "node-a";
  slice.spec.pool.resource_slice_count = 1;
  slice.spec.node_name = "node-a";
  api::Device dev;
  dev.name = "gpu-0";
  dev.attributes["model"].string_value = "H100";
  slice.spec.devices.push_back(dev);
  auto slice_created = typed->Create(slice);
  ASSERT_TRUE(slice_created.ok()) << KubectlErrorText(slice_created.error());
  auto slices = typed->List<api::ResourceSlice>("");
  ASSERT_TRUE(slices.ok());
  ASSERT_EQ(slices->size(), 1u);
  EXPECT_EQ((*slices)[0].spec.devices[0].attributes.at("model").string_value, "H100");

  api::DeviceTaintRule rule;
  rule.metadata.name = "maintenance";
  rule.spec.device_selector.emplace();
  rule.spec.device_selector->driver = "gpu.example.com";
  rule.spec.taint.key = "example.com/maintenance";
  rule.spec.taint.effect = "NoSchedule";
  auto rule_created = typed->Create(rule);
  ASSERT_TRUE(rule_created.ok()) << KubectlErrorText(rule_created.error());
  EXPECT_TRUE(typed->Delete<api::DeviceTaintRule>("", "maintenance").ok());

  // ResourceClaim with status: allocation written through the status subresource.
  api::ResourceClaim claim;
  claim.metadata.name = "c1";
  claim.metadata.namespace_ = "verbs";
  api::DeviceRequest req;
  req.name = "gpu";
  req.exactly.emplace();
  req.exactly->device_class_name = "gpu.example.com";
  claim.spec.devices.requests.push_back(req);
  auto claim_created = typed->Create(claim);
  ASSERT_TRUE(claim_created.ok()) << KubectlErrorText(claim_created.error());
  api::ResourceClaim with_status = *claim_created;
  with_status.status.allocation.emplace();
  api::DeviceRequestAllocationResult result;
  result.request = "gpu";
  result.driver = "gpu.example.com";
  result.pool = "node-a";
  result.device = "gpu-0";
  with_status.status.allocation->devices.results.push_back(result);
  auto status_updated = typed->UpdateStatus(with_status);
  ASSERT_TRUE(status_updated.ok()) << KubectlErrorText(status_updated.error());
  ASSERT_TRUE(status_updated->status.allocation.has_value());
  EXPECT_EQ(status_updated->status.allocation->devices.results[0].device, "gpu-0");

  // Conflict: an update from a stale copy.
  api::ResourceClaim stale = *claim_created;
  stale.metadata.labels["late"] = "1";
  auto conflict = typed->Update(stale);
  ASSERT_FALSE(conflict.ok());
  EXPECT_TRUE(conflict.error().IsConflict()) << KubectlErrorText(conflict.error());
  EXPECT_EQ(KubectlErrorText(conflict.error()),
            "Error from server (Conflict): Operation cannot be fulfilled on "
            "resourceclaims.resource.k8s.io \"c1\": the object has been modified; please apply "
            "your changes to the latest version and try again");
  int attempts = 0;
  ApiStatus retried = RetryOnConflict([&]() -> ApiStatus {
    ++attempts;
    auto fresh = attempts == 1 ? ApiResult<api::ResourceClaim>(stale)
                               : typed->Get<api::ResourceClaim>("verbs", "c1");
    if (!fresh.ok()) return fresh.error();
    fresh->metadata.labels["late"] = "1";
    auto u = typed->Update(*fresh);
    if (!u.ok()) return u.error();
    return Done{};
  });
  EXPECT_TRUE(retried.ok());
  EXPECT_EQ(attempts, 2);

  // Delete with preconditions: a wrong UID is a Conflict; the right one deletes.
  DeleteOptions wrong;
  wrong.precondition_uid = "00000000-0000-0000-0000-000000000000";
  auto refused = objects.Delete(ResourceClaims(typed->version()), "verbs", "c1", wrong);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.error().IsConflict());
  EXPECT_NE(refused.error().message.find(
                "the UID in the precondition (00000000-0000-0000-0000-000000000000) does not "
                "match the UID in record"),
            std::string::npos)
      << refused.error().message;
  DeleteOptions right;
  right.precondition_uid = claim_created->metadata.uid;
  right.propagation_policy = "Background";
  EXPECT_TRUE(objects.Delete(ResourceClaims(typed->version()), "verbs", "c1", right).ok());
  auto gone = typed->Get<api::ResourceClaim>("verbs", "c1");
  ASSERT_FALSE(gone.ok());
  EXPECT_TRUE(gone.error().IsNotFound());
  EXPECT_EQ(KubectlErrorText(gone.error()),
            "Error from server (NotFound): resourceclaims.resource.k8s.io \"c1\" not found");
}

TEST_F(ClusterClientTest, OpaqueKindsKeepEveryField) {
  ObjectClient objects(client_);
  // A Lease, an Event and a Pod with fields dra does not model.
  auto lease = objects.Create(
      Leases(), "default",
      Json(
          R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l1"},"spec":{"holderIdentity":"me","leaseDurationSeconds":15,"renewTime":"2026-12-01T10:00:00.123456Z"}})"));
  ASSERT_TRUE(lease.ok()) << KubectlErrorText(lease.error());
  EXPECT_EQ(Str(*lease, {"spec", "renewTime"}), "2026-12-01T10:00:00.123456Z");
  auto event = objects.Create(
      Events(), "default",
      Json(
          R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"e1"},"involvedObject":{"kind":"Node","name":"n1"},"reason":"Test","message":"hello","type":"Normal"})"));
  ASSERT_TRUE(event.ok()) << KubectlErrorText(event.error());
  auto pod = objects.Create(
      Pods(), "default",
      Json(
          R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1"},"spec":{"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","env":[{"name":"A","value":"1"}],"securityContext":{"runAsNonRoot":true}}],"terminationGracePeriodSeconds":5}})"));
  ASSERT_TRUE(pod.ok()) << KubectlErrorText(pod.error());
  // Read back and write back whole: nothing lost.
  auto read = objects.Get(Pods(), "default", "p1");
  ASSERT_TRUE(read.ok());
  json::Value whole = *read;
  for (json::Member& m : whole.members) {
    if (m.key == "metadata") {
      json::Value labels = json::Value::Object();
      labels.members.push_back({"x", json::Value::String("y"), {}});
      m.value.members.push_back({"labels", std::move(labels), {}});
    }
  }
  auto written = objects.Update(Pods(), "default", whole);
  ASSERT_TRUE(written.ok()) << KubectlErrorText(written.error());
  EXPECT_EQ(Str(*written, {"metadata", "labels", "x"}), "y");
  std::string text = json::ToJson(*written);
  EXPECT_NE(text.find("\"runAsNonRoot\":true"), std::string::npos);
  EXPECT_NE(text.find("\"terminationGracePeriodSeconds\":5"), std::string::npos);
  // Binding subresource; then the pod names its node.
  ASSERT_TRUE(objects
                  .Create(Nodes(), "",
                          Json(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}})"))
                  .ok());
  ApiStatus bound = BindPod(*client_, "default", "p1", "n1");
  ASSERT_TRUE(bound.ok()) << KubectlErrorText(bound.error());
  auto after = objects.Get(Pods(), "default", "p1");
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(Str(*after, {"spec", "nodeName"}), "n1");
}

TEST_F(ClusterClientTest, DryRunAndStrictFieldValidation) {
  ObjectClient objects(client_);
  WriteOptions dry;
  dry.dry_run = true;
  auto r = objects.Create(
      DeviceClasses(api::ApiVersion::kV1), "",
      Json(R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"dry"}})"),
      dry);
  ASSERT_TRUE(r.ok()) << KubectlErrorText(r.error());
  EXPECT_TRUE(objects.Get(DeviceClasses(api::ApiVersion::kV1), "", "dry").error().IsNotFound());

  WriteOptions strict;
  strict.field_validation = "Strict";
  auto bad = objects.Create(
      DeviceClasses(api::ApiVersion::kV1), "",
      Json(
          R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"strict"},"spec":{"bogus":1}})"),
      strict);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().reason, "BadRequest");
  // What the real kubectl prints for the same document (its --validate
  // defaults to strict).
  auto k = cluster_->Kubectl(
      {"create", "-f", "-"},
      R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"strict"},"spec":{"bogus":1}})");
  EXPECT_FALSE(k.ok());
  // kubectl create -f names the input before the server's error.
  std::string kubectl_text = k.output;
  const std::string context = "error when creating \"STDIN\": ";
  if (auto at = kubectl_text.find(context); at != std::string::npos)
    kubectl_text.erase(at, context.size());
  EXPECT_EQ(KubectlErrorText(bad.error()) + "\n", kubectl_text);

  // Warn: the server's warning reaches the handler.
  std::vector<std::string> warnings;
  client_->SetWarningHandler([&](const std::string& w) { warnings.push_back(w); });
  WriteOptions warn;
  warn.field_validation = "Warn";
  auto warned = objects.Create(
      DeviceClasses(api::ApiVersion::kV1), "",
      Json(
          R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"warned"},"spec":{"bogus":1}})"),
      warn);
  ASSERT_TRUE(warned.ok());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "unknown field \"spec.bogus\"");
}

TEST_F(ClusterClientTest, PaginatesTwoThousandSlices) {
  auto typed = TypedClient::New(client_);
  ASSERT_TRUE(typed.ok());
  // Created in parallel by 8 threads (unthrottled client).
  std::atomic<int> next{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = next++; i < 2000; i = next++) {
        api::ResourceSlice s;
        s.metadata.name = "page-" + std::to_string(i);
        s.spec.driver = "page.example.com";
        s.spec.pool.name = "pool-" + std::to_string(i);
        s.spec.pool.resource_slice_count = 1;
        s.spec.all_nodes = true;
        api::Device d;
        d.name = "d";
        s.spec.devices.push_back(d);
        if (!typed->Create(s).ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_EQ(failures.load(), 0);
  ListOptions by_driver;
  by_driver.field_selector = "spec.driver=page.example.com";
  std::string rv;
  auto all = typed->List<api::ResourceSlice>("", by_driver, &rv);
  ASSERT_TRUE(all.ok()) << KubectlErrorText(all.error());
  EXPECT_EQ(all->size(), 2000u);
  EXPECT_FALSE(rv.empty());
  std::set<std::string> names;
  for (const auto& s : *all) names.insert(s.metadata.name);
  EXPECT_EQ(names.size(), 2000u);
  // One page at a time through the untyped client, 300 per page.
  ObjectClient objects(client_);
  ListOptions page = by_driver;
  page.limit = 300;
  int pages = 0;
  std::size_t items = 0;
  while (true) {
    auto p = objects.ListPage(ResourceSlices(api::ApiVersion::kV1), "", page);
    ASSERT_TRUE(p.ok());
    ++pages;
    items += p->items.size();
    if (p->continue_token.empty()) break;
    page.continue_token = p->continue_token;
  }
  EXPECT_EQ(pages, 7);
  EXPECT_EQ(items, 2000u);
}

TEST_F(ClusterClientTest, ForbiddenAsKubectlPrintsIt) {
  auto restricted = ClientFrom(ConfigFrom(cluster_->restricted_kubeconfig()));
  ASSERT_NE(restricted, nullptr);
  ObjectClient objects(restricted);
  auto list = objects.ListPage(ResourceSlices(api::ApiVersion::kV1), "", {});
  ASSERT_FALSE(list.ok());
  EXPECT_TRUE(list.error().IsForbidden());
  auto k = cluster_->Kubectl({"get", "resourceslices"}, {}, cluster_->restricted_kubeconfig());
  EXPECT_FALSE(k.ok());
  EXPECT_EQ(KubectlErrorText(list.error()) + "\n", k.output);
  auto get = objects.Get(ResourceClaims(api::ApiVersion::kV1), "default", "x");
  ASSERT_FALSE(get.ok());
  auto k2 = cluster_->Kubectl({"get", "resourceclaims.resource.k8s.io", "x", "-n", "default"}, {},
                              cluster_->restricted_kubeconfig());
  EXPECT_EQ(KubectlErrorText(get.error()) + "\n", k2.output);
}

TEST_F(ClusterClientTest, UnauthorizedAsKubectlPrintsIt) {
  RestConfig config = ConfigFrom(cluster_->token_admin_kubeconfig());
  config.bearer_token = "not-a-valid-token";
  config.credentials.reset();
  auto client = ClientFrom(config);
  auto r = ObjectClient(client).Get(Namespaces(), "", "default");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.error().IsUnauthorized());
  EXPECT_EQ(KubectlErrorText(r.error()),
            "error: You must be logged in to the server (Unauthorized)");
}

// TLS: the server's certificate checked against the configured CA, and
// against tls-server-name (SNI and the name checked; the connection still
// goes to the configured server).
TEST_F(ClusterClientTest, TlsVerificationAndServerName) {
  RestConfig config = ConfigFrom(cluster_->admin_kubeconfig());
  {
    RestConfig wrong_ca = config;
    // A certificate that did not sign the server's (the admin client certificate).
    std::ifstream in(cluster_->dir() + "/admin.crt");
    wrong_ca.tls.ca_pem.assign(std::istreambuf_iterator<char>(in), {});
    ASSERT_FALSE(wrong_ca.tls.ca_pem.empty());
    auto r = ObjectClient(ClientFrom(wrong_ca)).Get(Namespaces(), "", "default");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::kTransport);
    EXPECT_EQ(KubectlErrorText(r.error()).rfind("Unable to connect to the server: ", 0), 0u)
        << KubectlErrorText(r.error());
  }
  {
    RestConfig named = config;
    named.tls.server_name = "kubernetes.default.svc";  // a SAN of the serving certificate
    auto r = ObjectClient(ClientFrom(named)).Get(Namespaces(), "", "default");
    ASSERT_TRUE(r.ok()) << KubectlErrorText(r.error());
  }
  {
    RestConfig misnamed = config;
    misnamed.tls.server_name = "not-the-apiserver.example";
    auto r = ObjectClient(ClientFrom(misnamed)).Get(Namespaces(), "", "default");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::kTransport);
  }
}

// An exec credential plugin handing out token-admin's token, with an
// expiry: the client runs it once, reuses the credential, and runs it again
// after a 401 (a revoked token) and after expiry.
TEST_F(ClusterClientTest, ExecCredentialPlugin) {
  RestConfig token_config = ConfigFrom(cluster_->token_admin_kubeconfig());
  std::string token = token_config.bearer_token;
  if (token.empty() && token_config.credentials) {
    auto c = token_config.credentials->Get();
    ASSERT_TRUE(c.ok());
    token = c->bearer_token;
  }
  ASSERT_FALSE(token.empty());
  std::string dir = cluster_->dir() + "/exec";
  std::filesystem::create_directories(dir);
  std::string plugin = dir + "/plugin.sh";
  std::string counter = dir + "/runs";
  {
    std::ofstream out(plugin);
    // First run: a wrong token (the server answers 401); later runs: the right one.
    out << "#!/bin/sh\n"
        << "n=$(cat " << counter << " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " << counter
        << "\n"
        << "if [ $n -eq 1 ]; then t=wrong; else t=" << token << "; fi\n"
        << "exp=$(date -u -d '+3 seconds' +%Y-%m-%dT%H:%M:%SZ)\n"
        << "printf "
           "'{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
           "\"status\":{\"token\":\"%s\",\"expirationTimestamp\":\"%s\"}}' \"$t\" \"$exp\"\n";
  }
  ::chmod(plugin.c_str(), 0755);
  std::string kubeconfig = dir + "/kubeconfig";
  {
    std::ofstream out(kubeconfig);
    out << "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: "
        << cluster_->server() << "\n    certificate-authority: " << cluster_->ca_file()
        << "\nusers:\n- name: u\n  user:\n    exec:\n      apiVersion: "
           "client.authentication.k8s.io/v1\n      command: "
        << plugin
        << "\n      interactiveMode: Never\ncontexts:\n- name: x\n  context:\n    cluster: c\n    "
           "user: u\ncurrent-context: x\n";
  }
  auto client = ClientFrom(ConfigFrom(kubeconfig));
  ObjectClient objects(client);
  auto first = objects.Get(Namespaces(), "", "default");
  ASSERT_FALSE(first.ok());
  EXPECT_TRUE(first.error().IsUnauthorized());
  auto second = objects.Get(Namespaces(), "", "default");
  ASSERT_TRUE(second.ok()) << KubectlErrorText(second.error());
  auto third = objects.Get(Namespaces(), "", "default");
  ASSERT_TRUE(third.ok());
  auto runs = [&] {
    std::ifstream in(counter);
    int n = 0;
    in >> n;
    return n;
  };
  EXPECT_EQ(runs(), 2);  // reused until it expires
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));
  auto fourth = objects.Get(Namespaces(), "", "default");
  ASSERT_TRUE(fourth.ok());
  EXPECT_EQ(runs(), 3);  // expired: run again
}

// In-cluster configuration from a service-account directory and the
// KUBERNETES_SERVICE_HOST/PORT variables, with the token rotated on disk.
TEST_F(ClusterClientTest, InClusterConfiguration) {
  RestConfig token_config = ConfigFrom(cluster_->token_admin_kubeconfig());
  std::string token = token_config.bearer_token;
  std::string sa = cluster_->dir() + "/serviceaccount";
  std::filesystem::create_directories(sa);
  std::filesystem::copy_file(cluster_->ca_file(), sa + "/ca.crt",
                             std::filesystem::copy_options::overwrite_existing);
  std::ofstream(sa + "/token") << token;
  std::ofstream(sa + "/namespace") << "kube-system";
  std::string server = cluster_->server();  // https://127.0.0.1:PORT
  auto colon = server.rfind(':');
  Environment env;
  env.kubernetes_service_host = "127.0.0.1";
  env.kubernetes_service_port = server.substr(colon + 1);
  env.service_account_dir = sa;
  env.home = "/nonexistent";
  Result<RestConfig> config = LoadRestConfig(ConfigFlags{}, env);
  ASSERT_TRUE(config.ok()) << config.error();
  EXPECT_EQ(config->namespace_, "kube-system");
  auto client = ClientFrom(*config);
  auto r = ObjectClient(client).Get(Namespaces(), "", "kube-system");
  ASSERT_TRUE(r.ok()) << KubectlErrorText(r.error());
}

// A server that serves resource.k8s.io only in v1beta1 and v1beta2 is spoken
// to in v1beta2; one with only v1beta1 in v1beta1, and the deprecation
// warning of v1beta1 reaches the handler.
TEST(ClusterVersions, OlderServedVersions) {
  if (std::string why = TestCluster::SkipReason(); !why.empty()) GTEST_SKIP() << why;
  for (auto [runtime, want] :
       {std::pair{"resource.k8s.io/v1=false,resource.k8s.io/v1beta2=true,resource.k8s.io/"
                  "v1beta1=true",
                  api::ApiVersion::kV1beta2},
        std::pair{"resource.k8s.io/v1=false,resource.k8s.io/v1beta2=false,resource.k8s.io/"
                  "v1beta1=true",
                  api::ApiVersion::kV1beta1}}) {
    ClusterOptions options;
    options.runtime_config = runtime;
    // 1.37's Node authorizer watches v1 ResourceSlices and never becomes
    // ready without them; an older server has no such dependency.
    options.apiserver_args = {"--authorization-mode=RBAC"};
    std::string error;
    auto cluster = TestCluster::Start(options, &error);
    ASSERT_TRUE(cluster) << error;
    auto client = ClientFrom(ConfigFrom(cluster->admin_kubeconfig()));
    std::vector<std::string> warnings;
    client->SetWarningHandler([&](const std::string& w) { warnings.push_back(w); });
    auto typed = TypedClient::New(client);
    ASSERT_TRUE(typed.ok()) << KubectlErrorText(typed.error());
    EXPECT_EQ(typed->version(), want);
    api::ResourceSlice slice;
    slice.metadata.name = "s";
    slice.spec.driver = "gpu.example.com";
    slice.spec.pool.name = "p";
    slice.spec.pool.resource_slice_count = 1;
    slice.spec.node_name = "n1";
    api::Device d;
    d.name = "gpu-0";
    d.attributes["model"].string_value = "H100";
    d.capacity["memory"].value = api::Quantity::MustParse("80Gi");
    slice.spec.devices.push_back(d);
    auto created = typed->Create(slice);
    ASSERT_TRUE(created.ok()) << KubectlErrorText(created.error());
    auto listed = typed->List<api::ResourceSlice>("");
    ASSERT_TRUE(listed.ok());
    ASSERT_EQ(listed->size(), 1u);
    EXPECT_EQ((*listed)[0].spec.devices[0].attributes.at("model").string_value, "H100");
    EXPECT_EQ((*listed)[0].spec.devices[0].capacity.at("memory").value.String(), "80Gi");
    // kubectl reads the same object back through the version it prefers.
    auto k = cluster->Kubectl(
        {"get", "resourceslices.resource.k8s.io", "s", "-o", "jsonpath={.spec.devices[0].name}"});
    EXPECT_TRUE(k.ok()) << k.output;
    if (want == api::ApiVersion::kV1beta1) {
      bool deprecated = false;
      for (const auto& w : warnings)
        deprecated |= w.find("v1beta1 ResourceSlice is deprecated") != std::string::npos;
      EXPECT_TRUE(deprecated);
    }
  }
}

}  // namespace
}  // namespace dra::kube

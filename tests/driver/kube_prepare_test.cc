// Prepares through the Kubernetes claim source when kube-apiserver fails: a
// claim the server cannot read, may not be read, is gone, or a server that
// cannot be reached at all. Each is a per-claim error naming the claim and
// the cause; nothing is recorded or written for it, and the claims around it
// are served. The happy path against the real server is in
// tests/cluster/driver_test.sh.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "dra/driver/kubernetes.h"
#include "kube/fake_server.h"
#include "sdk_plugin_test_util.h"

namespace dra::driver::testing {
namespace {

using kube::testing::FakeRequest;
using kube::testing::FakeResponse;
using kube::testing::FakeServer;
using kube::testing::JsonResponse;
using kube::testing::StatusResponse;

// The discovery document the claim source asks for before its first GET.
std::optional<FakeResponse> Discovery(const FakeRequest& r) {
  if (r.target != "/apis/resource.k8s.io") return std::nullopt;
  return JsonResponse(
      200, R"({"kind":"APIGroup","apiVersion":"v1","name":"resource.k8s.io",)"
           R"("versions":[{"groupVersion":"resource.k8s.io/v1","version":"v1"}],)"
           R"("preferredVersion":{"groupVersion":"resource.k8s.io/v1","version":"v1"}})");
}

std::shared_ptr<kube::Client> ClientAt(const std::string& url) {
  kube::RestConfig config;
  config.server = url;
  config.qps = -1;
  auto client = kube::Client::New(config);
  EXPECT_TRUE(client.ok()) << (client.ok() ? "" : client.error());
  return *client;
}

class KubePrepare : public ::testing::Test {
 protected:
  void Start(std::shared_ptr<kube::Client> client) {
    claims = NewKubeClaimSource(std::move(client));
    publisher = NewFileSlicePublisher(dirs.slices());
    auto p = Plugin::Start(driver, *claims, *publisher, dirs.Options(kDriverName));
    ASSERT_TRUE(p.ok()) << p.error();
    plugin = std::move(*p);
    kubelet = std::make_unique<KubeletClient>(plugin->endpoints().registration_socket);
    kubelet->Register();
  }
  void TearDown() override {
    if (plugin) plugin->Stop();
  }
  std::map<std::string, drav1::NodePrepareResourceResponse> Prepare(
      const std::vector<ClaimSpec>& specs) {
    std::vector<ClaimRefs> refs;
    for (const auto& c : specs) refs.push_back(Ref(c));
    drav1::NodePrepareResourcesResponse r;
    auto s = kubelet->PrepareV1(refs, r);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return {r.claims().begin(), r.claims().end()};
  }
  Result<ClaimRecords> Records() { return Checkpoint(plugin->endpoints().checkpoint_file).Load(); }

  KubeletDirs dirs;
  TestDriver driver;
  std::unique_ptr<ClaimSource> claims;
  std::unique_ptr<SlicePublisher> publisher;
  std::unique_ptr<Plugin> plugin;
  std::unique_ptr<KubeletClient> kubelet;
};

TEST_F(KubePrepare, ServerErrorsAreErrorsOfTheirClaimsOnly) {
  ClaimSpec good = SimpleClaim("good", "uid-good", {"dev-0"});
  ClaimSpec broken = SimpleClaim("broken", "uid-broken", {"dev-1"});
  ClaimSpec forbidden = SimpleClaim("forbidden", "uid-forbidden", {"dev-2"});
  ClaimSpec gone = SimpleClaim("gone", "uid-gone", {"dev-3"});
  FakeServer server([&](const FakeRequest& r) -> FakeResponse {
    if (auto d = Discovery(r)) return *d;
    const std::string prefix = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims/";
    std::string path = r.target.substr(0, r.target.find('?'));
    if (path == prefix + "good") return JsonResponse(200, ClaimJson(good));
    if (path == prefix + "broken") return StatusResponse(500, "InternalError", "etcd is down");
    if (path == prefix + "forbidden") {
      return StatusResponse(
          403, "Forbidden",
          "resourceclaims.resource.k8s.io \"forbidden\" is forbidden: User "
          "\"system:serviceaccount:dra:driver\" cannot get resource \"resourceclaims\"");
    }
    return StatusResponse(404, "NotFound", "resourceclaims.resource.k8s.io \"gone\" not found");
  });
  Start(ClientAt(server.url()));

  auto answers = Prepare({good, broken, forbidden, gone});
  ASSERT_EQ(answers.size(), 4u);
  EXPECT_EQ(answers["uid-good"].error(), "");
  ASSERT_EQ(answers["uid-good"].devices_size(), 1);
  EXPECT_EQ(ResolveCdiIds(dirs.cdi(), {answers["uid-good"].devices(0).cdi_device_ids().begin(),
                                       answers["uid-good"].devices(0).cdi_device_ids().end()}),
            "");
  auto has = [&](const std::string& uid, const std::string& text) {
    return answers[uid].error().find(text) != std::string::npos;
  };
  EXPECT_TRUE(has("uid-broken", "default/broken")) << answers["uid-broken"].error();
  EXPECT_TRUE(has("uid-broken", "etcd is down")) << answers["uid-broken"].error();
  EXPECT_TRUE(has("uid-forbidden", "default/forbidden")) << answers["uid-forbidden"].error();
  EXPECT_TRUE(has("uid-forbidden", "Forbidden")) << answers["uid-forbidden"].error();
  EXPECT_TRUE(has("uid-gone", "default/gone")) << answers["uid-gone"].error();
  EXPECT_TRUE(has("uid-gone", "not found")) << answers["uid-gone"].error();

  // Only the good claim was recorded, prepared and given a spec.
  auto records = Records();
  ASSERT_TRUE(records.ok()) << records.error();
  EXPECT_EQ(records->size(), 1u);
  EXPECT_EQ(records->count("uid-good"), 1u);
  EXPECT_EQ(driver.prepared().size(), 1u);
  EXPECT_EQ(dirs.CdiFiles().size(), 1u);
}

TEST_F(KubePrepare, UnreachableServerFailsPreparesAndUnprepareStillWorks) {
  ClaimSpec good = SimpleClaim("good", "uid-good", {"dev-0"});
  auto server = std::make_unique<FakeServer>([&](const FakeRequest& r) {
    return Discovery(r).value_or(JsonResponse(200, ClaimJson(good)));
  });
  std::string url = server->url();
  // One client for the whole test, as a driver has: the server goes away
  // while the plugin runs.
  Start(ClientAt(url));
  auto first = Prepare({good});
  ASSERT_EQ(first["uid-good"].error(), "");

  server.reset();  // nothing listens on the port any more
  ClaimSpec later = SimpleClaim("later", "uid-later", {"dev-1"});
  auto answers = Prepare({later});
  const std::string& error = answers["uid-later"].error();
  EXPECT_NE(error.find("default/later"), std::string::npos) << error;
  EXPECT_NE(error.find(url.substr(url.find("//") + 2)), std::string::npos) << error;  // where
  auto records = Records();
  ASSERT_TRUE(records.ok()) << records.error();
  EXPECT_EQ(records->count("uid-later"), 0u);

  // Unprepare needs no API call: the pod of the first claim can go.
  drav1::NodeUnprepareResourcesResponse r;
  ASSERT_TRUE(kubelet->UnprepareV1({Ref(good)}, r).ok());
  EXPECT_EQ(r.claims().at("uid-good").error(), "");
  EXPECT_TRUE(dirs.CdiFiles().empty());
  EXPECT_TRUE(driver.prepared().empty());
}

}  // namespace
}  // namespace dra::driver::testing

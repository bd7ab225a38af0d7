// Watches and informers against a real kube-apiserver v1.37.2: events in
// order, a watch across an apiserver restart, a watch from a resourceVersion
// that etcd compaction removed (410), and an informer that recovers from
// both; leader election on a real Lease.
#include "dra/kube/informer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "admin_client.h"
#include "dra/api/resource.h"
#include "dra/kube/api_error.h"
#include "dra/kube/kubeconfig.h"
#include "dra/kube/leader_election.h"
#include "dra/kube/resource_client.h"
#include "dra/kube/watch.h"
#include "kube/test_cluster.h"

namespace dra::kube {
namespace {

using testing_cluster::ClusterOptions;
using testing_cluster::TestCluster;

using testing::AdminClient;

api::ResourceSlice Slice(const std::string& name, const std::string& driver) {
  api::ResourceSlice s;
  s.metadata.name = name;
  s.spec.driver = driver;
  s.spec.pool.name = name;
  s.spec.pool.resource_slice_count = 1;
  s.spec.all_nodes = true;
  api::Device d;
  d.name = "gpu-0";
  s.spec.devices.push_back(d);
  return s;
}

// Polls `condition` for up to `seconds`.
template <class F>
bool Eventually(F condition, int seconds = 30) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return condition();
}

std::set<std::string> Names(const std::vector<std::shared_ptr<const api::ResourceSlice>>& v) {
  std::set<std::string> out;
  for (const auto& s : v) out.insert(s->metadata.name);
  return out;
}

class ClusterWatchTest : public ::testing::Test {
 protected:
  virtual ClusterOptions Options() const { return {}; }

  void SetUp() override {
    if (std::string why = TestCluster::SkipReason(); !why.empty()) GTEST_SKIP() << why;
    std::string error;
    cluster_ = TestCluster::Start(Options(), &error);
    ASSERT_TRUE(cluster_) << error;
    client_ = AdminClient(*cluster_);
    ASSERT_NE(client_, nullptr);
    auto typed = TypedClient::New(client_);
    ASSERT_TRUE(typed.ok());
    typed_ = std::make_unique<TypedClient>(*typed);
  }

  // An informer over ResourceSlices of `driver`, keeping typed slices.
  std::unique_ptr<Informer<api::ResourceSlice>> SliceInformer(
      const std::string& driver, InformerHandlers<api::ResourceSlice> handlers = {},
      bool watch_list = true) {
    auto source = std::shared_ptr<ListerWatcher>(NewApiListerWatcher(
        ObjectClient(client_), ResourceSlices(typed_->version()), "", "", "spec.driver=" + driver));
    TypedClient typed = *typed_;
    auto transform =
        [typed](json::Value&& tree) -> ApiResult<std::shared_ptr<const api::ResourceSlice>> {
      auto o = typed.Decode(tree);
      if (!o.ok()) return o.error();
      auto* s = std::get_if<api::ResourceSlice>(&o.value());
      if (s == nullptr) return ApiError::Protocol("not a ResourceSlice");
      return std::make_shared<const api::ResourceSlice>(std::move(*s));
    };
    InformerOptions options;
    options.name = "resourceslices.resource.k8s.io";
    options.backoff_initial = std::chrono::milliseconds(100);
    options.backoff_cap = std::chrono::milliseconds(1000);
    options.watch_list = watch_list;
    return std::make_unique<Informer<api::ResourceSlice>>(source, transform, std::move(handlers),
                                                          options);
  }

  std::unique_ptr<TestCluster> cluster_;
  std::shared_ptr<Client> client_;
  std::unique_ptr<TypedClient> typed_;
};

TEST_F(ClusterWatchTest, RawWatchSeesEventsInOrder) {
  std::string rv;
  ASSERT_TRUE(typed_->List<api::ResourceSlice>("", {}, &rv).ok());
  ASSERT_TRUE(typed_->Create(Slice("w1", "w.example.com")).ok());
  auto got = typed_->Get<api::ResourceSlice>("", "w1");
  ASSERT_TRUE(got.ok());
  got->metadata.labels["x"] = "1";
  ASSERT_TRUE(typed_->Update(*got).ok());
  ASSERT_TRUE(typed_->Delete<api::ResourceSlice>("", "w1").ok());
  ObjectClient objects(client_);
  ListOptions options;
  options.resource_version = rv;
  options.timeout_seconds = 5;
  std::vector<std::string> types;
  ApiStatus s = Watch(objects, ResourceSlices(typed_->version()), "", options, [&](WatchEvent&& e) {
    types.push_back(e.type);
    return types.size() < 3;
  });
  ASSERT_TRUE(s.ok()) << KubectlErrorText(s.error());
  EXPECT_EQ(types, (std::vector<std::string>{"ADDED", "MODIFIED", "DELETED"}));
}

// kube-apiserver v1.37 streams the first list (the WatchList feature is on
// by default); with watch-lists off the informer lists. Both see the same.
TEST_F(ClusterWatchTest, InformerStreamsItsFirstList) {
  for (const char* name : {"s1", "s2", "s3"}) {
    ASSERT_TRUE(typed_->Create(Slice(name, "stream.example.com")).ok());
  }
  ASSERT_TRUE(typed_->Create(Slice("elsewhere", "other.example.com")).ok());
  for (bool watch_list : {true, false}) {
    SCOPED_TRACE(watch_list ? "watch-list" : "list");
    std::atomic<int> initial{0};
    InformerHandlers<api::ResourceSlice> handlers;
    handlers.on_add = [&](const auto&, bool in_initial_list) {
      if (in_initial_list) ++initial;
    };
    std::atomic<int> errors{0};
    handlers.on_error = [&](const ApiError&) { ++errors; };
    auto informer = SliceInformer("stream.example.com", handlers, watch_list);
    informer->Start();
    ASSERT_TRUE(informer->WaitForSync(std::chrono::seconds(30)));
    EXPECT_EQ(Names(informer->Snapshot()), (std::set<std::string>{"s1", "s2", "s3"}));
    EXPECT_EQ(initial.load(), 3);
    EXPECT_FALSE(informer->LastSyncResourceVersion().empty());
    // The watch goes on from there.
    const std::string name = watch_list ? "s4" : "s5";
    ASSERT_TRUE(typed_->Create(Slice(name, "stream.example.com")).ok());
    ASSERT_TRUE(Eventually([&] { return informer->Get(name) != nullptr; }));
    InformerStats stats = informer->Stats();
    EXPECT_EQ(stats.lists, 1u);
    EXPECT_EQ(stats.streamed_lists, watch_list ? 1u : 0u);
    EXPECT_EQ(stats.list_errors + stats.watch_errors + stats.transform_errors, 0u);
    // The next pass lists at resourceVersion "0", which the watch cache may
    // answer from before the delete: wait until the watch (fed by that
    // cache) has seen it.
    ASSERT_TRUE(typed_->Delete<api::ResourceSlice>("", name).ok());
    ASSERT_TRUE(Eventually([&] { return informer->Get(name) == nullptr; }));
    informer->Stop();
    EXPECT_EQ(errors.load(), 0);
  }
}

// An apiserver without the WatchList feature refuses sendInitialEvents
// ("sendInitialEvents is forbidden for watch unless the WatchList feature
// gate is enabled"): the informer lists instead, and says nothing of it.
class WatchListOffTest : public ClusterWatchTest {
 protected:
  ClusterOptions Options() const override {
    ClusterOptions o;
    o.feature_gates = "WatchList=false";
    return o;
  }
};

TEST_F(WatchListOffTest, InformerFallsBackToAList) {
  ASSERT_TRUE(typed_->Create(Slice("l1", "list.example.com")).ok());
  std::atomic<int> errors{0};
  InformerHandlers<api::ResourceSlice> handlers;
  handlers.on_error = [&](const ApiError&) { ++errors; };
  auto informer = SliceInformer("list.example.com", handlers);
  informer->Start();
  ASSERT_TRUE(informer->WaitForSync(std::chrono::seconds(30)));
  // The list at resourceVersion "0" may be answered from a watch cache that
  // has not seen l1 yet; the watch then brings it.
  ASSERT_TRUE(Eventually([&] { return informer->Get("l1") != nullptr; }));
  ASSERT_TRUE(typed_->Create(Slice("l2", "list.example.com")).ok());
  ASSERT_TRUE(Eventually([&] { return informer->Get("l2") != nullptr; }));
  InformerStats stats = informer->Stats();
  informer->Stop();
  EXPECT_EQ(stats.lists, 1u);
  EXPECT_EQ(stats.streamed_lists, 0u);
  EXPECT_GE(stats.watches, 2u);  // the refused watch-list, then the watch
  EXPECT_EQ(stats.list_errors + stats.transform_errors, 0u);
  EXPECT_EQ(errors.load(), 0);
}

TEST_F(ClusterWatchTest, InformerSurvivesApiserverRestartAndCompaction) {
  std::mutex mu;
  std::vector<std::string> log;
  InformerHandlers<api::ResourceSlice> handlers;
  handlers.on_add = [&](const auto& s, bool) {
    std::lock_guard<std::mutex> lock(mu);
    log.push_back("add " + s->metadata.name);
  };
  handlers.on_delete = [&](const auto& s, bool unknown) {
    std::lock_guard<std::mutex> lock(mu);
    log.push_back(std::string(unknown ? "delete? " : "delete ") + s->metadata.name);
  };
  auto informer = SliceInformer("x.example.com", handlers);
  informer->Start();
  ASSERT_TRUE(informer->WaitForSync(std::chrono::seconds(30)));
  ASSERT_TRUE(typed_->Create(Slice("a", "x.example.com")).ok());
  ASSERT_TRUE(typed_->Create(Slice("b", "x.example.com")).ok());
  ASSERT_TRUE(Eventually([&] {
    return Names(informer->Snapshot()) == std::set<std::string>{"a", "b"};
  }));
  std::string synced_rv = informer->LastSyncResourceVersion();

  // Across a restart: the informer watches again and sees what follows.
  std::string error;
  ASSERT_TRUE(cluster_->RestartApiserver(&error)) << error;
  ASSERT_TRUE(typed_->Create(Slice("c", "x.example.com")).ok());
  ASSERT_TRUE(Eventually([&] {
    return Names(informer->Snapshot()) == std::set<std::string>{"a", "b", "c"};
  }));

  // Other drivers' writes move the resourceVersion past what the informer
  // has seen; etcd is compacted and the apiserver restarted, so a watch from
  // the informer's resourceVersion is answered 410 and it must list again.
  std::string before_rv;
  ASSERT_TRUE(typed_->List<api::ResourceSlice>("", {}, &before_rv).ok());
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(typed_->Create(Slice("other-" + std::to_string(i), "other.example.com")).ok());
  }
  ASSERT_TRUE(cluster_->StopApiserver(&error)) << error;
  int64_t revision = 0;
  ASSERT_TRUE(cluster_->Compact(&revision, &error)) << error;
  ASSERT_TRUE(cluster_->StartApiserver(&error)) << error;
  // A raw watch from before the compaction: 410 Expired.
  ObjectClient objects(client_);
  ListOptions old;
  old.resource_version = before_rv;
  old.timeout_seconds = 5;
  ApiStatus expired =
      Watch(objects, ResourceSlices(typed_->version()), "", old, [](WatchEvent&&) { return true; });
  ASSERT_FALSE(expired.ok());
  EXPECT_TRUE(expired.error().IsGone()) << KubectlErrorText(expired.error());

  ASSERT_TRUE(typed_->Delete<api::ResourceSlice>("", "a").ok());
  ASSERT_TRUE(typed_->Create(Slice("d", "x.example.com")).ok());
  ASSERT_TRUE(Eventually([&] {
    return Names(informer->Snapshot()) == std::set<std::string>{"b", "c", "d"};
  }));
  InformerStats stats = informer->Stats();
  EXPECT_GE(stats.watches, 2u);
  informer->Stop();
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_EQ(log.front(), "add a");
  bool deleted_a = false;
  for (const auto& l : log) deleted_a |= l == "delete a" || l == "delete? a";
  EXPECT_TRUE(deleted_a);
}

TEST_F(ClusterWatchTest, LeaderElectionOnARealLease) {
  ObjectClient objects(client_);
  std::atomic<int> leaders{0};
  std::atomic<int> a_leading{0};
  std::atomic<int> b_leading{0};
  auto make = [&](const std::string& id, std::atomic<int>& leading) {
    LeaderElectionConfig config;
    config.identity = id;
    config.lease_duration = std::chrono::milliseconds(3000);
    config.renew_deadline = std::chrono::milliseconds(2000);
    config.retry_period = std::chrono::milliseconds(500);
    config.on_started_leading = [&](const std::atomic<bool>& lost) {
      ++leaders;
      leading = 1;
      while (!lost.load()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      leading = 0;
    };
    std::shared_ptr<LeaseLock> lock(NewLeaseLock(objects, "default", "dra-test"));
    return LeaderElector::New(lock, config);
  };
  auto a = make("a", a_leading);
  ASSERT_TRUE(a.ok()) << a.error();
  (*a)->Start();
  ASSERT_TRUE(Eventually([&] { return a_leading.load() == 1; }, 10));
  auto b = make("b", b_leading);
  ASSERT_TRUE(b.ok()) << b.error();
  (*b)->Start();
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(b_leading.load(), 0);
  auto lease = objects.Get(Leases(), "default", "dra-test");
  ASSERT_TRUE(lease.ok());
  const json::Value* spec = lease->Find("spec");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->Find("holderIdentity")->text, "a");
  // The leader goes away without releasing: b takes over once the lease has
  // expired (3 s after b last saw it change).
  (*a)->Stop();
  ASSERT_TRUE(Eventually([&] { return b_leading.load() == 1; }, 15));
  auto taken = objects.Get(Leases(), "default", "dra-test");
  ASSERT_TRUE(taken.ok());
  EXPECT_EQ(taken->Find("spec")->Find("holderIdentity")->text, "b");
  EXPECT_EQ(taken->Find("spec")->Find("leaseTransitions")->text, "1");
  (*b)->Stop();
  EXPECT_EQ(leaders.load(), 2);
}

}  // namespace
}  // namespace dra::kube

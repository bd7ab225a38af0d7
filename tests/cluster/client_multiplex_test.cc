// Requests share HTTP/2 connections against the real kube-apiserver
// (docs/CLUSTER.md): a burst of concurrent requests from many threads goes
// out as streams of one connection, as client-go sends them, instead of a
// connection and a TLS handshake each. Skipped without the cluster binaries
// (tests/cluster/build.sh).
#include <gtest/gtest.h>

#include <latch>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "admin_client.h"
#include "dra/kube/client.h"
#include "dra/kube/kubeconfig.h"
#include "kube/test_cluster.h"

namespace dra::kube {
namespace {

using testing_cluster::ClusterOptions;
using testing_cluster::TestCluster;

using testing::AdminClient;

TEST(ClientMultiplexTest, ConcurrentRequestsShareOneHttp2Connection) {
  if (std::string why = TestCluster::SkipReason(); !why.empty()) GTEST_SKIP() << why;
  std::string error;
  std::unique_ptr<TestCluster> cluster = TestCluster::Start(ClusterOptions{}, &error);
  ASSERT_NE(cluster, nullptr) << error;
  std::shared_ptr<Client> client = AdminClient(*cluster);
  ASSERT_NE(client, nullptr);

  // Two rounds: a cold client (the connection is being set up while the
  // burst arrives) and a warm one.
  constexpr int kThreads = 64;
  for (int round = 0; round < 2; ++round) {
    std::vector<std::optional<ApiResult<HttpResponse>>> results(kThreads);
    std::latch start(kThreads);
    std::vector<std::thread> threads;
    threads.reserve(kThreads);
    for (int i = 0; i < kThreads; ++i) {
      threads.emplace_back([&, i] {
        HttpRequest req;
        req.path = i % 2 == 0 ? "/version" : "/api/v1/namespaces/kube-system";
        req.verb = "get";
        start.arrive_and_wait();
        results[i].emplace(client->Do(req));
      });
    }
    for (std::thread& t : threads) t.join();
    for (int i = 0; i < kThreads; ++i) {
      ASSERT_TRUE(results[i]->ok()) << round << "/" << i << ": " << results[i]->error().message;
      EXPECT_EQ((*results[i])->code, 200);
      EXPECT_NE((*results[i])->body.find(i % 2 == 0 ? "gitVersion" : "kube-system"),
                std::string::npos);
    }
    EXPECT_EQ(client->LastHttpVersion(), "2");
    // One connection for all 128 requests; a second is tolerated should the
    // server have closed the first between the rounds.
    EXPECT_GE(client->ConnectionsOpened(), 1u);
    EXPECT_LE(client->ConnectionsOpened(), 2u) << "round " << round;
  }
}

}  // namespace
}  // namespace dra::kube

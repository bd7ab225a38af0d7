// Filter's equivalence cache must never change an outcome: every workload,
// with pods finishing and new ones arriving, schedules identically with the
// cache on and off; and the cache itself keys verdicts by spec and version.
#include "scheduler/filter_memo.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dra/scheduler/scheduler.h"
#include "scheduler/workloads.h"
#include "workload_test_util.h"

namespace dra::scheduler {
namespace {

std::vector<std::string> Simulate(const std::string& workload, bool memo) {
  constexpr int kNodes = 12;
  Result<WorkloadManifests> w = MakeWorkload(workload, kNodes, 3 * kNodes);
  EXPECT_TRUE(w.ok()) << w.error();
  if (!w.ok()) return {};
  SchedulerOptions options = WorkloadOptions();
  options.filter_memo = memo;
  Scheduler s(ParseCluster(w->cluster + w->pods), options);
  s.Run();
  // Every third bound pod finishes (freeing devices on some nodes only), then
  // more pods of the workload arrive: verdicts cached before must not leak
  // into the changed nodes, nor be lost for the unchanged ones.
  std::vector<std::string> finished;
  for (std::size_t i = 0; i < s.pods().size(); i += 3) {
    if (s.pods()[i].state == PodState::kBound) finished.push_back(s.pods()[i].pod.metadata.name);
  }
  for (const std::string& name : finished) EXPECT_TRUE(s.FinishPod("default", name).ok());
  for (int i = 0; i < 2 * kNodes; ++i) {
    Cluster more = ParseCluster(WorkloadPod(workload, "late-" + std::to_string(i), i));
    for (api::Pod& p : more.pods) EXPECT_TRUE(s.AddPod(std::move(p)).ok());
  }
  s.Run();
  if (memo) {
    EXPECT_GT(s.stats().filter_memo_hits, 0u) << workload;
  } else {
    EXPECT_EQ(s.stats().filter_memo_hits, 0u) << workload;
  }
  return Outcome(s);
}

class FilterMemoWorkloadTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FilterMemoWorkloadTest, ChangesNoOutcome) {
  std::vector<std::string> with = Simulate(GetParam(), true);
  std::vector<std::string> without = Simulate(GetParam(), false);
  ASSERT_FALSE(with.empty());
  EXPECT_EQ(with, without);
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, FilterMemoWorkloadTest, ::testing::ValuesIn(WorkloadNames()),
                         WorkloadTestName);

api::ResourceClaim Claim(const std::string& name, const std::string& device_class) {
  api::ResourceClaim c;
  c.metadata.name = name;
  c.metadata.uid = "uid-" + name;
  api::DeviceRequest r;
  r.name = "gpu";
  r.exactly.emplace();
  r.exactly->device_class_name = device_class;
  c.spec.devices.requests.push_back(r);
  return c;
}

TEST(FilterMemoTest, SignatureIgnoresMetadataButNotSpecOrOrder) {
  FilterMemo memo(1);
  std::vector<api::ResourceClaim> a{Claim("a", "gpu")};
  std::vector<api::ResourceClaim> b{Claim("b", "gpu")};
  std::vector<api::ResourceClaim> other{Claim("a", "nic")};
  std::vector<api::ResourceClaim> ab{Claim("a", "gpu"), Claim("b", "nic")};
  std::vector<api::ResourceClaim> ba{Claim("b", "nic"), Claim("a", "gpu")};
  EXPECT_EQ(memo.Signature(a), memo.Signature(b));
  EXPECT_NE(memo.Signature(a), memo.Signature(other));
  EXPECT_NE(memo.Signature(ab), memo.Signature(ba));
}

TEST(FilterMemoTest, VerdictAnswersOnlyItsNodeSignatureAndVersion) {
  FilterMemo memo(2);
  std::vector<api::ResourceClaim> a{Claim("a", "gpu")};
  std::vector<api::ResourceClaim> other{Claim("a", "nic")};
  const std::uint64_t sa = memo.Signature(a);
  const std::uint64_t so = memo.Signature(other);
  memo.Store(0, sa, 5, {true, 3});
  const FilterMemo::Verdict* v = memo.Find(0, sa, 5);
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(v->feasible);
  EXPECT_EQ(v->score, 3);
  EXPECT_EQ(memo.Find(0, sa, 6), nullptr);
  EXPECT_EQ(memo.Find(1, sa, 5), nullptr);
  EXPECT_EQ(memo.Find(0, so, 5), nullptr);
  memo.Store(0, sa, 6, {false, 0});  // replaces the stale verdict
  EXPECT_EQ(memo.Find(0, sa, 5), nullptr);
  ASSERT_NE(memo.Find(0, sa, 6), nullptr);
  EXPECT_FALSE(memo.Find(0, sa, 6)->feasible);
}

TEST(FilterMemoTest, ForgottenSignaturesAreNeverReused) {
  FilterMemo memo(1);
  std::vector<api::ResourceClaim> first{Claim("a", "class-0")};
  const std::uint64_t s0 = memo.Signature(first);
  memo.Store(0, s0, 1, {true, 0});
  // Enough distinct specs to make the memo forget everything.
  std::vector<std::uint64_t> seen{s0};
  for (int i = 1; i <= 5000; ++i) {
    std::vector<api::ResourceClaim> c{Claim("a", "class-" + std::to_string(i))};
    seen.push_back(memo.Signature(c));
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
  EXPECT_EQ(memo.Find(0, s0, 1), nullptr);
  EXPECT_NE(memo.Signature(first), s0);  // a new id for the same spec
}

}  // namespace
}  // namespace dra::scheduler

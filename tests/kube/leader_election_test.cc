#include "dra/kube/leader_election.h"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace dra::kube {
namespace {

using namespace std::chrono_literals;

ApiError ServerError(int code, std::string reason) {
  ApiError e;
  e.code = code;
  e.reason = std::move(reason);
  e.message = e.reason;
  return e;
}

// An in-memory Lease with optimistic concurrency, shared by several locks.
struct FakeLeaseStore {
  std::mutex mu;
  std::optional<LeaderElectionRecord> record;
  int resource_version = 0;
  std::set<std::string> failing;  // identities whose requests fail
  std::vector<LeaderElectionRecord> writes;

  LeaderElectionRecord Current() {
    std::lock_guard l(mu);
    return record.value_or(LeaderElectionRecord{});
  }
  void SetFailing(const std::string& who, bool fail) {
    std::lock_guard l(mu);
    if (fail) {
      failing.insert(who);
    } else {
      failing.erase(who);
    }
  }
};

class FakeLeaseLock : public LeaseLock {
 public:
  FakeLeaseLock(FakeLeaseStore* store, std::string who) : store_(store), who_(std::move(who)) {}

  ApiResult<LeaderElectionRecord> Get() override {
    std::lock_guard l(store_->mu);
    if (store_->failing.count(who_) != 0) return ApiError::Transport("connection reset");
    if (!store_->record) return ServerError(404, "NotFound");
    seen_rv_ = store_->resource_version;
    return *store_->record;
  }
  ApiStatus Create(const LeaderElectionRecord& r) override {
    std::lock_guard l(store_->mu);
    if (store_->failing.count(who_) != 0) return ApiError::Transport("connection reset");
    if (store_->record) return ServerError(409, "AlreadyExists");
    Write(r);
    return Done{};
  }
  ApiStatus Update(const LeaderElectionRecord& r) override {
    std::lock_guard l(store_->mu);
    if (store_->failing.count(who_) != 0) return ApiError::Transport("connection reset");
    if (!seen_rv_) return ApiError::Protocol("lease not initialized, call get or create first");
    if (*seen_rv_ != store_->resource_version) return ServerError(409, "Conflict");
    Write(r);
    return Done{};
  }
  std::string Describe() const override { return "default/test-lock"; }

 private:
  void Write(LeaderElectionRecord r) {
    // The API keeps microseconds.
    auto trunc = [](std::chrono::system_clock::time_point t) {
      return std::chrono::time_point_cast<std::chrono::microseconds>(t);
    };
    r.acquire_time = trunc(r.acquire_time);
    r.renew_time = trunc(r.renew_time);
    store_->record = r;
    store_->writes.push_back(r);
    seen_rv_ = ++store_->resource_version;
  }
  FakeLeaseStore* store_;
  std::string who_;
  std::optional<int> seen_rv_;
};

struct Candidate {
  std::unique_ptr<LeaderElector> elector;
  std::atomic<int> started{0};
  std::atomic<int> stopped{0};
  std::atomic<bool> lost_seen{false};
  std::mutex mu;
  std::vector<std::string> leaders;

  Candidate(FakeLeaseStore* store, const std::string& id, bool release = false) {
    LeaderElectionConfig c;
    c.identity = id;
    // Short, with room between them for a loaded machine.
    c.lease_duration = 3000ms;
    c.renew_deadline = 2000ms;
    c.retry_period = 100ms;
    c.release_on_cancel = release;
    c.on_started_leading = [this](const std::atomic<bool>& lost) {
      ++started;
      while (!lost.load()) std::this_thread::sleep_for(5ms);
      lost_seen = true;
    };
    c.on_stopped_leading = [this] { ++stopped; };
    c.on_new_leader = [this](const std::string& who) {
      std::lock_guard l(mu);
      leaders.push_back(who);
    };
    Result<std::unique_ptr<LeaderElector>> e =
        LeaderElector::New(std::make_shared<FakeLeaseLock>(store, id), c);
    EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error());
    elector = std::move(e).value();
  }
};

template <class F>
bool WaitFor(F pred, std::chrono::milliseconds timeout = 10s) {
  auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(2ms);
  }
  return pred();
}

TEST(LeaderElectionTest, ValidatesTimings) {
  auto lock = std::make_shared<FakeLeaseLock>(nullptr, "x");
  LeaderElectionConfig c;
  c.identity = "x";
  EXPECT_TRUE(LeaderElector::New(lock, c).ok());  // 15 s / 10 s / 5 s
  c.renew_deadline = 15s;
  Result<std::unique_ptr<LeaderElector>> r = LeaderElector::New(lock, c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "leaseDuration must be greater than renewDeadline");
  c.renew_deadline = 6s;  // not above 1.2 x 5 s
  r = LeaderElector::New(lock, c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "renewDeadline must be greater than retryPeriod*JitterFactor");
  c = {};
  Result<std::unique_ptr<LeaderElector>> host = LeaderElector::New(lock, c);
  ASSERT_TRUE(host.ok());
  EXPECT_EQ((*host)->identity(), HostnameIdentity().value());
}

TEST(LeaderElectionTest, MicroTimeAndNames) {
  using std::chrono::system_clock;
  system_clock::time_point t = system_clock::from_time_t(1136214245) + 123456us;
  EXPECT_EQ(FormatMicroTime(t), "2006-01-02T15:04:05.123456Z");
  EXPECT_EQ(FormatMicroTime(system_clock::from_time_t(1136214245)), "2006-01-02T15:04:05.000000Z");
  EXPECT_EQ(ParseMicroTime("2006-01-02T15:04:05.123456Z").value(), t);
  EXPECT_EQ(ParseMicroTime("2006-01-02T08:04:05.123456-07:00").value(), t);
  EXPECT_EQ(ParseMicroTime("2006-01-02T15:04:05Z").value(), system_clock::from_time_t(1136214245));
  EXPECT_FALSE(ParseMicroTime("2006-01-02 15:04:05Z").ok());
  EXPECT_FALSE(ParseMicroTime("2006-01-02T15:04:05").ok());
  EXPECT_EQ(SanitizeLeaseName("gpu.example.com"), "gpu-example-com");
  EXPECT_EQ(SanitizeLeaseName("a_b."), "a-b-X");
}

TEST(LeaderElectionTest, OneOfTwoLeads) {
  FakeLeaseStore store;
  Candidate a(&store, "a");
  Candidate b(&store, "b");
  a.elector->Start();
  b.elector->Start();
  ASSERT_TRUE(WaitFor([&] { return a.started + b.started == 1; }));
  std::this_thread::sleep_for(1500ms);  // longer than the lease: renewals keep it
  EXPECT_EQ(a.started + b.started, 1);
  Candidate& leader = a.started == 1 ? a : b;
  Candidate& other = a.started == 1 ? b : a;
  EXPECT_TRUE(leader.elector->IsLeader());
  EXPECT_FALSE(other.elector->IsLeader());
  EXPECT_EQ(other.elector->GetLeader(), leader.elector->identity());
  {
    std::lock_guard l(other.mu);
    EXPECT_EQ(other.leaders, std::vector<std::string>{leader.elector->identity()});
  }
  LeaderElectionRecord r = store.Current();
  EXPECT_EQ(r.holder_identity, leader.elector->identity());
  EXPECT_EQ(r.lease_duration_seconds, 3);
  EXPECT_EQ(r.lease_transitions, 0);
  EXPECT_GT(r.renew_time, r.acquire_time);  // renewed, acquire time kept
  a.elector->Stop();
  b.elector->Stop();
  EXPECT_EQ(a.stopped, 1);  // called once Run() ends, led or not
  EXPECT_EQ(b.stopped, 1);
  EXPECT_TRUE(leader.lost_seen);
}

TEST(LeaderElectionTest, LeaderStopsWhenRenewalsFail) {
  FakeLeaseStore store;
  Candidate a(&store, "a");
  a.elector->Start();
  ASSERT_TRUE(WaitFor([&] { return a.started == 1; }));
  auto start = std::chrono::steady_clock::now();
  store.SetFailing("a", true);
  ASSERT_TRUE(WaitFor([&] { return a.stopped == 1; }));
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_GE(took, 1800ms);  // the renew deadline, less a retry period at most
  EXPECT_LT(took, 6000ms);  // and not forever
  EXPECT_TRUE(WaitFor([&] { return a.lost_seen.load(); }));
  EXPECT_FALSE(a.elector->IsLeader());
}

TEST(LeaderElectionTest, TakeoverAfterExpiry) {
  FakeLeaseStore store;
  Candidate a(&store, "a");
  a.elector->Start();
  ASSERT_TRUE(WaitFor([&] { return a.started == 1; }));
  Candidate b(&store, "b");
  b.elector->Start();
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(b.started, 0);
  auto start = std::chrono::steady_clock::now();
  a.elector->Stop();  // no release: b waits for the lease to expire
  ASSERT_TRUE(WaitFor([&] { return b.started == 1; }));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 1500ms);
  LeaderElectionRecord r = store.Current();
  EXPECT_EQ(r.holder_identity, "b");
  EXPECT_EQ(r.lease_transitions, 1);
  b.elector->Stop();
}

TEST(LeaderElectionTest, ReleaseOnCancel) {
  FakeLeaseStore store;
  Candidate a(&store, "a", /*release=*/true);
  a.elector->Start();
  ASSERT_TRUE(WaitFor([&] { return a.started == 1; }));
  a.elector->Stop();
  LeaderElectionRecord released = store.Current();
  EXPECT_EQ(released.holder_identity, "");
  EXPECT_EQ(released.lease_duration_seconds, 1);
  EXPECT_EQ(released.lease_transitions, 0);
  Candidate b(&store, "b");
  auto start = std::chrono::steady_clock::now();
  b.elector->Start();
  ASSERT_TRUE(WaitFor([&] { return b.started == 1; }));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1500ms);  // no wait for the 3 s expiry
  EXPECT_EQ(store.Current().lease_transitions, 1);
  b.elector->Stop();
}

}  // namespace
}  // namespace dra::kube

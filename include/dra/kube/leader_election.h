// Leader election on a coordination.k8s.io/v1 Lease, with client-go's
// algorithm (tools/leaderelection/leaderelection.go and
// resourcelock/leaselock.go at v0.37.2):
//  * Each attempt: a leader whose last observation is still valid first PUTs
//    its cached Lease with a new renewTime. Otherwise GET the Lease; when it
//    does not exist, CREATE it holding it. When the record differs from the
//    one last observed, remember it and the local time it was observed. The
//    lease is valid while that local time + leaseDurationSeconds is in the
//    future (the holder's clock is never compared with ours). Held by another
//    and valid: not acquired. Otherwise PUT our record (conditional on the
//    resourceVersion read), leaseTransitions + 1 when the holder changes.
//  * Candidates try every retry_period jittered to [retry, 2.2 x retry); the
//    leader renews every retry_period and stops leading when no renewal
//    succeeded within renew_deadline.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "dra/kube/api_error.h"
#include "dra/kube/resource_client.h"
#include "dra/util/result.h"

namespace dra::kube {

// The lease's spec as the election sees it (client-go's LeaderElectionRecord).
struct LeaderElectionRecord {
  std::string holder_identity;
  int lease_duration_seconds = 0;
  std::chrono::system_clock::time_point acquire_time{};
  std::chrono::system_clock::time_point renew_time{};
  int lease_transitions = 0;
  std::string strategy;          // coordinated election (alpha); kept, not acted on
  std::string preferred_holder;  // same
  bool operator==(const LeaderElectionRecord&) const = default;
};

// Where the record lives.
//
// Thread-safety: called by one elector, one call at a time.
class LeaseLock {
 public:
  virtual ~LeaseLock() = default;
  // The record; a NotFound error when the Lease does not exist.
  virtual ApiResult<LeaderElectionRecord> Get() = 0;
  virtual ApiStatus Create(const LeaderElectionRecord& record) = 0;
  // Replaces the record in the Lease last read or written, conditional on its
  // resourceVersion (409 Conflict when someone wrote it since). Without an
  // earlier successful Get or Create, an error.
  virtual ApiStatus Update(const LeaderElectionRecord& record) = 0;
  // "namespace/name", for messages.
  virtual std::string Describe() const = 0;
};

// A LeaseLock on the Lease `ns`/`name` through the API. Writes replace the
// whole spec (fields the record does not model are dropped, as client-go
// does) and add `labels` to the Lease.
std::unique_ptr<LeaseLock> NewLeaseLock(ObjectClient objects, std::string ns, std::string name,
                                        std::map<std::string, std::string> labels = {});

// metav1.MicroTime's text: UTC, RFC 3339 with 6 fractional digits
// ("2006-01-02T15:04:05.000000Z").
std::string FormatMicroTime(std::chrono::system_clock::time_point t);
// RFC 3339 with any number (0-9) of fractional digits and a Z or +hh:mm offset.
Result<std::chrono::system_clock::time_point> ParseMicroTime(std::string_view text);

// The DRA library's lease-name and identity sanitising
// (k8s.io/dynamic-resource-allocation leaderelection at v0.37.2): every byte
// outside [a-zA-Z0-9-] becomes '-', and a trailing '-' gets an 'X' appended.
std::string SanitizeLeaseName(std::string_view name);

// The host name (the DRA library's default identity).
Result<std::string> HostnameIdentity();

struct LeaderElectionConfig {
  // Empty: HostnameIdentity().
  std::string identity;
  // Defaults of the DRA library's wrapper (kube components use 15 s/10 s/2 s).
  // The Lease records whole seconds of lease_duration.
  std::chrono::milliseconds lease_duration{15'000};
  std::chrono::milliseconds renew_deadline{10'000};
  std::chrono::milliseconds retry_period{5'000};
  // On Stop() while leading, write the Lease with holderIdentity "" and
  // leaseDurationSeconds 1 so another candidate takes over at once.
  bool release_on_cancel = false;

  // Called on a thread of its own once leadership is acquired. `lost`
  // becomes true when leadership ends (lost or Stop()); the callback must
  // return soon after, since Run() waits for it before returning.
  std::function<void(const std::atomic<bool>& lost)> on_started_leading;
  // Called once when Run() ends, whether or not it led (as client-go does);
  // on the thread of Run().
  std::function<void()> on_stopped_leading;
  // Called when the observed holder changes (also to "" after a release), on
  // the thread of Run(); must not block.
  std::function<void(const std::string& identity)> on_new_leader;
  // Failed requests, for logging; on the thread of Run().
  std::function<void(const ApiError& error)> on_error;
};

// Thread-safety: Run() on one thread; Start(), Stop(), IsLeader(), GetLeader()
// and identity() from any. identity()'s reference lives as long as the elector.
class LeaderElector {
 public:
  // Checks the timings with client-go's messages: "leaseDuration must be
  // greater than renewDeadline", "renewDeadline must be greater than
  // retryPeriod*JitterFactor", and each "must be greater than zero".
  static Result<std::unique_ptr<LeaderElector>> New(std::shared_ptr<LeaseLock> lock,
                                                    LeaderElectionConfig config);
  ~LeaderElector();
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;

  // Campaigns until leading, leads until leadership is lost or Stop(), then
  // calls on_stopped_leading and returns. Call at most once (per Start()).
  void Run();
  // Run() on a thread the elector owns.
  void Start();
  // Ends Run() promptly (a request in flight is waited for) and joins the
  // thread Start() made. Idempotent; also done by the destructor.
  void Stop();

  // Whether leading now: the last observed record names us as holder and
  // Run() has not ended.
  bool IsLeader() const;
  // The holder in the last observed record.
  std::string GetLeader() const;
  const std::string& identity() const;

  static constexpr double kJitterFactor = 1.2;

 private:
  struct State;
  explicit LeaderElector(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace dra::kube

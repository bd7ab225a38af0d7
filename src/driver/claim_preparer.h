// The transport-free core of NodePrepareResources / NodeUnprepareResources
// (k8s.io/kubelet pkg/apis/dra/v1/api.proto): claim lookup and checks, the driver calls, the
// claim's CDI spec and the checkpoint, with idempotency, per-claim errors,
// serialization and crash recovery. The gRPC services are thin wrappers.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dra/driver/cdi.h"
#include "dra/driver/claim_source.h"
#include "dra/driver/driver.h"
#include "dra/metrics/registry.h"
#include "dra/util/mutex.h"
#include "driver/checkpoint.h"

namespace dra::driver {

struct ClaimRef {
  std::string namespace_;
  std::string uid;
  std::string name;
};

struct ClaimPreparerConfig {
  std::string driver_name;
  // This node: a claim whose allocation names another node is refused.
  std::string node_name;
  std::string cdi_root;
  std::string cdi_kind;
  std::string checkpoint_path;
  // Empty = serialize in-process only; otherwise also through this flock file.
  std::string serialize_lock_path;
  bool serialize = true;
  // When set, prepares write the driver's PreparedClaim::device_status.
  DeviceStatusWriter* status_writer = nullptr;
  // When set: dra_driver_operations_total{operation,result} and
  // dra_driver_operation_duration_seconds{operation}, per claim.
  metrics::Registry* metrics = nullptr;
};

// This driver's allocation results of `claim`, with base request names and
// the opaque configs that apply to each (class configs before claim configs).
std::vector<AllocatedDevice> DriverResults(const api::ResourceClaim& claim,
                                           const std::string& driver_name);

// Thread-safety: Prepare, Unprepare and PreparedCounts may be called from
// any thread at once (calls for the same claim run one at a time; with
// config.serialize the driver's calls do too); Reconcile runs before any of
// them. config() lives as long as the preparer; the Driver and ClaimSource
// must outlive it.
class ClaimPreparer {
 public:
  ClaimPreparer(Driver& driver, ClaimSource& claims, ClaimPreparerConfig config);

  // Start-up recovery: rolls back claims left in PrepareStarted, rewrites
  // missing CDI specs of completed claims, removes this driver's CDI specs
  // and temporary files that no checkpoint entry owns. A checkpoint that
  // cannot be decoded is set aside (renamed, never deleted) and start-up goes
  // on with no records, keeping every CDI spec on disk: the kubelet prepares
  // its claims again and unprepare removes a claim's spec by its name. Fails
  // only when the checkpoint cannot be read or moved at all.
  Status Reconcile();

  // The claim's prepared devices, or the per-claim error the kubelet is told.
  Result<std::vector<PreparedDeviceRecord>> Prepare(const ClaimRef& claim);
  // Fails with the per-claim error the kubelet is told.
  Status Unprepare(const ClaimRef& claim);

  const ClaimPreparerConfig& config() const { return config_; }

  // Completed claims and their prepared devices in the checkpoint now.
  struct Counts {
    std::size_t claims = 0;
    std::size_t devices = 0;
  };
  Result<Counts> PreparedCounts() const;

 private:
  // Holds the serialization locks for one call.
  class CallLock;
  std::shared_ptr<Mutex> ClaimMutex(const std::string& uid) DRA_EXCLUDES(claim_mus_mu_);
  // REQUIRES: the claim's own mutex held. Takes the CallLock around the
  // driver's calls only.
  Result<std::vector<PreparedDeviceRecord>> PrepareLocked(const ClaimRef& claim);
  // The checkpoint's word on the claim: the answer of a completed prepare
  // (its CDI spec restored if gone), or nothing once an interrupted one is
  // rolled back or when there is no record.
  Result<std::optional<std::vector<PreparedDeviceRecord>>> ResumeRecorded(const ClaimRef& ref);
  // The claim as fetched, checked (UID, allocated, this node, this driver's
  // devices) and turned into the driver's input, which points into `object`.
  Result<ClaimToPrepare> CheckFetched(const ClaimRef& ref, const api::ResourceClaim& object) const;
  // Records PrepareStarted, refusing an exclusive device another claim holds.
  Status RecordStart(const ClaimRef& ref, const ClaimToPrepare& input, const ClaimRecord& record);
  // After the driver's Prepare: the answer, the CDI spec, the device status
  // and PrepareCompleted. On failure the caller rolls the claim back.
  Status Complete(const ClaimRef& ref, const ClaimToPrepare& input, const PreparedClaim& prepared,
                  ClaimRecord& record);
  // The kubelet's answer for one prepared device; its CDI device goes into `spec`.
  Result<PreparedDeviceRecord> DeviceAnswer(const ClaimRef& ref, const ClaimToPrepare& input,
                                            const PreparedDevice& pd, cdi::Spec& spec) const;
  // Undoes a claim's preparation (driver, CDI spec, record).
  // With lock_driver the Driver::Unprepare call takes the CallLock;
  // without, the caller holds it.
  Status RollBack(const ClaimRecord& record, bool lock_driver);
  // Rolls back completed claims whose ResourceClaim is gone (ClaimSource::Exists).
  void CleanUpVanishedClaims(const ClaimRecords& records);
  void Observe(const char* operation, std::chrono::steady_clock::time_point start, bool ok);
  std::string SpecFilePrefix() const;

  Driver& driver_;
  ClaimSource& claims_;
  ClaimPreparerConfig config_;
  Checkpoint checkpoint_;
  Mutex serialize_mu_;  // held by a CallLock around the driver's calls; guards no data
  Mutex claim_mus_mu_;
  // One mutex per claim being prepared or unprepared. Not expressible for the
  // analysis (the mutex is found at run time), so PrepareLocked's REQUIRES
  // stays a comment.
  std::map<std::string, std::weak_ptr<Mutex>> claim_mus_ DRA_GUARDED_BY(claim_mus_mu_);
};

}  // namespace dra::driver

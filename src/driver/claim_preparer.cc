#include "driver/claim_preparer.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

#include "dra/driver/cdi.h"
#include "dra/util/mutex.h"
#include "dra/util/system_error.h"
#include "driver/file_lock.h"

namespace dra::driver {
namespace {

std::string BaseRequest(const std::string& request) { return request.substr(0, request.find('/')); }

// Claim CDI specs need not survive a power loss by themselves: the
// checkpoint (written durably) holds each one's exact content, and start-up
// rewrites missing or damaged ones before the kubelet asks again. Skipping
// their fsyncs keeps them off the prepare's critical path.
constexpr cdi::Durability kSpecDurability = cdi::Durability::kCache;
// A PrepareStarted record is what lets a restarted plugin undo a prepare its
// process did not finish; it is written to the page cache only, which
// outlives the process. What it protects against a machine crash is gone
// with the machine anyway: the claim's CDI spec (tmpfs) and the devices'
// runtime state, and the kubelet prepares again after the reboot. Completion
// and erasure are synced: a lost erasure would leave a device looking
// prepared for a claim that no longer uses it.
constexpr cdi::Durability kStartedDurability = cdi::Durability::kCache;

std::string ClaimLabel(const ClaimRef& c) { return "ResourceClaim " + c.namespace_ + "/" + c.name; }

bool FileHasContent(const std::string& path, const std::string& content) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str() == content;
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The one node an allocation is for, when its node selector names exactly
// one (metadata.name In [node], as kube-scheduler writes it for node-local
// devices); nullopt for network-attached allocations that several nodes
// may use.
std::optional<std::string> AllocatedNode(const api::AllocationResult& allocation) {
  if (!allocation.node_selector || allocation.node_selector->node_selector_terms.size() != 1) {
    return std::nullopt;
  }
  const api::NodeSelectorTerm& term = allocation.node_selector->node_selector_terms[0];
  if (!term.match_expressions.empty() || term.match_fields.size() != 1) return std::nullopt;
  const api::NodeSelectorRequirement& field = term.match_fields[0];
  if (field.key != "metadata.name" || field.operator_ != "In" || field.values.size() != 1) {
    return std::nullopt;
  }
  return field.values[0];
}

ClaimToUnprepare ToUnprepare(const ClaimRecord& r) {
  return ClaimToUnprepare{r.uid, r.namespace_, r.name, r.devices, r.driver_state};
}

}  // namespace

std::vector<AllocatedDevice> DriverResults(const api::ResourceClaim& claim,
                                           const std::string& driver_name) {
  std::vector<AllocatedDevice> out;
  if (!claim.status.allocation) return out;
  const auto& allocation = claim.status.allocation->devices;
  // Class configs come before claim configs: later ones take precedence.
  std::vector<const api::DeviceAllocationConfiguration*> configs;
  for (const auto* source : {"FromClass", "FromClaim"}) {
    for (const auto& c : allocation.config) {
      if (c.source == source && c.config.opaque && c.config.opaque->driver == driver_name) {
        configs.push_back(&c);
      }
    }
  }
  for (const auto& r : allocation.results) {
    if (r.driver != driver_name) continue;
    AllocatedDevice d;
    d.full_request = r.request;
    d.request = BaseRequest(r.request);
    d.pool = r.pool;
    d.device = r.device;
    d.share_id = r.share_id;
    d.admin_access = r.admin_access.value_or(false);
    d.consumed_capacity = r.consumed_capacity;
    for (const auto* c : configs) {
      bool applies =
          c->requests.empty() ||
          std::find(c->requests.begin(), c->requests.end(), r.request) != c->requests.end() ||
          std::find(c->requests.begin(), c->requests.end(), d.request) != c->requests.end();
      if (applies) d.opaque_configs.push_back(c->config.opaque->parameters.raw);
    }
    out.push_back(std::move(d));
  }
  return out;
}

class ClaimPreparer::CallLock {
 public:
  // Not analysed: serialize_mu_ is held only when config_.serialize is set.
  explicit CallLock(ClaimPreparer& p) DRA_NO_THREAD_SAFETY_ANALYSIS : p_(p) {
    if (!p_.config_.serialize) return;
    p_.serialize_mu_.Lock();
    locked_ = true;
    if (!p_.config_.serialize_lock_path.empty()) {
      Result<FileLock> file_lock = FileLock::Acquire(p_.config_.serialize_lock_path);
      if (file_lock.ok()) {
        file_lock_.emplace(std::move(*file_lock));
      } else {
        status_ = file_lock.failure();
      }
    }
  }
  // Not analysed: lets serialize_mu_ go only when the constructor took it.
  ~CallLock() DRA_NO_THREAD_SAFETY_ANALYSIS {
    file_lock_.reset();
    if (locked_) p_.serialize_mu_.Unlock();
  }
  CallLock(const CallLock&) = delete;
  CallLock& operator=(const CallLock&) = delete;
  // Failed when the lock file could not be opened or locked.
  const Status& status() const { return status_; }

 private:
  ClaimPreparer& p_;
  bool locked_ = false;
  std::optional<FileLock> file_lock_;  // released before serialize_mu_
  Status status_;
};

ClaimPreparer::ClaimPreparer(Driver& driver, ClaimSource& claims, ClaimPreparerConfig config)
    : driver_(driver),
      claims_(claims),
      config_(std::move(config)),
      checkpoint_(config_.checkpoint_path) {}

std::shared_ptr<Mutex> ClaimPreparer::ClaimMutex(const std::string& uid) {
  MutexLock lock(claim_mus_mu_);
  auto& weak = claim_mus_[uid];
  auto mu = weak.lock();
  if (!mu) {
    mu = std::make_shared<Mutex>();
    weak = mu;
  }
  // Drop entries nobody holds any more, so the map does not grow forever.
  for (auto it = claim_mus_.begin(); it != claim_mus_.end();) {
    it = it->second.expired() ? claim_mus_.erase(it) : std::next(it);
  }
  return mu;
}

std::string ClaimPreparer::SpecFilePrefix() const {
  std::string name = cdi::TransientSpecFileName(config_.cdi_kind, "");
  return name.substr(0, name.size() - std::string_view(".json").size());
}

Status ClaimPreparer::RollBack(const ClaimRecord& record, bool lock_driver) {
  // Only the driver's call is serialized; the spec removal and the record's
  // erasure (committed together with other claims') run outside the lock.
  Status unprepared = [&]() -> Status {
    if (!lock_driver) return driver_.Unprepare(ToUnprepare(record));
    CallLock lock(*this);
    if (!lock.status().ok()) return lock.status();
    return driver_.Unprepare(ToUnprepare(record));
  }();
  if (!unprepared.ok()) return unprepared.failure().WithPrefix("unprepare: ");
  if (!record.cdi_spec_file.empty()) {
    if (auto s = cdi::RemoveFile(config_.cdi_root, record.cdi_spec_file, kSpecDurability);
        !s.ok()) {
      return s;
    }
  }
  auto s = checkpoint_.Update([&](ClaimRecords& records) {
    records.erase(record.uid);
    return Status{};
  });
  if (!s.ok()) return s.failure().WithPrefix("checkpoint: ");
  return {};
}

Status ClaimPreparer::Reconcile() {
  CallLock lock(*this);
  if (!lock.status().ok()) return lock.status();
  auto aside = checkpoint_.SetAsideIfCorrupt();
  if (!aside.ok()) return aside.failure();
  // With the records gone, a spec file no record owns may still belong to a
  // running container: none is removed at this start.
  const bool records_lost = aside->has_value();
  if (records_lost) {
    std::cerr << "dra driver: " << (*aside)->problem << "; moved it to " << (*aside)->moved_to
              << " and starting with no prepared claims (the kubelet's next prepare of each claim "
                 "prepares it anew; CDI specs on disk stay until their claims are unprepared)\n";
  }
  auto records = checkpoint_.Snapshot();
  if (!records.ok()) return records.failure();
  std::set<std::string> owned;
  for (const auto& [uid, record] : **records) {
    if (record.state == ClaimState::kPrepareStarted) {
      // Interrupted before it completed: undo whatever part happened.
      if (Status s = RollBack(record, /*lock_driver=*/false); !s.ok()) {
        std::cerr << "dra driver: rolling back interrupted prepare of claim " << uid << ": "
                  << s.error() << "\n";
        if (!record.cdi_spec_file.empty()) owned.insert(record.cdi_spec_file);
      }
      continue;
    }
    if (record.cdi_spec_file.empty()) continue;
    owned.insert(record.cdi_spec_file);
    // A completed claim's CDI spec is restored before the kubelet asks again:
    // specs live in tmpfs (/var/run/cdi) and vanish on reboot while the
    // checkpoint survives, and a container created in between would fail.
    if (!FileHasContent(config_.cdi_root + "/" + record.cdi_spec_file, record.cdi_spec)) {
      if (auto s = cdi::WriteFileAtomic(config_.cdi_root, record.cdi_spec_file, record.cdi_spec,
                                        0600, kSpecDurability);
          !s.ok()) {
        return s.failure().WithPrefix("restore CDI spec of claim " + uid + ": ");
      }
    }
  }
  // This driver's files that no record owns: left by a crash between the
  // CDI write and the checkpoint update, or by a killed atomic write.
  std::string prefix = SpecFilePrefix();
  DIR* dir = opendir(config_.cdi_root.c_str());
  if (dir == nullptr) return ErrnoError("read CDI directory " + config_.cdi_root, errno);
  std::vector<std::string> stale;
  while (dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    bool spec = !records_lost && name.rfind(prefix, 0) == 0 && EndsWith(name, ".json") &&
                owned.count(name) == 0;
    bool temp = name.rfind("." + prefix, 0) == 0 && EndsWith(name, ".tmp");
    if (spec || temp) stale.push_back(name);
  }
  closedir(dir);
  for (const auto& name : stale) {
    if (auto s = cdi::RemoveFile(config_.cdi_root, name); !s.ok()) return s;
  }
  CleanUpVanishedClaims(**records);
  return {};
}

void ClaimPreparer::CleanUpVanishedClaims(const ClaimRecords& records) {
  for (const auto& [uid, record] : records) {
    if (record.state != ClaimState::kPrepareCompleted) continue;
    auto exists = claims_.Exists(record.namespace_, record.name, uid);
    if (!exists.ok()) {
      std::cerr << "dra driver: cannot tell whether prepared claim " << record.namespace_ << "/"
                << record.name << " still exists, keeping it: " << exists.error() << "\n";
      continue;
    }
    if (*exists) continue;
    std::cerr << "dra driver: ResourceClaim " << record.namespace_ << "/" << record.name << " (UID "
              << uid << ") is gone; unpreparing it\n";
    if (Status s = RollBack(record, /*lock_driver=*/false); !s.ok()) {
      std::cerr << "dra driver: unprepare of vanished claim " << uid << ": " << s.error() << "\n";
    }
  }
}

Result<ClaimPreparer::Counts> ClaimPreparer::PreparedCounts() const {
  auto records = checkpoint_.Snapshot();
  if (!records.ok()) return records.failure();
  Counts counts;
  for (const auto& [uid, record] : **records) {
    if (record.state != ClaimState::kPrepareCompleted) continue;
    ++counts.claims;
    counts.devices += record.response.size();
  }
  return counts;
}

void ClaimPreparer::Observe(const char* operation, std::chrono::steady_clock::time_point start,
                            bool ok) {
  if (config_.metrics == nullptr) return;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  config_.metrics
      ->Counter("dra_driver_operations_total",
                "Claims prepared or unprepared by the driver, by operation and result",
                {"operation", "result"})
      .Add({operation, ok ? "success" : "error"});
  config_.metrics
      ->Histogram("dra_driver_operation_duration_seconds",
                  "Time to prepare or unprepare one claim, in seconds", {"operation"})
      .Observe({operation}, seconds);
}

Result<std::vector<PreparedDeviceRecord>> ClaimPreparer::Prepare(const ClaimRef& claim) {
  auto start = std::chrono::steady_clock::now();
  auto claim_mu = ClaimMutex(claim.uid);
  MutexLock claim_lock(*claim_mu);
  Result<std::vector<PreparedDeviceRecord>> outcome = PrepareLocked(claim);
  Observe("prepare", start, outcome.ok());
  return outcome;
}

Result<std::vector<PreparedDeviceRecord>> ClaimPreparer::PrepareLocked(const ClaimRef& ref) {
  Result<std::optional<std::vector<PreparedDeviceRecord>>> done = ResumeRecorded(ref);
  if (!done.ok()) return done.failure();
  if (*done) return std::move(**done);

  // Everything up to the driver call runs without the serialization lock:
  // concurrent prepares fetch their claims and record their start in
  // parallel (the checkpoint commits them together); only the driver's own
  // Prepare and Unprepare calls are serialized.
  Result<api::ResourceClaim> object = claims_.Get(ref.namespace_, ref.name);
  if (!object.ok()) return object.failure();
  Result<ClaimToPrepare> input = CheckFetched(ref, *object);
  if (!input.ok()) return input.failure();

  ClaimRecord record;
  record.uid = ref.uid;
  record.namespace_ = ref.namespace_;
  record.name = ref.name;
  record.devices = input->devices;
  record.cdi_spec_file = cdi::TransientSpecFileName(config_.cdi_kind, ref.uid);
  if (Status s = RecordStart(ref, *input, record); !s.ok()) return s.failure();

  auto prepared = [&]() -> Result<PreparedClaim> {
    CallLock lock(*this);
    if (!lock.status().ok()) return lock.status().failure();
    return driver_.Prepare(*input);
  }();
  if (!prepared.ok()) {
    // The driver did nothing (its contract on failure): only the record goes.
    Error error = std::move(prepared).failure();
    auto s = checkpoint_.Update([&](ClaimRecords& r) {
      r.erase(ref.uid);
      return Status{};
    });
    if (!s.ok()) error.message += "; checkpoint: " + s.error();
    return error;
  }
  // From here on a failure must undo what happened so far.
  record.driver_state = prepared->driver_state;
  if (Status s = Complete(ref, *input, *prepared, record); !s.ok()) {
    Error error = std::move(s).failure();
    if (Status r = RollBack(record, /*lock_driver=*/true); !r.ok()) {
      error.message += "; rollback failed: " + r.error();
    }
    return error;
  }
  return record.response;
}

Result<std::optional<std::vector<PreparedDeviceRecord>>> ClaimPreparer::ResumeRecorded(
    const ClaimRef& ref) {
  auto records = checkpoint_.Snapshot();
  if (!records.ok()) return records.failure();
  auto it = (*records)->find(ref.uid);
  if (it == (*records)->end()) return std::optional<std::vector<PreparedDeviceRecord>>();
  const ClaimRecord& record = it->second;
  if (record.state == ClaimState::kPrepareCompleted) {
    // Already prepared: same answer, no side effects (the kubelet may ask again:
    // k8s.io/dynamic-resource-allocation kubeletplugin/draplugin.go). Restore
    // the CDI spec if someone removed it.
    if (!record.cdi_spec_file.empty() &&
        !FileHasContent(config_.cdi_root + "/" + record.cdi_spec_file, record.cdi_spec)) {
      if (auto s = cdi::WriteFileAtomic(config_.cdi_root, record.cdi_spec_file, record.cdi_spec,
                                        0600, kSpecDurability);
          !s.ok()) {
        return s.failure().WithPrefix("restore CDI spec: ");
      }
    }
    return std::optional<std::vector<PreparedDeviceRecord>>(record.response);
  }
  if (Status s = RollBack(record, /*lock_driver=*/true); !s.ok()) {
    return s.failure().WithPrefix("rolling back an interrupted prepare: ");
  }
  return std::optional<std::vector<PreparedDeviceRecord>>();
}

Result<ClaimToPrepare> ClaimPreparer::CheckFetched(const ClaimRef& ref,
                                                   const api::ResourceClaim& object) const {
  if (object.metadata.uid != ref.uid) {
    return Error{ClaimLabel(ref) + ": UID is " + object.metadata.uid + ", not " + ref.uid +
                 " (the claim was replaced)"};
  }
  if (!object.status.allocation) return Error{ClaimLabel(ref) + ": not allocated"};
  if (auto node = AllocatedNode(*object.status.allocation);
      node && !config_.node_name.empty() && *node != config_.node_name) {
    return Error{ClaimLabel(ref) + ": allocated to node " + *node + ", not to this node " +
                 config_.node_name};
  }
  ClaimToPrepare input;
  input.claim = &object;
  input.uid = ref.uid;
  input.namespace_ = ref.namespace_;
  input.name = ref.name;
  input.devices = DriverResults(object, config_.driver_name);
  if (input.devices.empty()) {
    return Error{ClaimLabel(ref) + ": no devices are allocated by driver " + config_.driver_name};
  }
  return input;
}

Status ClaimPreparer::RecordStart(const ClaimRef& ref, const ClaimToPrepare& input,
                                  const ClaimRecord& record) {
  std::optional<Error> conflict;
  Status s = checkpoint_.Update(
      [&](ClaimRecords& r) -> Status {
        // Last line of defence against double allocation: an exclusive
        // device may be prepared for one claim only. Checked in the same
        // update that records the start, so two claims racing for one
        // device cannot both pass.
        for (const auto& d : input.devices) {
          if (d.share_id || d.admin_access) continue;
          for (const auto& [uid, other] : r) {
            if (uid == ref.uid) continue;
            for (const auto& o : other.devices) {
              if (o.pool == d.pool && o.device == d.device && !o.share_id && !o.admin_access) {
                conflict = Error{"device " + d.pool + "/" + d.device +
                                     " is already prepared for ResourceClaim " + other.namespace_ +
                                     "/" + other.name + " (UID " + uid + ")",
                                 ErrorCode::kConflict};
                return *conflict;
              }
            }
          }
        }
        r[ref.uid] = record;
        return Status{};
      },
      kStartedDurability);
  if (s.ok()) return s;
  if (conflict) return *conflict;
  return std::move(s).failure().WithPrefix("checkpoint: ");
}

Status ClaimPreparer::Complete(const ClaimRef& ref, const ClaimToPrepare& input,
                               const PreparedClaim& prepared, ClaimRecord& record) {
  cdi::Spec spec;
  spec.kind = config_.cdi_kind;
  spec.edits = prepared.claim_edits;
  for (const PreparedDevice& pd : prepared.devices) {
    Result<PreparedDeviceRecord> out = DeviceAnswer(ref, input, pd, spec);
    if (!out.ok()) return out.failure();
    record.response.push_back(std::move(*out));
  }
  if (spec.devices.empty()) {
    if (!spec.edits.Empty()) {
      return Error{"claim-level CDI edits need at least one device with edits"};
    }
    record.cdi_spec_file.clear();
  } else {
    if (auto s = cdi::Validate(spec); !s.ok()) return s.failure().WithPrefix("CDI spec: ");
    record.cdi_spec = cdi::EncodeJson(spec);
    if (auto s = cdi::WriteFileAtomic(config_.cdi_root, record.cdi_spec_file, record.cdi_spec, 0600,
                                      kSpecDurability);
        !s.ok()) {
      return s.failure().WithPrefix("write CDI spec: ");
    }
  }
  if (config_.status_writer != nullptr && !prepared.device_status.empty()) {
    for (const auto& st : prepared.device_status) {
      bool allocated = std::any_of(input.devices.begin(), input.devices.end(), [&](const auto& a) {
        return a.pool == st.pool && a.device == st.device &&
               (!st.share_id || a.share_id == st.share_id);
      });
      if (!allocated) {
        return Error{"device status for " + st.pool + "/" + st.device +
                     ", which is not allocated to this claim"};
      }
    }
    if (auto s = config_.status_writer->Write(ref.namespace_, ref.name, prepared.device_status);
        !s.ok()) {
      return s;
    }
  }
  record.state = ClaimState::kPrepareCompleted;
  if (auto s = checkpoint_.Update([&](ClaimRecords& r) {
        r[ref.uid] = record;
        return Status{};
      });
      !s.ok()) {
    return s.failure().WithPrefix("checkpoint: ");
  }
  return {};
}

Result<PreparedDeviceRecord> ClaimPreparer::DeviceAnswer(const ClaimRef& ref,
                                                         const ClaimToPrepare& input,
                                                         const PreparedDevice& pd,
                                                         cdi::Spec& spec) const {
  std::string where = "prepared device " + pd.pool + "/" + pd.device;
  std::vector<const AllocatedDevice*> matches;
  for (const auto& a : input.devices) {
    if (a.pool == pd.pool && a.device == pd.device && (!pd.share_id || a.share_id == pd.share_id)) {
      matches.push_back(&a);
    }
  }
  if (matches.empty()) {
    return Error{"driver returned " + where + ", which is not allocated to this claim"};
  }
  PreparedDeviceRecord out;
  out.pool = pd.pool;
  out.device = pd.device;
  out.share_id = pd.share_id;
  if (!out.share_id && matches.size() == 1) out.share_id = matches[0]->share_id;
  for (const auto* m : matches) {
    if (std::find(out.request_names.begin(), out.request_names.end(), m->request) ==
        out.request_names.end()) {
      out.request_names.push_back(m->request);
    }
  }
  if (!pd.edits.Empty()) {
    std::string name = ref.uid + "-" + pd.device;
    if (out.share_id) name += "-" + *out.share_id;
    spec.devices.push_back(cdi::Device{name, pd.edits});
    out.cdi_device_ids.push_back(cdi::QualifiedName(config_.cdi_kind, name));
  }
  for (const auto& id : pd.extra_cdi_device_ids) {
    if (auto s = cdi::ValidateQualifiedName(id); !s.ok())
      return s.failure().WithPrefix(where + ": ");
    out.cdi_device_ids.push_back(id);
  }
  return out;
}

Status ClaimPreparer::Unprepare(const ClaimRef& claim) {
  auto start = std::chrono::steady_clock::now();
  auto claim_mu = ClaimMutex(claim.uid);
  MutexLock claim_lock(*claim_mu);
  Status status;
  auto records = checkpoint_.Snapshot();
  if (!records.ok()) {
    status = records.failure();
  } else if (auto it = (*records)->find(claim.uid); it != (*records)->end()) {
    status = RollBack(it->second, /*lock_driver=*/true);
  } else {
    // Not prepared as far as the records know: success. A spec under this
    // claim's name can only be left from records set aside as corrupt.
    std::string name = cdi::TransientSpecFileName(config_.cdi_kind, claim.uid);
    status = cdi::RemoveFile(config_.cdi_root, name, kSpecDurability);
  }
  Observe("unprepare", start, status.ok());
  return status;
}

}  // namespace dra::driver

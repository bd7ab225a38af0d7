// The SDK's crash-safe record of claims it prepared, in the plugin data
// directory. Everything needed to answer a repeated prepare and to undo a
// preparation lives here, so a restarted plugin (or the other instance of a
// rolling update) can take over. Each claim moves through
// PrepareStarted -> PrepareCompleted -> (erased); a claim found in
// PrepareStarted after a crash is rolled back.
//
// File: {"data":"<compact JSON>","checksum":<CRC-32 of data>}, replaced
// atomically (temp + fsync + rename + fsync of the directory). A checksum
// mismatch is reported as corruption, never silently dropped.
//
// Thread-safety: every method of Checkpoint may be called from any thread at
// any time; path() lives as long as the Checkpoint. Load returns a copy;
// Snapshot's records are immutable and live as long as the caller holds them.
#pragma once

#include <sys/types.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dra/driver/cdi.h"
#include "dra/driver/driver.h"
#include "dra/util/mutex.h"
#include "dra/util/result.h"

namespace dra::driver {

enum class ClaimState { kPrepareStarted, kPrepareCompleted };

// One device entry of a NodePrepareResources answer.
struct PreparedDeviceRecord {
  std::vector<std::string> request_names;
  std::string pool;
  std::string device;
  std::vector<std::string> cdi_device_ids;
  std::optional<std::string> share_id;
  bool operator==(const PreparedDeviceRecord&) const = default;
};

struct ClaimRecord {
  std::string uid;
  std::string namespace_;
  std::string name;
  ClaimState state = ClaimState::kPrepareStarted;
  std::vector<AllocatedDevice> devices;  // this driver's allocation results
  std::string driver_state;
  std::string cdi_spec_file;  // empty = the claim has no CDI spec
  std::string cdi_spec;       // the exact file content
  std::vector<PreparedDeviceRecord> response;
};

using ClaimRecords = std::map<std::string, ClaimRecord>;  // by claim UID

std::uint32_t Crc32(std::string_view data);

class Checkpoint {
 public:
  explicit Checkpoint(std::string path);

  const std::string& path() const { return path_; }
  // The current records (empty when no file exists yet). The last records
  // read or written are kept in memory with the file's identity (device,
  // inode, size, modification and change times) and returned while it is
  // unchanged, so repeated loads do not parse the file; a write by another
  // instance changes the identity.
  Result<ClaimRecords> Load() const;
  // The same records without a copy: immutable and shared, valid for as long
  // as the caller holds the pointer (an update installs new records and never
  // modifies these). Safe to call from any thread.
  Result<std::shared_ptr<const ClaimRecords>> Snapshot() const;
  // Read-modify-write under an exclusive flock on "<path>.lock", so plugin
  // instances sharing the directory never lose an update. A `change` that
  // returns an error must leave the records as it found them; it is then
  // not written. Concurrent calls are committed
  // together (group commit): one thread applies every change queued so far,
  // in arrival order, to one read of the file and writes it once, so a burst
  // of prepares costs a few fsyncs rather than two each. Returns when this
  // call's change is in the file (or failed): on disk with kDisk; with
  // kCache in the page cache only, which outlives a crash of the process
  // but not of the machine. A batch is synced when any change in it asks
  // for kDisk.
  Status Update(const std::function<Status(ClaimRecords&)>& change,
                cdi::Durability durability = cdi::Durability::kDisk) DRA_EXCLUDES(queue_mu_);

  // Start-up recovery from a file that cannot be decoded (bad checksum, not
  // JSON, unknown format): under the same flock as Update, renames it to
  // "<path>.corrupt-<UTC time>" so nothing is deleted and the driver can
  // start with no records. Returns what was moved where, nullopt when the
  // file is absent or sound, an error when it cannot be read or renamed.
  struct SetAside {
    std::string problem;   // the decode error, naming the file
    std::string moved_to;  // the new path
  };
  Result<std::optional<SetAside>> SetAsideIfCorrupt();

  // Serialization for tests.
  static std::string Encode(const ClaimRecords& records);
  static Result<ClaimRecords> Decode(std::string_view text, const std::string& where);

 private:
  struct Pending {
    const std::function<Status(ClaimRecords&)>* change = nullptr;
    cdi::Durability durability = cdi::Durability::kDisk;
    Status status;
    bool done = false;  // guarded by queue_mu_
  };
  // Applies `batch` to the file under its flock and writes it once.
  void Commit(const std::vector<Pending*>& batch) DRA_EXCLUDES(queue_mu_);

  struct FileId {
    dev_t dev;
    ino_t ino;
    off_t size;
    long long mtime_ns;
    long long ctime_ns;
    bool operator==(const FileId&) const = default;
  };
  struct Cached {
    FileId id;
    std::shared_ptr<const ClaimRecords> records;
  };
  // The file's identity; nullopt with `error` set when stat fails.
  std::optional<FileId> Identify(int& error) const;

  std::string path_;
  Mutex queue_mu_;
  CondVar queue_cv_;
  std::vector<Pending*> queue_ DRA_GUARDED_BY(queue_mu_);
  bool committing_ DRA_GUARDED_BY(queue_mu_) = false;
  mutable Mutex cache_mu_;
  mutable std::optional<Cached> cache_ DRA_GUARDED_BY(cache_mu_);
};

}  // namespace dra::driver

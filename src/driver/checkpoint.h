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
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "dra/driver/driver.h"
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
  // The current records (empty when no file exists yet).
  Result<ClaimRecords> Load() const;
  // Read-modify-write under an in-process mutex and an exclusive flock on
  // "<path>.lock", so plugin instances sharing the directory never lose an
  // update. `change` returning an error leaves the file unchanged.
  Status Update(const std::function<Status(ClaimRecords&)>& change);

  // Serialization for tests.
  static std::string Encode(const ClaimRecords& records);
  static Result<ClaimRecords> Decode(std::string_view text, const std::string& where);

 private:
  std::string path_;
  mutable std::mutex mu_;
};

}  // namespace dra::driver

#include "driver/checkpoint.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>

#include "dra/driver/cdi.h"
#include "dra/json/build.h"
#include "dra/json/value.h"
#include "dra/util/system_error.h"
#include "driver/file_lock.h"

namespace dra::driver {
namespace {

using json::Put;
using json::Str;
using json::StringArray;

using json::Value;

constexpr std::string_view kFormat = "dra.driver.checkpoint/v1";

Value EncodeAllocated(const AllocatedDevice& d) {
  Value o = Value::Object();
  Put(o, "request", Str(d.request));
  Put(o, "fullRequest", Str(d.full_request));
  Put(o, "pool", Str(d.pool));
  Put(o, "device", Str(d.device));
  if (d.share_id) Put(o, "shareID", Str(*d.share_id));
  Put(o, "adminAccess", Value::Bool(d.admin_access));
  Value cap = Value::Object();
  for (const auto& [k, q] : d.consumed_capacity) Put(cap, k, Str(q.String()));
  Put(o, "consumedCapacity", std::move(cap));
  Put(o, "opaqueConfigs", StringArray(d.opaque_configs));
  return o;
}

Value EncodeRecord(const ClaimRecord& r) {
  Value o = Value::Object();
  Put(o, "uid", Str(r.uid));
  Put(o, "namespace", Str(r.namespace_));
  Put(o, "name", Str(r.name));
  Put(o, "state",
      Str(r.state == ClaimState::kPrepareCompleted ? "PrepareCompleted" : "PrepareStarted"));
  Value devices = Value::Array();
  for (const auto& d : r.devices) devices.items.push_back(EncodeAllocated(d));
  Put(o, "devices", std::move(devices));
  Put(o, "driverState", Str(r.driver_state));
  Put(o, "cdiSpecFile", Str(r.cdi_spec_file));
  Put(o, "cdiSpec", Str(r.cdi_spec));
  Value response = Value::Array();
  for (const auto& d : r.response) {
    Value e = Value::Object();
    Put(e, "requestNames", StringArray(d.request_names));
    Put(e, "pool", Str(d.pool));
    Put(e, "device", Str(d.device));
    Put(e, "cdiDeviceIDs", StringArray(d.cdi_device_ids));
    if (d.share_id) Put(e, "shareID", Str(*d.share_id));
    response.items.push_back(std::move(e));
  }
  Put(o, "response", std::move(response));
  return o;
}

// Field access that records the first problem.
struct Reader {
  std::string where;
  std::string error;

  const Value* Field(const Value& o, std::string_view key, json::Kind kind, bool required = true) {
    const Value* v = o.is_object() ? o.Find(key) : nullptr;
    if (v == nullptr) {
      if (required && error.empty()) error = where + ": missing field " + std::string(key);
      return nullptr;
    }
    if (v->kind != kind) {
      if (error.empty()) error = where + ": field " + std::string(key) + " has the wrong type";
      return nullptr;
    }
    return v;
  }
  std::string String(const Value& o, std::string_view key) {
    const Value* v = Field(o, key, json::Kind::kString);
    return v ? v->text : std::string();
  }
  std::vector<std::string> Strings(const Value& o, std::string_view key) {
    std::vector<std::string> out;
    if (const Value* v = Field(o, key, json::Kind::kArray)) {
      for (const auto& item : v->items) {
        if (item.is_string()) {
          out.push_back(item.text);
        } else if (error.empty()) {
          error = where + ": " + std::string(key) + " holds a non-string";
        }
      }
    }
    return out;
  }
};

// The whole file; nullopt when it does not exist. Errors (a directory in its
// place, EIO) name the path.
Result<std::optional<std::string>> ReadWhole(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<std::string>();
    return ErrnoError("read " + path, errno);
  }
  std::string text;
  std::array<char, 65536> chunk{};
  while (true) {
    ssize_t n = read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      close(fd);
      return ErrnoError("read " + path, err);
    }
    if (n == 0) break;
    text.append(chunk.data(), static_cast<std::size_t>(n));
  }
  close(fd);
  return std::optional<std::string>(std::move(text));
}

}  // namespace

std::uint32_t Crc32(std::string_view data) {
  static const std::array<std::uint32_t, 256> kTable = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char ch : data) crc = kTable[(crc ^ ch) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

Checkpoint::Checkpoint(std::string path) : path_(std::move(path)) {}

std::string Checkpoint::Encode(const ClaimRecords& records) {
  Value data = Value::Object();
  Put(data, "format", Str(std::string(kFormat)));
  Value claims = Value::Array();
  for (const auto& [uid, r] : records) claims.items.push_back(EncodeRecord(r));
  Put(data, "claims", std::move(claims));
  std::string text = json::ToJson(data);
  Value outer = Value::Object();
  Put(outer, "data", Str(text));
  Put(outer, "checksum", Value::Number(std::to_string(Crc32(text))));
  return json::ToJson(outer) + "\n";
}

Result<ClaimRecords> Checkpoint::Decode(std::string_view text, const std::string& where) {
  auto outer = json::ParseJson(text);
  if (!outer.ok()) return outer.failure().WithPrefix(where + ": corrupt checkpoint: ");
  Reader r{where + ": corrupt checkpoint", {}};
  std::string data = r.String(*outer, "data");
  const Value* sum = r.Field(*outer, "checksum", json::Kind::kNumber);
  if (!r.error.empty()) return Error{r.error};
  if (sum->text != std::to_string(Crc32(data))) {
    return Error{where + ": corrupt checkpoint: checksum mismatch"};
  }
  auto inner = json::ParseJson(data);
  if (!inner.ok()) return inner.failure().WithPrefix(where + ": corrupt checkpoint: ");
  if (r.String(*inner, "format") != kFormat && r.error.empty()) {
    r.error = where + ": unsupported checkpoint format";
  }
  ClaimRecords records;
  const Value* claims = r.Field(*inner, "claims", json::Kind::kArray);
  if (claims != nullptr) {
    for (const auto& c : claims->items) {
      ClaimRecord rec;
      rec.uid = r.String(c, "uid");
      rec.namespace_ = r.String(c, "namespace");
      rec.name = r.String(c, "name");
      rec.state = r.String(c, "state") == "PrepareCompleted" ? ClaimState::kPrepareCompleted
                                                             : ClaimState::kPrepareStarted;
      if (const Value* devices = r.Field(c, "devices", json::Kind::kArray)) {
        for (const auto& d : devices->items) {
          AllocatedDevice a;
          a.request = r.String(d, "request");
          a.full_request = r.String(d, "fullRequest");
          a.pool = r.String(d, "pool");
          a.device = r.String(d, "device");
          if (const Value* s = r.Field(d, "shareID", json::Kind::kString, false)) {
            a.share_id = s->text;
          }
          if (const Value* b = r.Field(d, "adminAccess", json::Kind::kBool))
            a.admin_access = b->boolean;
          if (const Value* cap = r.Field(d, "consumedCapacity", json::Kind::kObject)) {
            for (const auto& m : cap->members) {
              auto q = api::Quantity::Parse(m.value.text);
              if (!q.ok()) {
                if (r.error.empty()) r.error = where + ": corrupt checkpoint: " + q.error();
              } else {
                a.consumed_capacity[m.key] = *q;
              }
            }
          }
          a.opaque_configs = r.Strings(d, "opaqueConfigs");
          rec.devices.push_back(std::move(a));
        }
      }
      rec.driver_state = r.String(c, "driverState");
      rec.cdi_spec_file = r.String(c, "cdiSpecFile");
      rec.cdi_spec = r.String(c, "cdiSpec");
      if (const Value* response = r.Field(c, "response", json::Kind::kArray)) {
        for (const auto& e : response->items) {
          PreparedDeviceRecord p;
          p.request_names = r.Strings(e, "requestNames");
          p.pool = r.String(e, "pool");
          p.device = r.String(e, "device");
          p.cdi_device_ids = r.Strings(e, "cdiDeviceIDs");
          if (const Value* s = r.Field(e, "shareID", json::Kind::kString, false))
            p.share_id = s->text;
          rec.response.push_back(std::move(p));
        }
      }
      if (!r.error.empty()) break;
      records[rec.uid] = std::move(rec);
    }
  }
  if (!r.error.empty()) return Error{r.error};
  return records;
}

std::optional<Checkpoint::FileId> Checkpoint::Identify(int& error) const {
  struct stat st {};
  if (stat(path_.c_str(), &st) != 0) {
    error = errno;
    return std::nullopt;
  }
  error = 0;
  return FileId{st.st_dev, st.st_ino, st.st_size,
                st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec,
                st.st_ctim.tv_sec * 1'000'000'000LL + st.st_ctim.tv_nsec};
}

Result<ClaimRecords> Checkpoint::Load() const {
  auto snapshot = Snapshot();
  if (!snapshot.ok()) return snapshot.failure();
  return ClaimRecords(**snapshot);
}

Result<std::shared_ptr<const ClaimRecords>> Checkpoint::Snapshot() const {
  int error = 0;
  std::optional<FileId> id = Identify(error);
  if (!id) {
    if (error == ENOENT) return std::make_shared<const ClaimRecords>();
    return ErrnoError("read " + path_, error);
  }
  {
    MutexLock lock(cache_mu_);
    if (cache_ && cache_->id == *id) return cache_->records;
  }
  auto text = ReadWhole(path_);
  if (!text.ok()) return text.failure();
  if (!*text) return std::make_shared<const ClaimRecords>();
  auto records = Decode(**text, path_);
  if (!records.ok()) return records.failure();
  auto shared = std::make_shared<const ClaimRecords>(std::move(*records));
  // Cached under the identity seen before reading: if the file was replaced
  // in between, the next call sees another identity and reads it.
  MutexLock lock(cache_mu_);
  cache_ = Cached{*id, shared};
  return shared;
}

Result<std::optional<Checkpoint::SetAside>> Checkpoint::SetAsideIfCorrupt() {
  Result<FileLock> file_lock = FileLock::Acquire(path_ + ".lock");
  if (!file_lock.ok()) return file_lock.failure();
  auto text = ReadWhole(path_);
  if (!text.ok()) return text.failure();
  if (!*text) return std::optional<SetAside>();
  auto decoded = Decode(**text, path_);
  if (decoded.ok()) return std::optional<SetAside>();

  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> stamp{};
  std::strftime(stamp.data(), stamp.size(), "%Y%m%dT%H%M%SZ", &utc);
  std::string target = path_ + ".corrupt-" + stamp.data();
  // Never replace an earlier one set aside in the same second.
  struct stat st {};
  for (int n = 1; ::stat(target.c_str(), &st) == 0; ++n) {
    target = path_ + ".corrupt-" + stamp.data() + "-" + std::to_string(n);
  }
  if (rename(path_.c_str(), target.c_str()) != 0) {
    return ErrnoError("move corrupt checkpoint " + path_ + " to " + target, errno);
  }
  auto slash = path_.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path_.substr(0, slash);
  if (int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
  {
    MutexLock lock(cache_mu_);
    cache_.reset();
  }
  return std::optional<SetAside>(SetAside{decoded.error(), target});
}

Status Checkpoint::Update(const std::function<Status(ClaimRecords&)>& change,
                          cdi::Durability durability) {
  Pending mine;
  mine.change = &change;
  mine.durability = durability;
  MutexLock lock(queue_mu_);
  queue_.push_back(&mine);
  while (!mine.done && committing_) queue_cv_.Wait(queue_mu_);
  if (mine.done) return mine.status;
  // No commit is running: this thread commits everything queued so far.
  committing_ = true;
  std::vector<Pending*> batch;
  batch.swap(queue_);
  lock.Unlock();
  Commit(batch);
  lock.Lock();
  committing_ = false;
  for (Pending* p : batch) p->done = true;
  queue_cv_.NotifyAll();
  return mine.status;
}

void Checkpoint::Commit(const std::vector<Pending*>& batch) {
  auto fail_all = [&](const Error& error) {
    for (Pending* p : batch) p->status = error;
  };
  Result<FileLock> file_lock = FileLock::Acquire(path_ + ".lock");  // until the end
  if (!file_lock.ok()) return fail_all(file_lock.failure());
  // One copy per batch: a change that fails must not touch the records
  // other threads hold through Snapshot.
  auto records = Load();
  if (!records.ok()) return fail_all(records.failure());
  bool changed = false;
  cdi::Durability durability = cdi::Durability::kCache;
  for (Pending* p : batch) {
    // Each change sees the records as the ones before it left them (a
    // change that fails leaves them as it found them: Update's contract).
    p->status = (*p->change)(*records);
    changed = changed || p->status.ok();
    if (p->status.ok() && p->durability == cdi::Durability::kDisk) {
      durability = cdi::Durability::kDisk;
    }
  }
  if (changed) {
    auto slash = path_.rfind('/');
    std::string dir = slash == std::string::npos ? "." : path_.substr(0, slash);
    std::string name = slash == std::string::npos ? path_ : path_.substr(slash + 1);
    Status written = cdi::WriteFileAtomic(dir, name, Encode(*records), 0600, durability);
    if (!written.ok()) {
      for (Pending* p : batch) {
        if (p->status.ok()) p->status = written;
      }
      MutexLock lock(cache_mu_);
      cache_.reset();
    } else {
      // Still under the flock: nobody else can have written since.
      int error = 0;
      std::optional<FileId> id = Identify(error);
      MutexLock lock(cache_mu_);
      if (id) {
        cache_ = Cached{*id, std::make_shared<const ClaimRecords>(std::move(*records))};
      } else {
        cache_.reset();
      }
    }
  }
}

}  // namespace dra::driver

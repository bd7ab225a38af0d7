// Container Device Interface (CDI) edits and spec files, as the SDK writes
// them for prepared claims (github.com/cncf-tags/container-device-interface). Keys and rules follow
// the CDI specs-go structs, which is what runtimes parse (strictly).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dra/util/result.h"

namespace dra::driver::cdi {

// A device node made visible in the container ("deviceNodes" entry).
struct DeviceNode {
  std::string path;       // path in the container; required
  std::string host_path;  // empty = same as path (needs cdiVersion 0.5.0 when set)
  std::string type;       // "", "b", "c", "u", "p"
  std::optional<std::int64_t> major;
  std::optional<std::int64_t> minor;
  std::optional<std::uint32_t> file_mode;
  std::string permissions;  // subset of "rwm"; empty = "rwm"
  std::optional<std::uint32_t> uid;
  std::optional<std::uint32_t> gid;
  bool operator==(const DeviceNode&) const = default;
};

// A mount ("mounts" entry). For bind mounts use options {"ro"|"rw", "bind"}.
struct Mount {
  std::string host_path;       // required
  std::string container_path;  // required
  std::vector<std::string> options;
  std::string type;  // needs cdiVersion 0.4.0 when set
  bool operator==(const Mount&) const = default;
};

// An OCI hook ("hooks" entry).
struct Hook {
  std::string
      hook_name;  // prestart, createRuntime, createContainer, startContainer, poststart, poststop
  std::string path;  // absolute; required
  std::vector<std::string> args;
  std::vector<std::string> env;
  std::optional<int> timeout;  // seconds, > 0 when set
  bool operator==(const Hook&) const = default;
};

// A host network interface moved into the container (needs cdiVersion 1.1.0).
struct NetDevice {
  std::string host_interface_name;
  std::string name;
  bool operator==(const NetDevice&) const = default;
};

// "containerEdits". Empty() edits are not allowed on a device.
struct ContainerEdits {
  std::vector<std::string> env;  // "NAME=value"
  std::vector<DeviceNode> device_nodes;
  std::vector<Mount> mounts;
  std::vector<Hook> hooks;
  std::vector<std::uint32_t> additional_gids;  // needs cdiVersion 0.7.0
  std::vector<NetDevice> net_devices;          // needs cdiVersion 1.1.0
  bool Empty() const {
    return env.empty() && device_nodes.empty() && mounts.empty() && hooks.empty() &&
           additional_gids.empty() && net_devices.empty();
  }
  bool operator==(const ContainerEdits&) const = default;
};

struct Device {
  std::string name;
  ContainerEdits edits;
  bool operator==(const Device&) const = default;
};

// One CDI spec document.
struct Spec {
  std::string kind;  // "vendor/class"
  std::vector<Device> devices;
  ContainerEdits edits;  // applied once when any device of the spec is injected
  bool operator==(const Spec&) const = default;
};

// The lowest cdiVersion whose features cover `spec` (the CDI spec's version history); at
// least 0.3.0.
std::string MinimumVersion(const Spec& spec);

// Validates kind, device names (unique, valid), non-empty device edits, env
// entries, device node types/permissions, hook names, mounts, net devices.
// The message names the offending field, e.g. `devices[1].name "-x": ...`.
Status Validate(const Spec& spec);

// The spec as JSON with cdiVersion = MinimumVersion(spec). REQUIRES: Validate ok.
std::string EncodeJson(const Spec& spec);
// Strict parse of a spec written by EncodeJson or any CDI writer (unknown
// fields are errors, as in the CDI parser).
Result<Spec> DecodeJson(std::string_view text);

// "vendor/class" checks, as ValidateVendorName and ValidateClassName of the CDI
// parser (tags.cncf.io/container-device-interface/pkg/parser): each part starts
// with a letter, ends with a letter or digit, inner characters letters, digits,
// '_', '-', '.'.
Status ValidateKind(std::string_view kind);
// Device name checks, as the CDI parser's ValidateDeviceName.
Status ValidateDeviceName(std::string_view name);
// "vendor/class=name", as the CDI parser's QualifiedName and ParseQualifiedName.
std::string QualifiedName(std::string_view kind, std::string_view device_name);
Status ValidateQualifiedName(std::string_view qualified);

// Transient spec file name "<vendor>-<class>_<id>.json" ('/' in id -> '_').
std::string TransientSpecFileName(std::string_view kind, std::string_view transient_id);

// How far a write must have reached before it returns.
enum class Durability : std::uint8_t {
  // fsync of the file and of the directory: survives a power loss.
  kDisk,
  // Atomic for readers (rename) but left to the page cache: for files that
  // can be rebuilt from a durable record after a crash (the SDK's claim CDI
  // specs, rebuilt from the checkpoint at start-up).
  kCache,
};

// Writes `contents` to dir/name atomically: a temporary file in the same
// directory whose name does not end in .json/.yaml, rename (with fsyncs of
// the file and directory for kDisk). Mode 0600 unless given. On failure
// nothing is left behind.
Status WriteFileAtomic(const std::string& dir, const std::string& name, std::string_view contents,
                       unsigned mode = 0600, Durability durability = Durability::kDisk);
// Unlinks dir/name (then fsyncs the directory for kDisk); a missing file is
// success.
Status RemoveFile(const std::string& dir, const std::string& name,
                  Durability durability = Durability::kDisk);

}  // namespace dra::driver::cdi

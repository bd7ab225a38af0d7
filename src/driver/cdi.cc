// CDI spec encoding, strict decoding, validation and atomic file writes.
#include "dra/driver/cdi.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <type_traits>

#include "dra/json/build.h"
#include "dra/json/value.h"
#include "dra/util/system_error.h"

namespace dra::driver::cdi {
namespace {

using json::Int;
using json::Put;
using json::Str;
using json::StringArray;

using json::Kind;
using json::Value;

bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlnum(char c) { return IsLetter(c) || IsDigit(c); }

std::string Quote(std::string_view s) {
  std::string out;
  json::AppendGoJsonString(out, s);
  return out;
}

// vendor and class segments of a kind (ValidateVendorName and ValidateClassName
// in tags.cncf.io/container-device-interface/pkg/parser).
Status ValidateKindPart(std::string_view part, std::string_view what, std::size_t max_len) {
  if (part.empty()) return Error{std::string(what) + " is empty"};
  if (part.size() > max_len) {
    return Error{std::string(what) + " " + Quote(part) + " is longer than " +
                 std::to_string(max_len) + " characters"};
  }
  if (!IsLetter(part.front())) {
    return Error{std::string(what) + " " + Quote(part) + " must start with a letter"};
  }
  if (!IsAlnum(part.back())) {
    return Error{std::string(what) + " " + Quote(part) + " must end with a letter or digit"};
  }
  for (char c : part) {
    if (!IsAlnum(c) && c != '_' && c != '-' && c != '.') {
      return Error{std::string(what) + " " + Quote(part) + " has invalid character " +
                   Quote(std::string(1, c))};
    }
  }
  return {};
}

Value EncodeEdits(const ContainerEdits& e) {
  Value o = Value::Object();
  if (!e.env.empty()) Put(o, "env", StringArray(e.env));
  if (!e.device_nodes.empty()) {
    Value a = Value::Array();
    for (const auto& d : e.device_nodes) {
      Value n = Value::Object();
      Put(n, "path", Str(d.path));
      if (!d.host_path.empty()) Put(n, "hostPath", Str(d.host_path));
      if (!d.type.empty()) Put(n, "type", Str(d.type));
      if (d.major) Put(n, "major", Int(*d.major));
      if (d.minor) Put(n, "minor", Int(*d.minor));
      if (d.file_mode) Put(n, "fileMode", Int(*d.file_mode));
      if (!d.permissions.empty()) Put(n, "permissions", Str(d.permissions));
      if (d.uid) Put(n, "uid", Int(*d.uid));
      if (d.gid) Put(n, "gid", Int(*d.gid));
      a.items.push_back(std::move(n));
    }
    Put(o, "deviceNodes", std::move(a));
  }
  if (!e.mounts.empty()) {
    Value a = Value::Array();
    for (const auto& m : e.mounts) {
      Value n = Value::Object();
      Put(n, "hostPath", Str(m.host_path));
      Put(n, "containerPath", Str(m.container_path));
      if (!m.options.empty()) Put(n, "options", StringArray(m.options));
      if (!m.type.empty()) Put(n, "type", Str(m.type));
      a.items.push_back(std::move(n));
    }
    Put(o, "mounts", std::move(a));
  }
  if (!e.hooks.empty()) {
    Value a = Value::Array();
    for (const auto& h : e.hooks) {
      Value n = Value::Object();
      Put(n, "hookName", Str(h.hook_name));
      Put(n, "path", Str(h.path));
      if (!h.args.empty()) Put(n, "args", StringArray(h.args));
      if (!h.env.empty()) Put(n, "env", StringArray(h.env));
      if (h.timeout) Put(n, "timeout", Int(*h.timeout));
      a.items.push_back(std::move(n));
    }
    Put(o, "hooks", std::move(a));
  }
  if (!e.additional_gids.empty()) {
    Value a = Value::Array();
    for (auto g : e.additional_gids) a.items.push_back(Int(g));
    Put(o, "additionalGids", std::move(a));
  }
  if (!e.net_devices.empty()) {
    Value a = Value::Array();
    for (const auto& d : e.net_devices) {
      Value n = Value::Object();
      Put(n, "hostInterfaceName", Str(d.host_interface_name));
      Put(n, "name", Str(d.name));
      a.items.push_back(std::move(n));
    }
    Put(o, "netDevices", std::move(a));
  }
  return o;
}

// ---- strict decoding --------------------------------------------------------

struct Decoder {
  std::string error;

  bool Fail(const std::string& where, const std::string& what) {
    if (error.empty()) error = where + ": " + what;
    return false;
  }
  bool Expect(const Value& v, Kind k, const std::string& where) {
    if (v.kind == k) return true;
    static constexpr std::array<const char*, 6> kNames = {"null",   "bool",  "number",
                                                          "string", "array", "object"};
    return Fail(where, std::string("expected ") + kNames[static_cast<int>(k)] + ", got " +
                           kNames[static_cast<int>(v.kind)]);
  }
  bool GetString(const Value& v, const std::string& where, std::string& out) {
    if (!Expect(v, Kind::kString, where)) return false;
    out = v.text;
    return true;
  }
  template <class T>
  bool GetInt(const Value& v, const std::string& where, T& out) {
    if (!Expect(v, Kind::kNumber, where)) return false;
    errno = 0;
    char* end = nullptr;
    long long n = std::strtoll(v.text.c_str(), &end, 10);
    if (errno != 0 || end == nullptr || *end != '\0') return Fail(where, "not an integer");
    if constexpr (std::is_unsigned_v<T>) {
      if (n < 0 || static_cast<unsigned long long>(n) > std::numeric_limits<T>::max()) {
        return Fail(where, "out of range");
      }
    } else {
      if (n < std::numeric_limits<T>::min() || n > std::numeric_limits<T>::max()) {
        return Fail(where, "out of range");
      }
    }
    out = static_cast<T>(n);
    return true;
  }
  bool GetStrings(const Value& v, const std::string& where, std::vector<std::string>& out) {
    if (v.is_null()) return true;
    if (!Expect(v, Kind::kArray, where)) return false;
    for (std::size_t i = 0; i < v.items.size(); ++i) {
      std::string s;
      if (!GetString(v.items[i], where + "[" + std::to_string(i) + "]", s)) return false;
      out.push_back(std::move(s));
    }
    return true;
  }
  // Calls f(key, value) for each member; duplicate keys are errors.
  template <class F>
  bool Members(const Value& v, const std::string& where, F f) {
    if (!Expect(v, Kind::kObject, where)) return false;
    std::set<std::string> seen;
    for (const auto& m : v.members) {
      if (!seen.insert(m.key).second) return Fail(where, "duplicate field " + Quote(m.key));
      if (!f(m.key, m.value)) return false;
    }
    return true;
  }
  bool Unknown(const std::string& where, const std::string& key) {
    return Fail(where, "unknown field " + Quote(key));
  }

  bool DecodeEdits(const Value& v, const std::string& where, ContainerEdits& e) {
    if (v.is_null()) return true;
    return Members(v, where, [&](const std::string& k, const Value& x) {
      std::string at = where + "." + k;
      if (k == "env") return GetStrings(x, at, e.env);
      if (k == "deviceNodes")
        return Array(x, at, [&](const Value& item, const std::string& w) {
          DeviceNode d;
          bool ok = Members(item, w, [&](const std::string& nk, const Value& nv) {
            std::string nw = w + "." + nk;
            if (nk == "path") return GetString(nv, nw, d.path);
            if (nk == "hostPath") return GetString(nv, nw, d.host_path);
            if (nk == "type") return GetString(nv, nw, d.type);
            if (nk == "permissions") return GetString(nv, nw, d.permissions);
            if (nk == "major") return GetInt(nv, nw, d.major.emplace());
            if (nk == "minor") return GetInt(nv, nw, d.minor.emplace());
            if (nk == "fileMode") return GetInt(nv, nw, d.file_mode.emplace());
            if (nk == "uid") return GetInt(nv, nw, d.uid.emplace());
            if (nk == "gid") return GetInt(nv, nw, d.gid.emplace());
            return Unknown(w, nk);
          });
          e.device_nodes.push_back(std::move(d));
          return ok;
        });
      if (k == "mounts")
        return Array(x, at, [&](const Value& item, const std::string& w) {
          Mount m;
          bool ok = Members(item, w, [&](const std::string& nk, const Value& nv) {
            std::string nw = w + "." + nk;
            if (nk == "hostPath") return GetString(nv, nw, m.host_path);
            if (nk == "containerPath") return GetString(nv, nw, m.container_path);
            if (nk == "options") return GetStrings(nv, nw, m.options);
            if (nk == "type") return GetString(nv, nw, m.type);
            return Unknown(w, nk);
          });
          e.mounts.push_back(std::move(m));
          return ok;
        });
      if (k == "hooks")
        return Array(x, at, [&](const Value& item, const std::string& w) {
          Hook h;
          bool ok = Members(item, w, [&](const std::string& nk, const Value& nv) {
            std::string nw = w + "." + nk;
            if (nk == "hookName") return GetString(nv, nw, h.hook_name);
            if (nk == "path") return GetString(nv, nw, h.path);
            if (nk == "args") return GetStrings(nv, nw, h.args);
            if (nk == "env") return GetStrings(nv, nw, h.env);
            if (nk == "timeout") return GetInt(nv, nw, h.timeout.emplace());
            return Unknown(w, nk);
          });
          e.hooks.push_back(std::move(h));
          return ok;
        });
      if (k == "additionalGids")
        return Array(x, at, [&](const Value& item, const std::string& w) {
          std::uint32_t g = 0;
          if (!GetInt(item, w, g)) return false;
          e.additional_gids.push_back(g);
          return true;
        });
      if (k == "netDevices")
        return Array(x, at, [&](const Value& item, const std::string& w) {
          NetDevice d;
          bool ok = Members(item, w, [&](const std::string& nk, const Value& nv) {
            std::string nw = w + "." + nk;
            if (nk == "hostInterfaceName") return GetString(nv, nw, d.host_interface_name);
            if (nk == "name") return GetString(nv, nw, d.name);
            return Unknown(w, nk);
          });
          e.net_devices.push_back(std::move(d));
          return ok;
        });
      return Unknown(where, k);
    });
  }

  template <class F>
  bool Array(const Value& v, const std::string& where, F f) {
    if (v.is_null()) return true;
    if (!Expect(v, Kind::kArray, where)) return false;
    for (std::size_t i = 0; i < v.items.size(); ++i) {
      if (!f(v.items[i], where + "[" + std::to_string(i) + "]")) return false;
    }
    return true;
  }
};

int CompareVersions(const std::string& a, const std::string& b) {
  int ma = 0, na = 0, pa = 0, mb = 0, nb = 0, pb = 0;
  std::sscanf(a.c_str(), "%d.%d.%d", &ma, &na, &pa);
  std::sscanf(b.c_str(), "%d.%d.%d", &mb, &nb, &pb);
  if (ma != mb) return ma < mb ? -1 : 1;
  if (na != nb) return na < nb ? -1 : 1;
  if (pa != pb) return pa < pb ? -1 : 1;
  return 0;
}

void RequireEdits(const ContainerEdits& e, std::string& version) {
  auto at_least = [&](const char* v) {
    if (CompareVersions(version, v) < 0) version = v;
  };
  for (const auto& m : e.mounts) {
    if (!m.type.empty()) at_least("0.4.0");
  }
  for (const auto& d : e.device_nodes) {
    if (!d.host_path.empty()) at_least("0.5.0");
  }
  if (!e.additional_gids.empty()) at_least("0.7.0");
  if (!e.net_devices.empty()) at_least("1.1.0");
}

Status ValidateEdits(const ContainerEdits& e, const std::string& where) {
  for (std::size_t i = 0; i < e.env.size(); ++i) {
    auto eq = e.env[i].find('=');
    if (eq == std::string::npos || eq == 0) {
      return Error{where + ".env[" + std::to_string(i) + "] " + Quote(e.env[i]) +
                   ": must be NAME=value"};
    }
  }
  for (std::size_t i = 0; i < e.device_nodes.size(); ++i) {
    const auto& d = e.device_nodes[i];
    std::string w = where + ".deviceNodes[" + std::to_string(i) + "]";
    if (d.path.empty()) return Error{w + ".path: required"};
    if (!d.type.empty() && d.type != "b" && d.type != "c" && d.type != "u" && d.type != "p") {
      return Error{w + ".type " + Quote(d.type) + ": must be one of b, c, u, p"};
    }
    if (d.permissions != "none" && d.permissions.find_first_not_of("rwm") != std::string::npos) {
      return Error{w + ".permissions " + Quote(d.permissions) + ": must be a subset of rwm"};
    }
  }
  for (std::size_t i = 0; i < e.mounts.size(); ++i) {
    std::string w = where + ".mounts[" + std::to_string(i) + "]";
    if (e.mounts[i].host_path.empty()) return Error{w + ".hostPath: required"};
    if (e.mounts[i].container_path.empty()) return Error{w + ".containerPath: required"};
  }
  static const std::set<std::string> kHookNames = {
      "prestart", "createRuntime", "createContainer", "startContainer", "poststart", "poststop"};
  for (std::size_t i = 0; i < e.hooks.size(); ++i) {
    const auto& h = e.hooks[i];
    std::string w = where + ".hooks[" + std::to_string(i) + "]";
    if (kHookNames.count(h.hook_name) == 0) {
      return Error{w + ".hookName " + Quote(h.hook_name) + ": unknown hook"};
    }
    if (h.path.empty() || h.path.front() != '/') {
      return Error{w + ".path " + Quote(h.path) + ": must be an absolute path"};
    }
    if (h.timeout && *h.timeout <= 0) return Error{w + ".timeout: must be greater than 0"};
    for (const auto& env : h.env) {
      auto eq = env.find('=');
      if (eq == std::string::npos || eq == 0) {
        return Error{w + ".env " + Quote(env) + ": must be NAME=value"};
      }
    }
  }
  std::set<std::string> hosts, names;
  for (std::size_t i = 0; i < e.net_devices.size(); ++i) {
    const auto& d = e.net_devices[i];
    std::string w = where + ".netDevices[" + std::to_string(i) + "]";
    if (d.host_interface_name.empty()) return Error{w + ".hostInterfaceName: required"};
    if (d.name.empty()) return Error{w + ".name: required"};
    if (!hosts.insert(d.host_interface_name).second || !names.insert(d.name).second) {
      return Error{w + ": duplicate net device"};
    }
  }
  return {};
}

}  // namespace

std::string MinimumVersion(const Spec& spec) {
  std::string version = "0.3.0";
  auto at_least = [&](const char* v) {
    if (CompareVersions(version, v) < 0) version = v;
  };
  auto slash = spec.kind.find('/');
  if (slash != std::string::npos && spec.kind.find('.', slash) != std::string::npos) {
    at_least("0.6.0");
  }
  for (const auto& d : spec.devices) {
    if (!d.name.empty() && IsDigit(d.name.front())) at_least("0.5.0");
    RequireEdits(d.edits, version);
  }
  RequireEdits(spec.edits, version);
  return version;
}

Status ValidateKind(std::string_view kind) {
  auto slash = kind.find('/');
  if (slash == std::string_view::npos) {
    return Error{"kind " + Quote(kind) + ": must be vendor/class"};
  }
  if (auto s = ValidateKindPart(kind.substr(0, slash), "vendor", 253); !s.ok()) {
    return s.failure().WithPrefix("kind " + Quote(kind) + ": ");
  }
  if (auto s = ValidateKindPart(kind.substr(slash + 1), "class", 63); !s.ok()) {
    return s.failure().WithPrefix("kind " + Quote(kind) + ": ");
  }
  return {};
}

Status ValidateDeviceName(std::string_view name) {
  if (name.empty()) return Error{"device name is empty"};
  if (!IsAlnum(name.front()) || !IsAlnum(name.back())) {
    return Error{"device name " + Quote(name) + ": must start and end with a letter or digit"};
  }
  for (char c : name) {
    if (!IsAlnum(c) && c != '_' && c != '-' && c != '.' && c != ':') {
      return Error{"device name " + Quote(name) + ": invalid character " +
                   Quote(std::string(1, c))};
    }
  }
  return {};
}

std::string QualifiedName(std::string_view kind, std::string_view device_name) {
  return std::string(kind) + "=" + std::string(device_name);
}

Status ValidateQualifiedName(std::string_view qualified) {
  if (!qualified.empty() && qualified.front() == '/') {
    return Error{"CDI device " + Quote(qualified) + ": a path, not a qualified name"};
  }
  auto eq = qualified.find('=');
  if (eq == std::string_view::npos) {
    return Error{"CDI device " + Quote(qualified) + ": must be vendor/class=name"};
  }
  if (auto s = ValidateKind(qualified.substr(0, eq)); !s.ok()) return s;
  return ValidateDeviceName(qualified.substr(eq + 1));
}

Status Validate(const Spec& spec) {
  if (auto s = ValidateKind(spec.kind); !s.ok()) return s;
  if (spec.devices.empty()) return Error{"devices: at least one device is required"};
  std::set<std::string> names;
  for (std::size_t i = 0; i < spec.devices.size(); ++i) {
    const auto& d = spec.devices[i];
    std::string w = "devices[" + std::to_string(i) + "]";
    if (auto s = ValidateDeviceName(d.name); !s.ok()) return s.failure().WithPrefix(w + ".name: ");
    if (!names.insert(d.name).second) {
      return Error{w + ".name " + Quote(d.name) + ": duplicate device name"};
    }
    if (d.edits.Empty()) return Error{w + ".containerEdits: must not be empty"};
    if (auto s = ValidateEdits(d.edits, w + ".containerEdits"); !s.ok()) return s;
  }
  return ValidateEdits(spec.edits, "containerEdits");
}

std::string EncodeJson(const Spec& spec) {
  Value root = Value::Object();
  Put(root, "cdiVersion", Str(MinimumVersion(spec)));
  Put(root, "kind", Str(spec.kind));
  Value devices = Value::Array();
  for (const auto& d : spec.devices) {
    Value dev = Value::Object();
    Put(dev, "name", Str(d.name));
    Put(dev, "containerEdits", EncodeEdits(d.edits));
    devices.items.push_back(std::move(dev));
  }
  Put(root, "devices", std::move(devices));
  if (!spec.edits.Empty()) Put(root, "containerEdits", EncodeEdits(spec.edits));
  return json::ToIndentedJson(root, 2) + "\n";
}

Result<Spec> DecodeJson(std::string_view text) {
  auto parsed = json::ParseJson(text);
  if (!parsed.ok()) return parsed.failure().WithPrefix("CDI spec: ");
  Spec spec;
  std::string version;
  Decoder d;
  bool ok = d.Members(*parsed, "spec", [&](const std::string& k, const Value& v) {
    if (k == "cdiVersion") return d.GetString(v, "cdiVersion", version);
    if (k == "kind") return d.GetString(v, "kind", spec.kind);
    if (k == "containerEdits") return d.DecodeEdits(v, "containerEdits", spec.edits);
    if (k == "devices") {
      return d.Array(v, "devices", [&](const Value& item, const std::string& w) {
        Device dev;
        bool dok = d.Members(item, w, [&](const std::string& dk, const Value& dv) {
          if (dk == "name") return d.GetString(dv, w + ".name", dev.name);
          if (dk == "containerEdits") return d.DecodeEdits(dv, w + ".containerEdits", dev.edits);
          return d.Unknown(w, dk);
        });
        spec.devices.push_back(std::move(dev));
        return dok;
      });
    }
    return d.Unknown("spec", k);
  });
  if (!ok) return Error{"CDI spec: " + d.error};
  if (!version.empty() && version.front() == 'v') version.erase(0, 1);
  static const std::set<std::string> kKnown = {"0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0",
                                               "0.6.0", "0.7.0", "0.8.0", "1.0.0", "1.1.0"};
  if (kKnown.count(version) == 0) {
    return Error{"CDI spec: cdiVersion " + Quote(version) + ": unknown version"};
  }
  if (auto s = Validate(spec); !s.ok()) return s.failure().WithPrefix("CDI spec: ");
  std::string minimum = MinimumVersion(spec);
  if (CompareVersions(version, minimum) < 0) {
    return Error{"CDI spec: cdiVersion " + version + " is lower than " + minimum +
                 ", required by its content"};
  }
  return spec;
}

std::string TransientSpecFileName(std::string_view kind, std::string_view transient_id) {
  std::string name(kind);
  for (char& c : name) {
    if (c == '/') c = '-';
  }
  name += '_';
  for (char c : transient_id) name += c == '/' ? '_' : c;
  return name + ".json";
}

Status WriteFileAtomic(const std::string& dir, const std::string& name, std::string_view contents,
                       unsigned mode, Durability durability) {
  // ".<name>.<random>.tmp": never ends in .json/.yaml, so a CDI cache scan
  // cannot pick it up half-written.
  std::string tmpl = dir + "/." + name + ".XXXXXX.tmp";
  int fd = mkstemps(tmpl.data(), 4);
  if (fd < 0) return ErrnoError("create temporary file in " + dir, errno);
  auto fail = [&](const std::string& what) {
    int err = errno;
    if (fd >= 0) close(fd);
    unlink(tmpl.c_str());
    return ErrnoError(what + " " + tmpl, err);
  };
  if (fchmod(fd, mode) != 0) return fail("chmod");
  std::size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write");
    }
    done += static_cast<std::size_t>(n);
  }
  if (durability == Durability::kDisk && fsync(fd) != 0) return fail("fsync");
  if (close(fd) != 0) {
    fd = -1;
    return fail("close");
  }
  fd = -1;
  std::string final_path = dir + "/" + name;
  if (rename(tmpl.c_str(), final_path.c_str()) != 0) return fail("rename to " + final_path + ":");
  if (durability == Durability::kCache) return {};
  int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
  return {};
}

Status RemoveFile(const std::string& dir, const std::string& name, Durability durability) {
  std::string path = dir + "/" + name;
  if (unlink(path.c_str()) != 0 && errno != ENOENT && errno != ENOTDIR) {
    return ErrnoError("remove " + path, errno);
  }
  if (durability == Durability::kCache) return {};
  int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
  return {};
}

}  // namespace dra::driver::cdi

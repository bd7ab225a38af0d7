// Test harness for DRA drivers built on the SDK: temporary kubelet
// directories, ResourceClaim manifests, the kubelet client
// (dra/driver/kubelet_client.h) with health streams, an in-process plugin
// and a child-process runner. Header-only so every driver's tests can use it
// (tests/driver/example_*, nvml_* and the SDK's own sdk_* tests).
#pragma once

#include <fcntl.h>
#include <grpcpp/grpcpp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "dra/driver/cdi.h"
#include "dra/driver/plugin.h"
#include "dra/json/value.h"
#include "driver/kubelet_client.h"
#include "kubelet/dra-health/v1/api.grpc.pb.h"
#include "kubelet/dra-health/v1alpha1/api.grpc.pb.h"
#include "kubelet/dra/v1/api.grpc.pb.h"
#include "kubelet/dra/v1beta1/api.grpc.pb.h"
#include "kubelet/pluginregistration/v1/api.grpc.pb.h"

namespace dra::driver::testing {

namespace fs = std::filesystem;
namespace drav1 = ::k8s::io::kubelet::pkg::apis::dra::v1;
namespace drav1beta1 = ::k8s::io::kubelet::pkg::apis::dra::v1beta1;

// A fresh directory tree under /tmp (short, so socket paths stay < 108 bytes),
// removed when the object goes away.
class KubeletDirs {
 public:
  KubeletDirs() {
    std::string tmpl = "/tmp/dra-t-XXXXXX";
    root_ = mkdtemp(tmpl.data());
    fs::create_directories(registrar());
    fs::create_directories(plugins());
    fs::create_directories(cdi());
    fs::create_directories(claims());
  }
  ~KubeletDirs() {
    std::error_code ec;
    // Make everything writable again (tests chmod the CDI dir).
    fs::permissions(cdi(), fs::perms::owner_all, ec);
    fs::remove_all(root_, ec);
  }
  KubeletDirs(const KubeletDirs&) = delete;
  KubeletDirs& operator=(const KubeletDirs&) = delete;

  const std::string& root() const { return root_; }
  std::string registrar() const { return root_ + "/reg"; }
  std::string plugins() const { return root_ + "/plugins"; }
  std::string cdi() const { return root_ + "/cdi"; }
  std::string claims() const { return root_ + "/claims"; }
  std::string slices() const { return root_ + "/slices.yaml"; }

  // Options for a plugin living in these directories.
  PluginOptions Options(const std::string& driver_name, const std::string& node = "node-1") const {
    PluginOptions o;
    o.driver_name = driver_name;
    o.node_name = node;
    o.registrar_directory = registrar();
    o.plugins_directory = plugins();
    o.cdi_root = cdi();
    return o;
  }

  // Command-line flags equivalent to Options (for driver programs).
  std::vector<std::string> Flags(const std::string& driver_name,
                                 const std::string& node = "node-1") const {
    return {"--driver-name=" + driver_name,
            "--node-name=" + node,
            "--kubelet-registrar-directory-path=" + registrar(),
            "--kubelet-plugins-directory-path=" + plugins(),
            "--cdi-root=" + cdi(),
            "--claims=" + claims(),
            "--resource-slices=" + slices()};
  }

  // Files in the CDI directory (names only), sorted.
  std::vector<std::string> CdiFiles() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(cdi())) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::string root_;
};

// One allocation result of a claim manifest.
struct Result_ {
  std::string request;
  std::string driver;
  std::string pool;
  std::string device;
  std::optional<std::string> share_id;
  bool admin_access = false;
};

struct OpaqueConfig {
  std::string source = "FromClaim";
  std::vector<std::string> requests;
  std::string driver;
  std::string parameters_json;  // raw JSON
};

struct ClaimSpec {
  std::string namespace_ = "default";
  std::string name;
  std::string uid;
  bool allocated = true;
  std::vector<Result_> results;
  std::vector<OpaqueConfig> configs;
  // Non-empty: the allocation's node selector names this node (metadata.name
  // In [node]), as the scheduler writes it for node-local devices.
  std::string node;
};

inline std::string Quoted(const std::string& s) {
  std::string out;
  json::AppendGoJsonString(out, s);
  return out;
}

// A resource.k8s.io/v1 ResourceClaim as JSON.
inline std::string ClaimJson(const ClaimSpec& c) {
  std::string requests;
  std::vector<std::string> seen;
  for (const auto& r : c.results) {
    std::string base = r.request.substr(0, r.request.find('/'));
    if (std::find(seen.begin(), seen.end(), base) != seen.end()) continue;
    seen.push_back(base);
    if (!requests.empty()) requests += ",";
    requests += R"({"name":)" + Quoted(base) + R"(,"exactly":{"deviceClassName":"class"}})";
  }
  std::string out =
      R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":)" +
      Quoted(c.name) + R"(,"namespace":)" + Quoted(c.namespace_) + R"(,"uid":)" + Quoted(c.uid) +
      R"(},"spec":{"devices":{"requests":[)" + requests + "]}}";
  if (c.allocated) {
    std::string results;
    for (const auto& r : c.results) {
      if (!results.empty()) results += ",";
      results += R"({"request":)" + Quoted(r.request) + R"(,"driver":)" + Quoted(r.driver) +
                 R"(,"pool":)" + Quoted(r.pool) + R"(,"device":)" + Quoted(r.device);
      if (r.admin_access) results += R"(,"adminAccess":true)";
      if (r.share_id) results += R"(,"shareID":)" + Quoted(*r.share_id);
      results += "}";
    }
    std::string configs;
    for (const auto& k : c.configs) {
      if (!configs.empty()) configs += ",";
      std::string reqs;
      for (const auto& r : k.requests) reqs += (reqs.empty() ? "" : ",") + Quoted(r);
      configs += R"({"source":)" + Quoted(k.source) + R"(,"requests":[)" + reqs +
                 R"(],"opaque":{"driver":)" + Quoted(k.driver) + R"(,"parameters":)" +
                 k.parameters_json + "}}";
    }
    std::string selector;
    if (!c.node.empty()) {
      selector = R"(,"nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name",)"
                 R"("operator":"In","values":[)" +
                 Quoted(c.node) + "]}]}]}";
    }
    out += R"(,"status":{"allocation":{"devices":{"results":[)" + results + R"(],"config":[)" +
           configs + "]}" + selector + "}}";
  }
  return out + "}";
}

// Writes the claim to <dir>/<namespace>_<name>.json (replacing it).
inline void WriteClaim(const std::string& dir, const ClaimSpec& c) {
  std::ofstream(dir + "/" + c.namespace_ + "_" + c.name + ".json") << ClaimJson(c);
}
inline void RemoveClaim(const std::string& dir, const ClaimSpec& c) {
  fs::remove(dir + "/" + c.namespace_ + "_" + c.name + ".json");
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline bool IsSocket(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
}

using ClaimRefs = ClaimReference;
inline ClaimRefs Ref(const ClaimSpec& c) { return {c.namespace_, c.name, c.uid}; }

// The library's kubelet client plus what only tests need: registration that
// throws (for fixtures) and health streams.
class KubeletClient : public driver::KubeletClient {
 public:
  using driver::KubeletClient::KubeletClient;

  // The kubelet's registration; returns the GetInfo answer.
  pluginregistration::PluginInfo Register() {
    if (Status s = driver::KubeletClient::Register(); !s) throw std::runtime_error(s.error());
    return info();
  }
  grpc::Status Notify(bool registered, const std::string& error = "") {
    return NotifyRegistrationStatus(registered, error);
  }

  // A health stream; Read blocks until the next list (false at end of stream).
  template <class Stub, class Request, class Response>
  class HealthStream {
   public:
    explicit HealthStream(Stub& stub) {
      ctx_.set_wait_for_ready(true);
      reader_ = stub.NodeWatchResources(&ctx_, Request());
    }
    bool Read(Response& out) { return reader_->Read(&out); }
    void Cancel() { ctx_.TryCancel(); }
    grpc::Status Finish() { return reader_->Finish(); }

   private:
    grpc::ClientContext ctx_;
    std::unique_ptr<grpc::ClientReader<Response>> reader_;
  };
  using HealthV1 = HealthStream<::v1::DRAResourceHealth::Stub, ::v1::NodeWatchResourcesRequest,
                                ::v1::NodeWatchResourcesResponse>;
  using HealthV1alpha1 =
      HealthStream<::v1alpha1::DRAResourceHealth::Stub, ::v1alpha1::NodeWatchResourcesRequest,
                   ::v1alpha1::NodeWatchResourcesResponse>;
  std::unique_ptr<HealthV1> WatchHealthV1() {
    if (!health_v1_) health_v1_ = ::v1::DRAResourceHealth::NewStub(plugin_channel());
    return std::make_unique<HealthV1>(*health_v1_);
  }
  std::unique_ptr<HealthV1alpha1> WatchHealthV1alpha1() {
    if (!health_v1alpha1_) {
      health_v1alpha1_ = ::v1alpha1::DRAResourceHealth::NewStub(plugin_channel());
    }
    return std::make_unique<HealthV1alpha1>(*health_v1alpha1_);
  }

 private:
  std::unique_ptr<::v1::DRAResourceHealth::Stub> health_v1_;
  std::unique_ptr<::v1alpha1::DRAResourceHealth::Stub> health_v1alpha1_;
};

// Every CDI ID resolves to a device defined by a spec file in `cdi_dir`
// (strictly parsed); returns the first problem, empty when all resolve.
inline std::string ResolveCdiIds(const std::string& cdi_dir, const std::vector<std::string>& ids) {
  std::map<std::string, int> defined;
  for (const auto& e : fs::directory_iterator(cdi_dir)) {
    std::string name = e.path().filename().string();
    if (!e.is_regular_file() || !(name.ends_with(".json") || name.ends_with(".yaml"))) continue;
    auto spec = cdi::DecodeJson(ReadFile(e.path().string()));
    if (!spec.ok()) return name + ": " + spec.error();
    for (const auto& d : spec->devices) defined[cdi::QualifiedName(spec->kind, d.name)]++;
  }
  for (const auto& [id, n] : defined) {
    if (n > 1) return id + " is defined " + std::to_string(n) + " times";
  }
  for (const auto& id : ids) {
    if (auto s = cdi::ValidateQualifiedName(id); !s.ok()) return s.error();
    if (defined.count(id) == 0) return id + " is not defined by any CDI spec";
  }
  return {};
}

// A program run as a child process (e.g. `dra driver example ...`).
class ChildProcess {
 public:
  ChildProcess(const std::string& program, const std::vector<std::string>& args,
               const std::vector<std::string>& env = {},
               const std::string& output_file = "/dev/null") {
    pid_ = fork();
    if (pid_ == 0) {
      int fd = open(output_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
      }
      for (const auto& e : env) putenv(const_cast<char*>(e.c_str()));
      std::vector<char*> argv;
      argv.push_back(const_cast<char*>(program.c_str()));
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(program.c_str(), argv.data());
      _exit(127);
    }
  }
  ~ChildProcess() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      Wait();
    }
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  void Signal(int sig) { kill(pid_, sig); }
  // The wait status (as from waitpid).
  int Wait() {
    if (!exited_) {
      waitpid(pid_, &status_, 0);
      exited_ = true;
    }
    return status_;
  }
  bool Running() {
    if (exited_) return false;
    if (waitpid(pid_, &status_, WNOHANG) == pid_) exited_ = true;
    return !exited_;
  }

 private:
  pid_t pid_ = -1;
  int status_ = 0;
  bool exited_ = false;
};

// Waits (bounded, 30 s) until `condition` holds; for processes starting up.
template <class F>
bool WaitFor(F condition) {
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < end) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return condition();
}

}  // namespace dra::driver::testing

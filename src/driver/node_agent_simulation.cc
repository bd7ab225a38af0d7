#include "driver/node_agent_simulation.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <set>
#include <string_view>
#include <system_error>
#include <utility>

#include "dra/driver/extension.h"
#include "dra/driver/plugin.h"
#include "dra/util/mutex.h"
#include "driver/kubelet_client.h"

namespace dra::driver {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Claims by namespace/name; copies, read concurrently by the plugin.
class MemoryClaimSource : public ClaimSource {
 public:
  explicit MemoryClaimSource(const std::map<std::string, api::ResourceClaim>& claims)
      : claims_(claims) {}
  Result<api::ResourceClaim> Get(const std::string& namespace_, const std::string& name) override {
    auto it = claims_.find(namespace_ + "/" + name);
    if (it == claims_.end())
      return Error{"ResourceClaim " + namespace_ + "/" + name + " not found"};
    return it->second;
  }

 private:
  const std::map<std::string, api::ResourceClaim>& claims_;
};

// Keeps what the plugin publishes; nothing reads it back but the plugin.
class MemorySlicePublisher : public SlicePublisher {
 public:
  Result<std::vector<api::ResourceSlice>> List() override {
    MutexLock lock(mu_);
    return slices_;
  }
  Status Publish(const std::vector<api::ResourceSlice>& slices) override {
    MutexLock lock(mu_);
    slices_ = slices;
    return {};
  }

 private:
  Mutex mu_;
  std::vector<api::ResourceSlice> slices_ DRA_GUARDED_BY(mu_);
};

// A private directory tree, removed on destruction.
class TempDir {
 public:
  explicit TempDir(const std::string& parent) {
    std::string tmpl = parent + "/dra-sim-XXXXXX";
    if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// One driver's example plugin on the node and the kubelet's client of it.
// Members are destroyed in reverse order: client, plugin (stopped), driver,
// directory.
struct DriverInstance {
  std::string name;
  std::unique_ptr<TempDir> dir;
  std::unique_ptr<Driver> driver;
  std::unique_ptr<MemoryClaimSource> claims;
  MemorySlicePublisher publisher;
  std::unique_ptr<Plugin> plugin;
  std::unique_ptr<KubeletClient> client;
  std::string error;  // why the driver is not usable; empty = registered
};

// The kubelet's claim info cache entry (k8s.io/kubernetes
// pkg/kubelet/cm/dra/claiminfo.go).
struct ClaimState {
  std::string key;  // namespace/name
  ClaimReference ref;
  std::set<std::string> drivers;
  std::set<std::string> pods;  // pods using it and not yet terminated
  bool prepared = false;
  // Drivers that prepared it (to be unprepared), with their devices.
  std::map<std::string, std::vector<PreparedDeviceIds>> devices;
};

// UIDs name CDI devices and spec files; one that cannot (empty, or a
// synthetic one such as "extended-resources/<pod uid>") is replaced in the
// copy the driver sees.
std::string UsableUid(const api::ResourceClaim& claim) {
  const std::string& uid = claim.metadata.uid;
  bool ok = !uid.empty() && std::all_of(uid.begin(), uid.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
  if (ok) return uid;
  std::string out = "sim-" + claim.metadata.namespace_ + "-" + claim.metadata.name;
  for (char& c : out) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '-';
  }
  return out;
}

// Concatenates the parts with one allocation (messages built in loops).
std::string Cat(std::initializer_list<std::string_view> parts) {
  std::size_t n = 0;
  for (std::string_view p : parts) n += p.size();
  std::string out;
  out.reserve(n);
  for (std::string_view p : parts) out += p;
  return out;
}

std::string ClaimKey(const api::ResourceClaim& c) {
  return c.metadata.namespace_ + "/" + c.metadata.name;
}

bool ReservedForPod(const api::ResourceClaim& claim, const api::Pod& pod) {
  for (const api::ResourceClaimConsumerReference& r : claim.status.reserved_for) {
    if (r.resource != "pods") continue;
    if (!pod.metadata.uid.empty() ? r.uid == pod.metadata.uid : r.name == pod.metadata.name) {
      return true;
    }
  }
  return false;
}

bool HasResource(const api::Container& c, const std::string& resource) {
  auto nonzero = [&](const api::ResourceList& l) {
    auto it = l.find(resource);
    return it != l.end() && !it->second.IsZero();
  };
  return nonzero(c.resources.requests) || nonzero(c.resources.limits);
}

// The slices the driver serves on the node (see NodeAgentInput::slices).
std::vector<api::ResourceSlice> DriverSlices(const std::vector<api::ResourceSlice>& all,
                                             const std::string& driver, const std::string& node,
                                             const std::set<std::string>& allocated_pools) {
  std::vector<api::ResourceSlice> out;
  for (const api::ResourceSlice& s : all) {
    if (s.spec.driver != driver) continue;
    bool local = s.spec.node_name && *s.spec.node_name == node;
    bool used = !s.spec.node_name && allocated_pools.contains(s.spec.pool.name);
    if (local || used) out.push_back(s);
  }
  return out;
}

std::string TempParent(const NodeAgentOptions& options) {
  if (!options.temp_directory.empty()) return options.temp_directory;
  if (const char* tmpdir = std::getenv("TMPDIR"); tmpdir != nullptr && *tmpdir != '\0') {
    return tmpdir;
  }
  if (::access("/dev/shm", W_OK | X_OK) == 0) return "/dev/shm";
  return "/tmp";
}

void StartDriver(DriverInstance& d, const std::string& node, std::vector<api::ResourceSlice> slices,
                 const std::map<std::string, api::ResourceClaim>& claims,
                 const NodeAgentOptions& options) {
  const std::string parent = TempParent(options);
  d.dir = std::make_unique<TempDir>(parent);
  if (d.dir->path().empty()) {
    d.error = "cannot create a temporary directory in " + parent;
    return;
  }
  const std::string& root = d.dir->path();
  std::error_code ec;
  for (const char* sub : {"/reg", "/plugins", "/cdi"}) fs::create_directories(root + sub, ec);
  if (ec) {
    d.error = "cannot create directories in " + root + ": " + ec.message();
    return;
  }
  const DriverExtension* example = FindDriverExtension("example");
  if (example == nullptr) {
    d.error = "no example driver is registered";
    return;
  }
  Result<std::unique_ptr<Driver>> driver =
      example->Create(DriverConfig{d.name, node, {}, std::move(slices)});
  if (!driver) {
    d.error = "example driver: " + driver.error();
    return;
  }
  d.driver = std::move(*driver);
  d.claims = std::make_unique<MemoryClaimSource>(claims);
  PluginOptions plugin_options;
  plugin_options.driver_name = d.name;
  plugin_options.node_name = node;
  plugin_options.registrar_directory = root + "/reg";
  plugin_options.plugins_directory = root + "/plugins";
  plugin_options.cdi_root = root + "/cdi";
  Result<std::unique_ptr<Plugin>> plugin =
      Plugin::Start(*d.driver, *d.claims, d.publisher, plugin_options);
  if (!plugin) {
    d.error = "start: " + plugin.error();
    return;
  }
  d.plugin = std::move(*plugin);
  // The kubelet's side from here on: only the registration directory is known.
  Result<std::string> socket = FindRegistrationSocket(plugin_options.registrar_directory, d.name);
  if (!socket) {
    d.error = socket.error();
    return;
  }
  d.client = std::make_unique<KubeletClient>(*socket);
  if (Status s = d.client->Register(); !s) d.error = "registration: " + s.error();
}

// Claim files the driver left in its CDI directory (should be none after
// everything was unprepared).
std::vector<std::string> LeftoverCdiFiles(const DriverInstance& d) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(d.dir->path() + "/cdi", ec), end; !ec && it != end;
       it.increment(ec)) {
    out.push_back(it->path().filename().string());
  }
  return out;
}

// One node's run: the kubelet's claim cache, the drivers, and what happened.
// Phases in order: CollectClaims, StartDrivers, per pod Prepare (validation,
// prepare calls per driver, the containers' CDI IDs), Unprepare, Stop.
class NodeAgentRun {
 public:
  NodeAgentRun(const NodeAgentInput& input, const NodeAgentOptions& options)
      : input_(input), options_(options), deadline_(Clock::now() + options.node_timeout) {
    result_.node = input.node_name;
  }

  NodeAgentResult Run() {
    auto start = Clock::now();
    CollectClaims();
    StartDrivers();
    for (std::size_t i = 0; i < input_.pods.size(); ++i) {
      if (pod_claims_[i].empty()) continue;
      result_.pods.push_back(PreparePod(i));
    }
    result_.failures += static_cast<std::int64_t>(failed_claims_.size());
    // Cleanup gets a few seconds even when preparing used up the node's time.
    const auto cleanup_deadline = std::max(deadline_, Clock::now() + std::chrono::seconds(10));
    for (std::size_t i = 0; i < input_.pods.size(); ++i) UnpreparePod(i, cleanup_deadline);
    StopDrivers();
    result_.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return std::move(result_);
  }

 private:
  // The cache and the copies of the claims the drivers read; each pod's
  // claims in pod.spec.resourceClaims order (the extended resource claim last).
  void CollectClaims() {
    for (const NodeAgentPod& p : input_.pods) {
      std::vector<const api::ResourceClaim*> list;
      for (const api::PodResourceClaim& pc : p.pod->spec.resource_claims) {
        auto it = p.claims.find(pc.name);
        if (it != p.claims.end() && it->second != nullptr) list.push_back(it->second);
      }
      if (p.extended_resource_claim != nullptr) list.push_back(p.extended_resource_claim);
      for (const api::ResourceClaim* c : list) AddClaim(c);
      pod_claims_.push_back(std::move(list));
    }
  }

  void AddClaim(const api::ResourceClaim* c) {
    if (c == nullptr || copies_.contains(ClaimKey(*c))) return;
    api::ResourceClaim copy = *c;
    copy.metadata.uid = UsableUid(*c);
    ClaimState& state = cache_[ClaimKey(*c)];
    state.key = ClaimKey(*c);
    state.ref = {copy.metadata.namespace_, copy.metadata.name, copy.metadata.uid};
    if (c->status.allocation) {
      for (const api::DeviceRequestAllocationResult& r : c->status.allocation->devices.results) {
        state.drivers.insert(r.driver);
        pools_by_driver_[r.driver].insert(r.pool);
      }
    }
    copies_.emplace(ClaimKey(*c), std::move(copy));
  }

  void StartDrivers() {
    static const std::vector<api::ResourceSlice> kNone;
    for (const auto& [name, pools] : pools_by_driver_) {
      auto d = std::make_unique<DriverInstance>();
      d->name = name;
      StartDriver(
          *d, input_.node_name,
          DriverSlices(input_.slices ? *input_.slices : kNone, name, input_.node_name, pools),
          copies_, options_);
      if (!d->error.empty()) result_.errors.push_back(Cat({"driver ", name, ": ", d->error}));
      result_.drivers.push_back(name);
      drivers_.emplace(name, std::move(d));
    }
  }

  // Prepare, pod by pod (pkg/kubelet/cm/dra/manager.go, PrepareResources).
  NodeAgentPodResult PreparePod(std::size_t i) {
    const api::Pod& pod = *input_.pods[i].pod;
    NodeAgentPodResult pr;
    pr.namespace_ = pod.metadata.namespace_;
    pr.name = pod.metadata.name;
    const std::string pod_label = Cat({pr.namespace_, "/", pr.name});
    // Validation pass; nothing is cached for a pod that fails it.
    for (const api::ResourceClaim* c : pod_claims_[i]) {
      const std::string key = ClaimKey(*c);
      if (!ReservedForPod(*c, pod)) {
        pr.errors.push_back(Cat({"pod ", pod_label, " is not allowed to use ResourceClaim ", key}));
      } else if (!c->status.allocation) {
        pr.errors.push_back(Cat({"ResourceClaim ", key, " is not allocated"}));
      } else {
        for (const std::string& d : cache_[key].drivers) {
          if (!drivers_.at(d)->error.empty()) {
            pr.errors.push_back(
                Cat({"ResourceClaim ", key, ": DRA driver ", d, " is not registered"}));
          }
        }
      }
      if (!pr.errors.empty()) failed_claims_.insert(key);
    }
    if (pr.errors.empty()) CallPrepare(i, pod_label, pr);
    if (pr.errors.empty()) {
      for (const api::Container& c : pod.spec.init_containers) {
        pr.containers.push_back(ContainerDevices(i, c, true));
      }
      for (const api::Container& c : pod.spec.containers) {
        pr.containers.push_back(ContainerDevices(i, c, false));
      }
    }
    return pr;
  }

  // NodePrepareResources for the pod's claims not prepared yet, one call per
  // driver; a claim counts as prepared once every driver of the pod agreed.
  void CallPrepare(std::size_t i, const std::string& pod_label, NodeAgentPodResult& pr) {
    std::map<std::string, std::vector<ClaimState*>> batches;
    for (const api::ResourceClaim* c : pod_claims_[i]) {
      ClaimState& state = cache_[ClaimKey(*c)];
      state.pods.insert(pod_label);
      if (state.prepared) continue;
      for (const std::string& d : state.drivers) batches[d].push_back(&state);
    }
    std::set<ClaimState*> processed;
    for (const auto& [driver, states] : batches) {
      std::vector<ClaimReference> refs;
      for (ClaimState* s : states) {
        refs.push_back(s->ref);
        processed.insert(s);
      }
      auto answers = drivers_.at(driver)->client->NodePrepareResources(refs, deadline_);
      if (!answers) {
        pr.errors.push_back(Cat({"DRA driver ", driver, ": ", answers.error()}));
        for (ClaimState* s : states) failed_claims_.insert(s->key);
        continue;
      }
      for (ClaimState* s : states) {
        const ClaimPrepareResult& a = answers->at(s->ref.uid);
        if (!a.error.empty()) {
          pr.errors.push_back(
              Cat({"ResourceClaim ", s->key, ": DRA driver ", driver, ": ", a.error}));
          failed_claims_.insert(s->key);
          continue;
        }
        // Replaced, not appended, so a retried batch does not duplicate.
        s->devices[driver] = a.devices;
      }
    }
    if (!pr.errors.empty()) return;
    for (ClaimState* s : processed) {
      s->prepared = true;
      ++result_.claims_prepared;
      for (const auto& [driver, devices] : s->devices) {
        for (const PreparedDeviceIds& d : devices) {
          result_.cdi_device_ids += static_cast<std::int64_t>(d.cdi_device_ids.size());
        }
      }
    }
  }

  // A container's CDI IDs as the kubelet's Manager.GetResources
  // (k8s.io/kubernetes/pkg/kubelet/cm/dra) collects them.
  ContainerCdiDevices ContainerDevices(std::size_t i, const api::Container& c, bool init) {
    const NodeAgentPod& in = input_.pods[i];
    const api::Pod& pod = *in.pod;
    ContainerCdiDevices out{c.name, init, {}};
    auto append = [&out](const PreparedDeviceIds& d) {
      out.cdi_device_ids.insert(out.cdi_device_ids.end(), d.cdi_device_ids.begin(),
                                d.cdi_device_ids.end());
    };
    auto names = [](const PreparedDeviceIds& d, const std::string& request) {
      return std::find(d.request_names.begin(), d.request_names.end(), request) !=
             d.request_names.end();
    };
    for (const api::ContainerResourceClaim& ref : c.resources.claims) {
      auto it = in.claims.find(ref.name);
      if (it == in.claims.end() || it->second == nullptr) continue;
      for (const auto& [driver, devices] : cache_[ClaimKey(*it->second)].devices) {
        for (const PreparedDeviceIds& d : devices) {
          if (ref.request.empty() || d.request_names.empty() || names(d, ref.request)) append(d);
        }
      }
    }
    if (in.extended_resource_claim != nullptr && pod.status.extended_resource_claim_status) {
      const ClaimState& state = cache_[ClaimKey(*in.extended_resource_claim)];
      for (const api::ContainerExtendedResourceRequest& m :
           pod.status.extended_resource_claim_status->request_mappings) {
        if (m.container_name != c.name || !HasResource(c, m.resource_name)) continue;
        for (const auto& [driver, devices] : state.devices) {
          for (const PreparedDeviceIds& d : devices) {
            if (names(d, m.request_name)) append(d);
          }
        }
      }
    }
    return out;
  }

  // Unprepare as the pods terminate, in the same order (UnprepareResources):
  // a claim goes to its drivers when its last pod is gone.
  void UnpreparePod(std::size_t i, Clock::time_point deadline) {
    const api::Pod& pod = *input_.pods[i].pod;
    const std::string pod_label = Cat({pod.metadata.namespace_, "/", pod.metadata.name});
    std::map<std::string, std::vector<ClaimState*>> batches;
    for (const api::ResourceClaim* c : pod_claims_[i]) {
      ClaimState& state = cache_[ClaimKey(*c)];
      if (state.pods.erase(pod_label) == 0 || !state.pods.empty()) continue;
      for (const auto& [driver, devices] : state.devices) batches[driver].push_back(&state);
    }
    for (const auto& [driver, states] : batches) {
      std::vector<ClaimReference> refs;
      for (ClaimState* s : states) refs.push_back(s->ref);
      auto answers = drivers_.at(driver)->client->NodeUnprepareResources(refs, deadline);
      if (!answers) {
        result_.errors.push_back(Cat({"DRA driver ", driver, ": ", answers.error()}));
        ++result_.failures;
        continue;
      }
      for (ClaimState* s : states) {
        const std::string& error = answers->at(s->ref.uid);
        if (!error.empty()) {
          result_.errors.push_back(
              Cat({"unprepare ResourceClaim ", s->key, ": DRA driver ", driver, ": ", error}));
          ++result_.failures;
        }
      }
    }
  }

  // Stops every driver; CDI spec files left behind are failures.
  void StopDrivers() {
    for (auto& [name, d] : drivers_) {
      if (d->plugin) {
        d->client.reset();
        d->plugin->Stop();
        std::vector<std::string> left = LeftoverCdiFiles(*d);
        if (!left.empty()) {
          std::string files;
          for (const std::string& f : left) files += (files.empty() ? "" : ", ") + f;
          result_.errors.push_back(
              Cat({"driver ", name, ": CDI spec files left after unprepare: ", files}));
          ++result_.failures;
        }
      }
      if (!d->error.empty()) ++result_.failures;
    }
    drivers_.clear();
  }

  const NodeAgentInput& input_;
  const NodeAgentOptions& options_;
  const Clock::time_point deadline_;
  NodeAgentResult result_;
  std::map<std::string, api::ResourceClaim> copies_;
  std::map<std::string, ClaimState> cache_;
  std::map<std::string, std::set<std::string>> pools_by_driver_;
  std::vector<std::vector<const api::ResourceClaim*>> pod_claims_;
  std::map<std::string, std::unique_ptr<DriverInstance>> drivers_;
  std::set<std::string> failed_claims_;
};

}  // namespace

NodeAgentResult SimulateNodeAgent(const NodeAgentInput& input, const NodeAgentOptions& options) {
  return NodeAgentRun(input, options).Run();
}

}  // namespace dra::driver

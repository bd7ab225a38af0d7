// Plugin: start-up order, sockets, servers, slice publishing, shutdown.
#include "dra/driver/plugin.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/service_type.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

#include "dra/api/codec.h"
#include "dra/api/validation.h"
#include "dra/driver/cdi.h"
#include "dra/util/mutex.h"
#include "dra/util/system_error.h"
#include "driver/claim_preparer.h"
#include "driver/grpc_error_code.h"
#include "driver/grpc_services.h"
#include "driver/kubelet_client.h"
#include "driver/publishing_loop.h"
#include "driver/sha256.h"

namespace dra::driver {
namespace {

namespace fs = std::filesystem;

// Unix socket paths hold at most 107 bytes plus the terminating NUL.
constexpr std::size_t kMaxSocketPath = 107;

Status CheckDriverName(const std::string& name) {
  if (name.empty()) return Error{"driver name: required"};
  if (name.size() > 63) return Error{"driver name " + name + ": longer than 63 characters"};
  // DNS subdomain: dot-separated DNS labels of [a-z0-9-], alphanumeric at the ends.
  std::size_t start = 0;
  while (true) {
    auto dot = name.find('.', start);
    std::string label =
        name.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (label.empty() || !alnum(label.front()) || !alnum(label.back())) {
      return Error{"driver name " + name + ": must be a lower-case DNS subdomain"};
    }
    for (char c : label) {
      if (!alnum(c) && c != '-')
        return Error{"driver name " + name + ": must be a lower-case DNS subdomain"};
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return {};
}

Status EnsureDirectory(const std::string& path, fs::perms mode, const std::string& what) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return {};
  if (!fs::create_directories(path, ec) && ec) {
    return Error{what + " " + path + ": cannot create: " + ec.message(), ErrnoCode(ec.value())};
  }
  fs::permissions(path, mode, ec);
  return {};
}

Status RemoveStale(const std::string& path) {
  if (unlink(path.c_str()) != 0 && errno != ENOENT) {
    return ErrnoError("remove stale socket " + path, errno);
  }
  return {};
}

class PluginImpl final : public Plugin, public DriverEvents {
 public:
  PluginImpl(Driver& driver, ClaimSource& claims, SlicePublisher& publisher, PluginOptions options)
      : driver_(driver), claims_(claims), publisher_(publisher), options_(std::move(options)) {}

  ~PluginImpl() override { Stop(); }

  Status Init();

  const PluginEndpoints& endpoints() const override { return endpoints_; }

  Status PublishResources() override { return publishing_->PublishNow(); }

  std::string publish_error() const override {
    return publishing_ ? publishing_->last_error() : std::string();
  }

  Status CheckLiveness() override {
    KubeletClientOptions timeouts;
    timeouts.dial_timeout = std::chrono::milliseconds(2'000);
    timeouts.call_timeout = std::chrono::milliseconds(5'000);
    KubeletClient client(endpoints_.registration_socket, timeouts);
    pluginregistration::PluginInfo info;
    if (auto s = client.GetInfo(info); !s.ok()) {
      return Error{"GetInfo on " + endpoints_.registration_socket + ": " + s.error_message(),
                   GrpcErrorCode(s.error_code())};
    }
    client.Connect(endpoints_.dra_socket);
    if (options_.serve_v1) {
      k8s::io::kubelet::pkg::apis::dra::v1::NodePrepareResourcesResponse out;
      if (auto s = client.PrepareV1({}, out); !s.ok()) {
        return Error{"NodePrepareResources on " + endpoints_.dra_socket + ": " + s.error_message(),
                     GrpcErrorCode(s.error_code())};
      }
    } else {
      k8s::io::kubelet::pkg::apis::dra::v1beta1::NodePrepareResourcesResponse out;
      if (auto s = client.PrepareV1beta1({}, out); !s.ok()) {
        return Error{"NodePrepareResources on " + endpoints_.dra_socket + ": " + s.error_message(),
                     GrpcErrorCode(s.error_code())};
      }
    }
    return {};
  }

  void InventoryChanged() override {
    if (publishing_) publishing_->Changed();
  }

  void HealthChanged() override { health_.Changed(); }

  void Stop() override DRA_EXCLUDES(stop_mu_, wait_mu_) {
    MutexLock stop_lock(stop_mu_);
    {
      MutexLock lock(wait_mu_);
      if (stopped_) return;
    }
    // Registration first, so the kubelet deregisters before the endpoint goes.
    // Only sockets this instance serves are unlinked: after a failed start
    // the paths may belong to another, running instance.
    if (registration_server_) unlink(endpoints_.registration_socket.c_str());
    // Registration calls are short and the kubelet retries them: no grace
    // period. Prepare/unprepare calls in flight get a few seconds to finish.
    if (registration_server_) registration_server_->Shutdown(std::chrono::system_clock::now());
    auto deadline = std::chrono::system_clock::now() + std::chrono::seconds(5);
    health_.Close();
    if (dra_server_) dra_server_->Shutdown(deadline);
    if (dra_server_) unlink(endpoints_.dra_socket.c_str());
    if (publishing_) publishing_->Stop();
    if (driver_started_) driver_.Stop();
    {
      MutexLock lock(wait_mu_);
      stopped_ = true;
    }
    wait_cv_.NotifyAll();
  }

  void Wait() override DRA_EXCLUDES(wait_mu_) {
    MutexLock lock(wait_mu_);
    while (!stopped_) wait_cv_.Wait(wait_mu_);
  }

  std::string registration_status() const override { return registration_log_.Describe(); }

 private:
  // Init's steps, in order.
  Status CheckOptions();        // validates the options and fills in defaults
  Status PrepareDirectories();  // makes the directories absolute and creates them
  Status SetEndpoints();        // derives the socket and checkpoint paths
  Status StartPreparer();       // recovers prepared claims from the checkpoint
  void CollectPreparedCounts(metrics::Registry& metrics);
  Status StartPublishing();  // starts the driver and publishes its ResourceSlices
  Status ServeSockets();     // serves the DRA endpoint, then the registration socket

  Result<std::unique_ptr<grpc::Server>> Serve(const std::string& path,
                                              const std::vector<grpc::Service*>& services) {
    if (auto s = RemoveStale(path); !s.ok()) return s.failure();
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("unix:" + path, grpc::InsecureServerCredentials(), &port);
    for (auto* s : services) builder.RegisterService(s);
    auto server = builder.BuildAndStart();
    if (!server) return Error{"cannot serve gRPC on unix socket " + path, ErrorCode::kUnavailable};
    chmod(path.c_str(), 0600);
    return server;
  }

  Driver& driver_;
  ClaimSource& claims_;
  SlicePublisher& publisher_;
  PluginOptions options_;
  PluginEndpoints endpoints_;
  std::shared_ptr<ClaimPreparer> preparer_;  // shared with the metrics collector (weakly)
  HealthBroadcast health_;
  RegistrationLog registration_log_;
  std::vector<std::unique_ptr<grpc::Service>> dra_services_;
  std::unique_ptr<grpc::Service> registration_service_;
  std::unique_ptr<grpc::Server> dra_server_;
  std::unique_ptr<grpc::Server> registration_server_;
  bool driver_started_ = false;
  std::unique_ptr<PublishingLoop> publishing_;
  Mutex stop_mu_;  // one Stop at a time; held for all of it
  Mutex wait_mu_;
  CondVar wait_cv_;
  bool stopped_ DRA_GUARDED_BY(wait_mu_) = false;  // written under stop_mu_ too
};

Status PluginImpl::Init() {
  if (auto s = CheckOptions(); !s.ok()) return s;
  if (auto s = PrepareDirectories(); !s.ok()) return s;
  if (auto s = SetEndpoints(); !s.ok()) return s;
  if (auto s = StartPreparer(); !s.ok()) return s;
  if (auto s = StartPublishing(); !s.ok()) return s;
  return ServeSockets();
}

Status PluginImpl::CheckOptions() {
  if (auto s = CheckDriverName(options_.driver_name); !s.ok()) return s;
  if (options_.node_name.empty()) return Error{"node name: required"};
  if (options_.cdi_kind.empty()) options_.cdi_kind = "k8s." + options_.driver_name + "/claim";
  if (auto s = cdi::ValidateKind(options_.cdi_kind); !s.ok())
    return s.failure().WithPrefix("CDI kind: ");
  if (options_.health_resend_period.count() <= 0)
    return Error{"health resend period: must be positive"};
  if (options_.publish_retry_initial.count() <= 0 ||
      options_.publish_retry_max < options_.publish_retry_initial) {
    return Error{"publish retry: the initial delay must be positive and at most the maximum"};
  }
  if (options_.plugin_data_directory.empty()) {
    options_.plugin_data_directory = options_.plugins_directory + "/" + options_.driver_name;
  }
  return {};
}

Status PluginImpl::PrepareDirectories() {
  std::error_code ec;
  for (std::string* dir :
       {&options_.plugin_data_directory, &options_.registrar_directory, &options_.cdi_root}) {
    *dir = fs::absolute(*dir, ec).lexically_normal().string();
    if (dir->size() > 1 && dir->back() == '/') dir->pop_back();
  }
  using P = fs::perms;
  if (auto s =
          EnsureDirectory(options_.plugin_data_directory,
                          P::owner_all | P::group_read | P::group_exec, "plugin data directory");
      !s.ok()) {
    return s;
  }
  if (auto s = EnsureDirectory(options_.registrar_directory,
                               P::owner_all | P::group_read | P::group_exec, "registrar directory");
      !s.ok()) {
    return s;
  }
  if (auto s = EnsureDirectory(
          options_.cdi_root,
          P::owner_all | P::group_read | P::group_exec | P::others_read | P::others_exec,
          "CDI directory");
      !s.ok()) {
    return s;
  }
  return {};
}

Status PluginImpl::SetEndpoints() {
  endpoints_.plugin_data_directory = options_.plugin_data_directory;
  endpoints_.dra_socket = options_.plugin_data_directory + "/" + DraSocketName(options_.pod_uid);
  endpoints_.registration_socket =
      options_.registrar_directory + "/" +
      RegistrationSocketName(options_.registrar_directory, options_.driver_name, options_.pod_uid);
  endpoints_.checkpoint_file = options_.plugin_data_directory + "/checkpoint.json";
  for (const auto* path : {&endpoints_.dra_socket, &endpoints_.registration_socket}) {
    if (path->size() > kMaxSocketPath) {
      return Error{"socket path " + *path + " is longer than " + std::to_string(kMaxSocketPath) +
                   " bytes"};
    }
  }
  return {};
}

Status PluginImpl::StartPreparer() {
  ClaimPreparerConfig config;
  config.driver_name = options_.driver_name;
  config.node_name = options_.node_name;
  config.cdi_root = options_.cdi_root;
  config.cdi_kind = options_.cdi_kind;
  config.checkpoint_path = endpoints_.checkpoint_file;
  config.serialize = options_.serialize;
  config.status_writer = options_.status_writer;
  config.metrics = options_.metrics;
  if (!options_.pod_uid.empty())
    config.serialize_lock_path = options_.plugin_data_directory + "/serialize.lock";
  preparer_ = std::make_shared<ClaimPreparer>(driver_, claims_, config);
  if (auto s = preparer_->Reconcile(); !s.ok())
    return s.failure().WithPrefix("recover prepared claims: ");
  if (options_.metrics != nullptr) CollectPreparedCounts(*options_.metrics);
  return {};
}

void PluginImpl::CollectPreparedCounts(metrics::Registry& metrics) {
  auto& claims =
      metrics.Gauge("dra_driver_prepared_claims", "ResourceClaims prepared on this node now");
  auto& devices =
      metrics.Gauge("dra_driver_prepared_devices", "Devices of the prepared ResourceClaims");
  std::weak_ptr<ClaimPreparer> weak = preparer_;
  metrics.AddCollector([weak, &claims, &devices] {
    auto preparer = weak.lock();
    if (!preparer) return;  // the plugin is gone; the registry may outlive it
    auto counts = preparer->PreparedCounts();
    if (!counts.ok()) return;
    claims.Set({}, static_cast<double>(counts->claims));
    devices.Set({}, static_cast<double>(counts->devices));
  });
}

Status PluginImpl::StartPublishing() {
  PublishingConfig publishing;
  publishing.driver_name = options_.driver_name;
  publishing.owner = SliceOwner{options_.node_name, options_.node_uid};
  publishing.retry_initial = options_.publish_retry_initial;
  publishing.retry_max = options_.publish_retry_max;
  publishing.resync_period = options_.publish_resync_period;
  publishing.metrics = options_.metrics;
  publishing_ = std::make_unique<PublishingLoop>(driver_, publisher_, publishing);
  if (auto s = driver_.Start(*this); !s.ok()) return s.failure().WithPrefix("driver start: ");
  driver_started_ = true;
  // A failed first publish does not stop the plugin: the worker retries it.
  Status published = PublishResources();
  if (!published.ok()) {
    std::cerr << "dra driver: " << published.error() << " (retrying in "
              << std::chrono::duration<double>(options_.publish_retry_initial).count() << " s)\n";
  }
  publishing_->Start(!published.ok());
  return {};
}

// The DRA endpoint is served before the registration socket appears.
Status PluginImpl::ServeSockets() {
  std::vector<grpc::Service*> services;
  if (options_.serve_v1) {
    dra_services_.push_back(NewDraV1Service(*preparer_));
    endpoints_.supported_versions.push_back("v1.DRAPlugin");
  }
  if (options_.serve_v1beta1) {
    dra_services_.push_back(NewDraV1beta1Service(*preparer_));
    endpoints_.supported_versions.push_back("v1beta1.DRAPlugin");
  }
  if (dra_services_.empty()) return Error{"serve at least one of v1 and v1beta1 DRAPlugin"};
  if (driver_.ReportsHealth()) {
    HealthServiceConfig health{&driver_, &health_, options_.node_name,
                               options_.health_resend_period};
    dra_services_.push_back(NewHealthV1Service(health));
    dra_services_.push_back(NewHealthV1alpha1Service(health));
    endpoints_.supported_versions.push_back("v1.DRAResourceHealth");
    endpoints_.supported_versions.push_back("v1alpha1.DRAResourceHealth");
  }
  for (auto& s : dra_services_) services.push_back(s.get());
  auto dra = Serve(endpoints_.dra_socket, services);
  if (!dra.ok()) return dra.failure();
  dra_server_ = std::move(*dra);

  registration_service_ = NewRegistrationService(
      RegistrationInfo{options_.driver_name, endpoints_.dra_socket, endpoints_.supported_versions},
      registration_log_);
  auto reg = Serve(endpoints_.registration_socket, {registration_service_.get()});
  if (!reg.ok()) return reg.failure();
  registration_server_ = std::move(*reg);
  return {};
}

}  // namespace

std::string DraSocketName(const std::string& pod_uid) {
  return pod_uid.empty() ? "dra.sock" : "dra-" + pod_uid + ".sock";
}

std::string RegistrationSocketName(const std::string& registrar_directory,
                                   const std::string& driver_name, const std::string& pod_uid) {
  if (pod_uid.empty()) return driver_name + "-reg.sock";
  auto fits = [&](const std::string& name) {
    return registrar_directory.size() + 1 + name.size() <= kMaxSocketPath;
  };
  std::string first = driver_name + "-" + pod_uid + "-reg.sock";
  if (fits(first)) return first;
  auto pod_hash = Sha256(pod_uid);
  std::string second = driver_name + "-" + Base64UrlNoPadding(pod_hash.data(), 8) + "-reg.sock";
  if (fits(second)) return second;
  std::string both = driver_name;
  both.push_back('\0');
  both += pod_uid;
  auto hash = Sha256(both);
  return "dra-" + Base64UrlNoPadding(hash.data(), 16) + "-reg.sock";
}

Result<std::unique_ptr<Plugin>> Plugin::Start(Driver& driver, ClaimSource& claims,
                                              SlicePublisher& publisher,
                                              const PluginOptions& options) {
  auto plugin = std::make_unique<PluginImpl>(driver, claims, publisher, options);
  if (auto s = plugin->Init(); !s.ok()) {
    plugin->Stop();
    return s.failure();
  }
  return std::unique_ptr<Plugin>(std::move(plugin));
}

int RunPlugin(Driver& driver, ClaimSource& claims, SlicePublisher& publisher,
              const PluginOptions& options, const std::function<Status(Plugin&)>& started,
              const std::function<void()>& stopping) {
  // Block the signals before any thread exists so every gRPC thread inherits
  // the mask and sigwait below is the only receiver.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  auto plugin = Plugin::Start(driver, claims, publisher, options);
  if (!plugin.ok()) {
    std::cerr << "dra driver: " << plugin.error() << "\n";
    return 1;
  }
  std::cerr << "dra driver: " << options.driver_name << " serving "
            << (*plugin)->endpoints().dra_socket << ", registration "
            << (*plugin)->endpoints().registration_socket << "\n";
  if (started) {
    if (Status s = started(**plugin); !s.ok()) {
      std::cerr << "dra driver: " << s.error() << "\n";
      if (stopping) stopping();
      (*plugin)->Stop();
      return 1;
    }
  }
  int received = 0;
  sigwait(&signals, &received);
  std::cerr << "dra driver: " << (received == SIGTERM ? "SIGTERM" : "SIGINT")
            << ", shutting down\n";
  if (stopping) stopping();
  (*plugin)->Stop();
  return 0;
}

}  // namespace dra::driver

// Plugin: start-up order, sockets, servers, slice publishing, shutdown.
#include "dra/driver/plugin.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/service_type.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

#include "dra/api/codec.h"
#include "dra/api/validation.h"
#include "dra/driver/cdi.h"
#include "driver/claim_preparer.h"
#include "driver/grpc_services.h"
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
    return Error{what + " " + path + ": cannot create: " + ec.message()};
  }
  fs::permissions(path, mode, ec);
  return {};
}

Status RemoveStale(const std::string& path) {
  if (unlink(path.c_str()) != 0 && errno != ENOENT) {
    return Error{"remove stale socket " + path + ": " + std::strerror(errno)};
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

  Status PublishResources() override {
    std::lock_guard lock(publish_mu_);
    auto inventory = driver_.Enumerate();
    if (!inventory.ok()) return Error{"enumerate devices: " + inventory.error()};
    auto existing = publisher_.List();
    if (!existing.ok()) return Error{"list published resource slices: " + existing.error()};
    auto slices =
        BuildResourceSlices(options_.driver_name, SliceOwner{options_.node_name, options_.node_uid},
                            *inventory, *existing);
    if (!slices.ok()) return Error{"resource slices: " + slices.error()};
    api::ValidationOptions validation;
    for (int f = 0; f < static_cast<int>(api::Feature::kCount); ++f) {
      validation.gates.Set(static_cast<api::Feature>(f), true);
    }
    for (const auto& slice : *slices) {
      api::ResourceSlice named = slice;
      if (named.metadata.name.empty()) named.metadata.name = named.metadata.generate_name + "x";
      auto errors = api::ValidateResourceSlice(named, validation);
      if (!errors.empty()) {
        return Error{api::InvalidObjectMessage("ResourceSlice", api::kResourceGroup,
                                               named.metadata.generate_name, errors)};
      }
    }
    if (auto s = publisher_.Publish(*slices); !s.ok())
      return Error{"publish resource slices: " + s.error()};
    return {};
  }

  void InventoryChanged() override {
    {
      std::lock_guard lock(worker_mu_);
      republish_ = true;
    }
    worker_cv_.notify_all();
  }

  void HealthChanged() override { health_.Changed(); }

  void Stop() override {
    std::lock_guard stop_lock(stop_mu_);
    if (stopped_) return;
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
    {
      std::lock_guard lock(worker_mu_);
      worker_stop_ = true;
    }
    worker_cv_.notify_all();
    if (worker_.joinable()) worker_.join();
    if (driver_started_) driver_.Stop();
    {
      std::lock_guard lock(wait_mu_);
      stopped_ = true;
    }
    wait_cv_.notify_all();
  }

  void Wait() override {
    std::unique_lock lock(wait_mu_);
    wait_cv_.wait(lock, [&] { return stopped_; });
  }

  std::string registration_status() const override { return registration_log_.Describe(); }

 private:
  Result<std::unique_ptr<grpc::Server>> Serve(const std::string& path,
                                              const std::vector<grpc::Service*>& services) {
    if (auto s = RemoveStale(path); !s.ok()) return Error{s.error()};
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("unix:" + path, grpc::InsecureServerCredentials(), &port);
    for (auto* s : services) builder.RegisterService(s);
    auto server = builder.BuildAndStart();
    if (!server) return Error{"cannot serve gRPC on unix socket " + path};
    chmod(path.c_str(), 0600);
    return server;
  }

  void Work() {
    std::unique_lock lock(worker_mu_);
    while (true) {
      worker_cv_.wait(lock, [&] { return worker_stop_ || republish_; });
      if (worker_stop_) return;
      republish_ = false;
      lock.unlock();
      if (auto s = PublishResources(); !s.ok()) std::cerr << "dra driver: " << s.error() << "\n";
      lock.lock();
    }
  }

  Driver& driver_;
  ClaimSource& claims_;
  SlicePublisher& publisher_;
  PluginOptions options_;
  PluginEndpoints endpoints_;
  std::unique_ptr<ClaimPreparer> preparer_;
  HealthBroadcast health_;
  RegistrationLog registration_log_;
  std::vector<std::unique_ptr<grpc::Service>> dra_services_;
  std::unique_ptr<grpc::Service> registration_service_;
  std::unique_ptr<grpc::Server> dra_server_;
  std::unique_ptr<grpc::Server> registration_server_;
  bool driver_started_ = false;
  std::mutex publish_mu_;
  std::thread worker_;
  std::mutex worker_mu_;
  std::condition_variable worker_cv_;
  bool republish_ = false;
  bool worker_stop_ = false;
  std::mutex stop_mu_;
  std::mutex wait_mu_;
  std::condition_variable wait_cv_;
  bool stopped_ = false;
};

Status PluginImpl::Init() {
  if (auto s = CheckDriverName(options_.driver_name); !s.ok()) return s;
  if (options_.node_name.empty()) return Error{"node name: required"};
  if (options_.cdi_kind.empty()) options_.cdi_kind = "k8s." + options_.driver_name + "/claim";
  if (auto s = cdi::ValidateKind(options_.cdi_kind); !s.ok())
    return Error{"CDI kind: " + s.error()};
  if (options_.health_resend_period.count() <= 0)
    return Error{"health resend period: must be positive"};
  if (options_.plugin_data_directory.empty()) {
    options_.plugin_data_directory = options_.plugins_directory + "/" + options_.driver_name;
  }
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

  ClaimPreparerConfig config;
  config.driver_name = options_.driver_name;
  config.cdi_root = options_.cdi_root;
  config.cdi_kind = options_.cdi_kind;
  config.checkpoint_path = endpoints_.checkpoint_file;
  config.serialize = options_.serialize;
  if (!options_.pod_uid.empty())
    config.serialize_lock_path = options_.plugin_data_directory + "/serialize.lock";
  preparer_ = std::make_unique<ClaimPreparer>(driver_, claims_, config);
  if (auto s = preparer_->Reconcile(); !s.ok())
    return Error{"recover prepared claims: " + s.error()};

  if (auto s = driver_.Start(*this); !s.ok()) return Error{"driver start: " + s.error()};
  driver_started_ = true;
  if (auto s = PublishResources(); !s.ok()) return s;
  worker_ = std::thread([this] { Work(); });

  // The DRA endpoint is served before the registration socket appears.
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
  if (!dra.ok()) return Error{dra.error()};
  dra_server_ = std::move(*dra);

  registration_service_ = NewRegistrationService(
      RegistrationInfo{options_.driver_name, endpoints_.dra_socket, endpoints_.supported_versions},
      registration_log_);
  auto reg = Serve(endpoints_.registration_socket, {registration_service_.get()});
  if (!reg.ok()) return Error{reg.error()};
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
    return Error{s.error()};
  }
  return std::unique_ptr<Plugin>(std::move(plugin));
}

int RunPlugin(Driver& driver, ClaimSource& claims, SlicePublisher& publisher,
              const PluginOptions& options) {
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
  int received = 0;
  sigwait(&signals, &received);
  std::cerr << "dra driver: " << (received == SIGTERM ? "SIGTERM" : "SIGINT")
            << ", shutting down\n";
  (*plugin)->Stop();
  return 0;
}

}  // namespace dra::driver

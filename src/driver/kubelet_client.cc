#include "driver/kubelet_client.h"

#include <grpcpp/grpcpp.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <set>
#include <system_error>
#include <utility>

#include "dra/util/system_error.h"
#include "driver/grpc_error_code.h"

namespace dra::driver {
namespace {

namespace fs = std::filesystem;
namespace drav1 = ::k8s::io::kubelet::pkg::apis::dra::v1;
namespace drav1beta1 = ::k8s::io::kubelet::pkg::apis::dra::v1beta1;

std::chrono::system_clock::time_point After(std::chrono::milliseconds d) {
  return std::chrono::system_clock::now() + d;
}

template <class Request>
Request ClaimsRequest(const std::vector<ClaimReference>& claims) {
  Request r;
  for (const ClaimReference& c : claims) {
    auto* out = r.add_claims();
    out->set_namespace_(c.namespace_);
    out->set_name(c.name);
    out->set_uid(c.uid);
  }
  return r;
}

// Go's rendering of a gRPC error, as the kubelet logs it.
std::string Describe(const grpc::Status& s) {
  static constexpr const char* kNames[] = {
      "OK",       "Canceled",       "Unknown",          "InvalidArgument",   "DeadlineExceeded",
      "NotFound", "AlreadyExists",  "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
      "Aborted",  "OutOfRange",     "Unimplemented",    "Internal",          "Unavailable",
      "DataLoss", "Unauthenticated"};
  auto code = static_cast<std::size_t>(s.error_code());
  std::string name = code < std::size(kNames) ? kNames[code] : "Code(" + std::to_string(code) + ")";
  return "rpc error: code = " + name + " desc = " + s.error_message();
}

// As the kubelet's DRA manager (prepareResources and unprepareResources in
// k8s.io/kubernetes/pkg/kubelet/cm/dra/manager.go): every answer belongs to a
// requested UID and every requested UID is answered.
template <class Map>
Status CheckAnswered(const char* rpc, const std::vector<ClaimReference>& claims,
                     const Map& answers) {
  std::set<std::string> asked;
  for (const ClaimReference& c : claims) asked.insert(c.uid);
  for (const auto& [uid, entry] : answers) {
    (void)entry;
    if (!asked.contains(uid)) {
      return Error{std::string(rpc) + ": returned result for unknown claim UID " + uid};
    }
  }
  std::size_t missing = asked.size() - answers.size();
  if (missing > 0) {
    return Error{std::string(rpc) + ": skipped " + std::to_string(missing) + " ResourceClaims"};
  }
  return {};
}

template <class Device>
PreparedDeviceIds FromWire(const Device& d) {
  PreparedDeviceIds out;
  out.request_names.assign(d.request_names().begin(), d.request_names().end());
  out.pool = d.pool_name();
  out.device = d.device_name();
  out.cdi_device_ids.assign(d.cdi_device_ids().begin(), d.cdi_device_ids().end());
  if constexpr (requires { d.has_share_id(); }) {
    if (d.has_share_id()) out.share_id = d.share_id();
  }
  return out;
}

template <class Response>
std::map<std::string, ClaimPrepareResult> PrepareResults(const Response& response) {
  std::map<std::string, ClaimPrepareResult> out;
  for (const auto& [uid, entry] : response.claims()) {
    ClaimPrepareResult& r = out[uid];
    r.error = entry.error();
    for (const auto& d : entry.devices()) r.devices.push_back(FromWire(d));
  }
  return out;
}

template <class Response>
std::map<std::string, std::string> UnprepareResults(const Response& response) {
  std::map<std::string, std::string> out;
  for (const auto& [uid, entry] : response.claims()) out[uid] = entry.error();
  return out;
}

// One DRAPlugin call with the kubelet's call options.
template <class Stub, class Request, class Response>
grpc::Status Invoke(Stub* stub,
                    grpc::Status (Stub::*rpc)(grpc::ClientContext*, const Request&, Response*),
                    const std::vector<ClaimReference>& claims, Response& out,
                    std::chrono::system_clock::time_point deadline) {
  if (stub == nullptr) {
    return {grpc::StatusCode::FAILED_PRECONDITION, "not connected to a plugin endpoint"};
  }
  grpc::ClientContext ctx;
  ctx.set_deadline(deadline);
  ctx.set_wait_for_ready(true);
  return (stub->*rpc)(&ctx, ClaimsRequest<Request>(claims), &out);
}

// `call` fills a Response; a gRPC error fails the whole call (as the kubelet
// treats it: k8s.io/kubernetes pkg/kubelet/cm/dra/manager.go), otherwise `convert` turns the answer
// into plain types.
template <class Response, class Call, class Convert>
auto Answer(const char* rpc, Call call, Convert convert)
    -> Result<decltype(convert(std::declval<const Response&>()))> {
  Response response;
  if (grpc::Status s = call(response); !s.ok())
    return Error{std::string(rpc) + ": " + Describe(s), GrpcErrorCode(s.error_code())};
  return convert(response);
}

bool IsSocket(const fs::path& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
}

}  // namespace

Result<std::vector<std::string>> ListRegistrationSockets(const std::string& registrar_directory) {
  std::error_code ec;
  fs::directory_iterator it(registrar_directory, ec);
  if (ec)
    return Error{"registration directory " + registrar_directory + ": " + ec.message(),
                 ErrnoCode(ec.value())};
  std::vector<std::string> out;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.filename().string().starts_with('.') || !IsSocket(p)) continue;
    out.push_back(p.string());
  }
  if (ec)
    return Error{"registration directory " + registrar_directory + ": " + ec.message(),
                 ErrnoCode(ec.value())};
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::string> FindRegistrationSocket(const std::string& registrar_directory,
                                           const std::string& driver_name,
                                           const KubeletClientOptions& options) {
  Result<std::vector<std::string>> sockets = ListRegistrationSockets(registrar_directory);
  if (!sockets) return sockets.failure();
  std::string seen;
  for (const std::string& socket : *sockets) {
    KubeletClient client(socket, options);
    pluginregistration::PluginInfo info;
    grpc::Status s = client.GetInfo(info);
    if (s.ok() && info.name() == driver_name) return socket;
    seen += (seen.empty() ? "" : ", ") + socket +
            (s.ok() ? " (driver " + info.name() + ")" : " (GetInfo: " + s.error_message() + ")");
  }
  return Error{"no registration socket of driver " + driver_name + " in " + registrar_directory +
                   (seen.empty() ? " (no sockets)" : " (found " + seen + ")"),
               ErrorCode::kNotFound};
}

KubeletClient::KubeletClient(std::string registration_socket, KubeletClientOptions options)
    : registration_socket_(std::move(registration_socket)),
      options_(options),
      reg_channel_(
          grpc::CreateChannel("unix:" + registration_socket_, grpc::InsecureChannelCredentials())),
      registration_(pluginregistration::Registration::NewStub(reg_channel_)) {}

KubeletClient::~KubeletClient() = default;

grpc::Status KubeletClient::GetInfo(pluginregistration::PluginInfo& info) {
  grpc::ClientContext ctx;
  // wait_for_ready stands for the kubelet's blocking dial.
  ctx.set_deadline(After(options_.dial_timeout + options_.get_info_timeout));
  ctx.set_wait_for_ready(true);
  grpc::Status s = registration_->GetInfo(&ctx, pluginregistration::InfoRequest(), &info);
  if (s.ok()) {
    info_ = info;
    Connect(info.endpoint().empty() ? registration_socket_ : info.endpoint());
  }
  return s;
}

grpc::Status KubeletClient::NotifyRegistrationStatus(bool registered, const std::string& error) {
  grpc::ClientContext ctx;
  ctx.set_deadline(After(options_.notify_timeout));
  pluginregistration::RegistrationStatus status;
  status.set_plugin_registered(registered);
  status.set_error(error);
  pluginregistration::RegistrationStatusResponse response;
  return registration_->NotifyRegistrationStatus(&ctx, status, &response);
}

Status KubeletClient::Register() {
  dra_service_.clear();
  pluginregistration::PluginInfo info;
  if (grpc::Status s = GetInfo(info); !s.ok()) {
    return Error{"GetInfo on " + registration_socket_ + ": " + Describe(s),
                 GrpcErrorCode(s.error_code())};
  }
  std::string rejection;
  if (info.type() != "DRAPlugin") {
    rejection = "no handler registered for plugin type: " + info.type() + " at socket " +
                registration_socket_;
  } else {
    for (const std::string& v : info.supported_versions()) {
      if (v == kDraPluginV1 || v == kDraPluginV1beta1) {
        dra_service_ = v;
        break;
      }
    }
    if (dra_service_.empty()) {
      std::string versions;
      for (const std::string& v : info.supported_versions()) {
        versions += (versions.empty() ? "" : " ") + v;
      }
      rejection = "plugin " + info.name() + " supports none of the DRAPlugin services " +
                  kDraPluginV1 + ", " + kDraPluginV1beta1 + " (it offers [" + versions + "])";
    }
  }
  if (!rejection.empty()) {
    // The plugin answers a rejection with an error after recording it.
    (void)NotifyRegistrationStatus(false, rejection);
    return Error{rejection};
  }
  if (grpc::Status s = NotifyRegistrationStatus(true); !s.ok()) {
    dra_service_.clear();
    return Error{"NotifyRegistrationStatus on " + registration_socket_ + ": " + Describe(s),
                 GrpcErrorCode(s.error_code())};
  }
  return {};
}

void KubeletClient::Connect(const std::string& endpoint) {
  channel_ = grpc::CreateChannel("unix:" + endpoint, grpc::InsecureChannelCredentials());
  v1_ = drav1::DRAPlugin::NewStub(channel_);
  v1beta1_ = drav1beta1::DRAPlugin::NewStub(channel_);
}

std::chrono::system_clock::time_point KubeletClient::CallDeadline(Deadline deadline) const {
  auto limit = After(options_.call_timeout);
  if (deadline) {
    auto left = *deadline - std::chrono::steady_clock::now();
    limit = std::min(limit, std::chrono::system_clock::now() +
                                std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                    std::max(left, std::chrono::steady_clock::duration::zero())));
  }
  return limit;
}

grpc::Status KubeletClient::PrepareV1(const std::vector<ClaimReference>& claims,
                                      drav1::NodePrepareResourcesResponse& out, Deadline deadline) {
  return Invoke(v1_.get(), &drav1::DRAPlugin::Stub::NodePrepareResources, claims, out,
                CallDeadline(deadline));
}

grpc::Status KubeletClient::UnprepareV1(const std::vector<ClaimReference>& claims,
                                        drav1::NodeUnprepareResourcesResponse& out,
                                        Deadline deadline) {
  return Invoke(v1_.get(), &drav1::DRAPlugin::Stub::NodeUnprepareResources, claims, out,
                CallDeadline(deadline));
}

grpc::Status KubeletClient::PrepareV1beta1(const std::vector<ClaimReference>& claims,
                                           drav1beta1::NodePrepareResourcesResponse& out,
                                           Deadline deadline) {
  return Invoke(v1beta1_.get(), &drav1beta1::DRAPlugin::Stub::NodePrepareResources, claims, out,
                CallDeadline(deadline));
}

grpc::Status KubeletClient::UnprepareV1beta1(const std::vector<ClaimReference>& claims,
                                             drav1beta1::NodeUnprepareResourcesResponse& out,
                                             Deadline deadline) {
  return Invoke(v1beta1_.get(), &drav1beta1::DRAPlugin::Stub::NodeUnprepareResources, claims, out,
                CallDeadline(deadline));
}

Result<std::map<std::string, ClaimPrepareResult>> KubeletClient::NodePrepareResources(
    const std::vector<ClaimReference>& claims, Deadline deadline) {
  const char* rpc = "NodePrepareResources";
  if (dra_service_.empty())
    return Error{std::string(rpc) + ": plugin is not registered", ErrorCode::kUnavailable};
  auto results = dra_service_ == kDraPluginV1
                     ? Answer<drav1::NodePrepareResourcesResponse>(
                           rpc, [&](auto& r) { return PrepareV1(claims, r, deadline); },
                           [](const auto& r) { return PrepareResults(r); })
                     : Answer<drav1beta1::NodePrepareResourcesResponse>(
                           rpc, [&](auto& r) { return PrepareV1beta1(claims, r, deadline); },
                           [](const auto& r) { return PrepareResults(r); });
  if (!results) return results;
  if (Status s = CheckAnswered(rpc, claims, *results); !s) return s.failure();
  return results;
}

Result<std::map<std::string, std::string>> KubeletClient::NodeUnprepareResources(
    const std::vector<ClaimReference>& claims, Deadline deadline) {
  const char* rpc = "NodeUnprepareResources";
  if (dra_service_.empty())
    return Error{std::string(rpc) + ": plugin is not registered", ErrorCode::kUnavailable};
  auto results = dra_service_ == kDraPluginV1
                     ? Answer<drav1::NodeUnprepareResourcesResponse>(
                           rpc, [&](auto& r) { return UnprepareV1(claims, r, deadline); },
                           [](const auto& r) { return UnprepareResults(r); })
                     : Answer<drav1beta1::NodeUnprepareResourcesResponse>(
                           rpc, [&](auto& r) { return UnprepareV1beta1(claims, r, deadline); },
                           [](const auto& r) { return UnprepareResults(r); });
  if (!results) return results;
  if (Status s = CheckAnswered(rpc, claims, *results); !s) return s.failure();
  return results;
}

}  // namespace dra::driver

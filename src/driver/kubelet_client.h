// The kubelet's side of a DRA kubelet plugin (as k8s.io/kubernetes pkg/kubelet/cm/dra/plugin does
// it): finding the registration socket, GetInfo, choosing the
// DRAPlugin version, NotifyRegistrationStatus, and NodePrepareResources /
// NodeUnprepareResources over the plugin's endpoint. Used by `dra simulate
// --prepare` and by the driver tests.
//
// Two levels: wire calls (GetInfo, PrepareV1, ...) that return the gRPC
// status and the protobuf answer unchanged, for conformance tests; and
// kubelet calls (Register, NodePrepareResources, ...) that apply the
// kubelet's rules and answer in plain types. Every call has a deadline.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dra/util/result.h"
#include "kubelet/dra/v1/api.grpc.pb.h"
#include "kubelet/dra/v1beta1/api.grpc.pb.h"
#include "kubelet/pluginregistration/v1/api.grpc.pb.h"

namespace dra::driver {

// The kubelet's timeouts (k8s.io/kubernetes pkg/kubelet/cm/dra/plugin/dra_plugin.go: 45 s per
// call).
struct KubeletClientOptions {
  std::chrono::milliseconds dial_timeout{10'000};  // blocking dial of the registration socket
  std::chrono::milliseconds get_info_timeout{1'000};
  std::chrono::milliseconds notify_timeout{5'000};
  std::chrono::milliseconds call_timeout{45'000};  // each prepare / unprepare call
};

// The DRAPlugin services a kubelet can use, in the kubelet's preference.
inline constexpr const char* kDraPluginV1 = "v1.DRAPlugin";
inline constexpr const char* kDraPluginV1beta1 = "v1beta1.DRAPlugin";

struct ClaimReference {
  std::string namespace_;
  std::string name;
  std::string uid;
};

// One device of a NodePrepareResources answer (v1 shape; v1beta1 answers
// have no share_id).
struct PreparedDeviceIds {
  std::vector<std::string> request_names;
  std::string pool;
  std::string device;
  std::vector<std::string> cdi_device_ids;
  std::optional<std::string> share_id;
};

// The answer for one claim: devices, or the plugin's per-claim error.
struct ClaimPrepareResult {
  std::vector<PreparedDeviceIds> devices;
  std::string error;
};

// The Unix sockets (names not starting with '.') directly in
// `registrar_directory`, sorted: what the kubelet's plugin watcher registers.
Result<std::vector<std::string>> ListRegistrationSockets(const std::string& registrar_directory);

// The registration socket in `registrar_directory` whose GetInfo names
// `driver_name`; an error names the directory and what was found.
Result<std::string> FindRegistrationSocket(const std::string& registrar_directory,
                                           const std::string& driver_name,
                                           const KubeletClientOptions& options = {});

class KubeletClient {
 public:
  // Creates (does not yet dial) a channel to the registration socket.
  explicit KubeletClient(std::string registration_socket, KubeletClientOptions options = {});
  ~KubeletClient();
  KubeletClient(const KubeletClient&) = delete;
  KubeletClient& operator=(const KubeletClient&) = delete;

  // An overall deadline that shortens a call's own timeout.
  using Deadline = std::optional<std::chrono::steady_clock::time_point>;

  // ---- Kubelet level -------------------------------------------------------

  // The kubelet's registration of this socket: GetInfo (waiting up to the
  // dial timeout for the socket to answer), checks the type ("DRAPlugin") and
  // picks the first of the plugin's versions the kubelet supports (v1, then
  // v1beta1), connects to the endpoint (the registration socket when empty)
  // and answers NotifyRegistrationStatus(true). A rejected plugin is told
  // why with NotifyRegistrationStatus(false, reason) and the reason is the error.
  Status Register();
  // The last GetInfo answer.
  const pluginregistration::PluginInfo& info() const { return info_; }
  // The DRAPlugin service Register chose (kDraPluginV1 or kDraPluginV1beta1);
  // empty before a successful Register.
  const std::string& dra_service() const { return dra_service_; }

  // One call with the chosen service, checked as the kubelet checks it: a gRPC error, an answer for
  // a UID that was not asked for or answers missing for some claims fail the whole call; per-claim
  // errors are returned per claim UID. `deadline` shortens the call timeout.
  Result<std::map<std::string, ClaimPrepareResult>> NodePrepareResources(
      const std::vector<ClaimReference>& claims, Deadline deadline = std::nullopt);
  // Per claim UID: the plugin's error, empty on success.
  Result<std::map<std::string, std::string>> NodeUnprepareResources(
      const std::vector<ClaimReference>& claims, Deadline deadline = std::nullopt);

  // ---- Wire level ----------------------------------------------------------

  // GetInfo with the dial timeout plus the GetInfo timeout; on success
  // records the answer (info()) and connects to its endpoint.
  grpc::Status GetInfo(pluginregistration::PluginInfo& info);
  grpc::Status NotifyRegistrationStatus(bool registered, const std::string& error = "");
  // Points the DRAPlugin calls at `endpoint` (a Unix socket path).
  void Connect(const std::string& endpoint);
  // Prepare / unprepare with one service; the deadline is the call timeout,
  // or `deadline` when that is sooner.
  grpc::Status PrepareV1(const std::vector<ClaimReference>& claims,
                         ::k8s::io::kubelet::pkg::apis::dra::v1::NodePrepareResourcesResponse& out,
                         Deadline deadline = std::nullopt);
  grpc::Status UnprepareV1(
      const std::vector<ClaimReference>& claims,
      ::k8s::io::kubelet::pkg::apis::dra::v1::NodeUnprepareResourcesResponse& out,
      Deadline deadline = std::nullopt);
  grpc::Status PrepareV1beta1(
      const std::vector<ClaimReference>& claims,
      ::k8s::io::kubelet::pkg::apis::dra::v1beta1::NodePrepareResourcesResponse& out,
      Deadline deadline = std::nullopt);
  grpc::Status UnprepareV1beta1(
      const std::vector<ClaimReference>& claims,
      ::k8s::io::kubelet::pkg::apis::dra::v1beta1::NodeUnprepareResourcesResponse& out,
      Deadline deadline = std::nullopt);
  // The channel to the endpoint (null before Connect), e.g. for health streams.
  std::shared_ptr<grpc::Channel> plugin_channel() const { return channel_; }

 private:
  std::chrono::system_clock::time_point CallDeadline(Deadline deadline) const;

  std::string registration_socket_;
  KubeletClientOptions options_;
  std::shared_ptr<grpc::Channel> reg_channel_;
  std::unique_ptr<pluginregistration::Registration::Stub> registration_;
  pluginregistration::PluginInfo info_;
  std::string dra_service_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<::k8s::io::kubelet::pkg::apis::dra::v1::DRAPlugin::Stub> v1_;
  std::unique_ptr<::k8s::io::kubelet::pkg::apis::dra::v1beta1::DRAPlugin::Stub> v1beta1_;
};

}  // namespace dra::driver

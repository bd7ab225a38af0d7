// DRAResourceHealth v1 and v1alpha1 (k8s.io/kubelet
// pkg/apis/dra-health): byte-identical
// messages in two packages, one template.
#include <ctime>

#include "driver/grpc_services.h"
#include "kubelet/dra-health/v1/api.grpc.pb.h"
#include "kubelet/dra-health/v1alpha1/api.grpc.pb.h"

namespace dra::driver {

void HealthBroadcast::Changed() {
  {
    MutexLock lock(mu_);
    ++version_;
  }
  cv_.NotifyAll();
}

void HealthBroadcast::Close() {
  {
    MutexLock lock(mu_);
    closed_ = true;
  }
  cv_.NotifyAll();
}

std::uint64_t HealthBroadcast::version() {
  MutexLock lock(mu_);
  return version_;
}

std::uint64_t HealthBroadcast::Wait(std::uint64_t seen, std::chrono::milliseconds period,
                                    bool& closed) {
  MutexLock lock(mu_);
  const auto deadline = std::chrono::steady_clock::now() + period;
  while (!closed_ && version_ == seen) {
    if (cv_.WaitUntil(mu_, deadline) == std::cv_status::timeout) break;
  }
  closed = closed_;
  return version_;
}

std::string TruncateHealthMessage(const std::string& message) {
  constexpr std::size_t kMax = 1024;
  if (message.size() <= kMax) return message;
  std::size_t end = kMax;
  // Step back over continuation bytes so no sequence is cut.
  while (end > 0 && (static_cast<unsigned char>(message[end]) & 0xC0) == 0x80) --end;
  return message.substr(0, end);
}

namespace {

template <class Service, class Request, class Response, class HealthStatus>
class HealthService final : public Service {
 public:
  explicit HealthService(const HealthServiceConfig& c) : c_(c) {}

  grpc::Status NodeWatchResources(grpc::ServerContext* context, const Request*,
                                  grpc::ServerWriter<Response>* writer) override {
    // Waits are cut into short steps so a cancelled stream ends promptly.
    constexpr std::chrono::milliseconds kCancelCheck{500};
    std::uint64_t seen = c_.broadcast->version();
    auto last_sent = std::chrono::steady_clock::time_point{};
    bool force = true;
    while (!context->IsCancelled()) {
      auto now = std::chrono::steady_clock::now();
      if (force || now - last_sent >= c_.resend_period) {
        if (!writer->Write(Snapshot())) break;
        last_sent = now;
        force = false;
      }
      auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(
          c_.resend_period - (std::chrono::steady_clock::now() - last_sent));
      bool closed = false;
      std::uint64_t v = c_.broadcast->Wait(
          seen, std::max(std::chrono::milliseconds(1), std::min(remaining, kCancelCheck)), closed);
      if (closed) break;
      if (v != seen) {
        seen = v;
        force = true;
      }
    }
    return grpc::Status::OK;
  }

 private:
  Response Snapshot() {
    Response response;
    auto now = static_cast<std::int64_t>(std::time(nullptr));
    for (const DeviceHealth& h : c_.driver->Health()) {
      auto* d = response.add_devices();
      d->mutable_device()->set_pool_name(h.pool.empty() ? c_.node_name : h.pool);
      d->mutable_device()->set_device_name(h.device);
      d->set_health(static_cast<HealthStatus>(static_cast<int>(h.health)));
      d->set_last_updated_time(now);
      d->set_health_check_timeout_seconds(h.timeout_seconds);
      d->set_message(TruncateHealthMessage(h.message));
    }
    return response;
  }

  HealthServiceConfig c_;
};

}  // namespace

std::unique_ptr<grpc::Service> NewHealthV1Service(const HealthServiceConfig& config) {
  return std::make_unique<
      HealthService<::v1::DRAResourceHealth::Service, ::v1::NodeWatchResourcesRequest,
                    ::v1::NodeWatchResourcesResponse, ::v1::HealthStatus>>(config);
}

std::unique_ptr<grpc::Service> NewHealthV1alpha1Service(const HealthServiceConfig& config) {
  return std::make_unique<
      HealthService<::v1alpha1::DRAResourceHealth::Service, ::v1alpha1::NodeWatchResourcesRequest,
                    ::v1alpha1::NodeWatchResourcesResponse, ::v1alpha1::HealthStatus>>(config);
}

}  // namespace dra::driver

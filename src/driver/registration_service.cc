// pluginregistration.Registration (k8s.io/kubelet pkg/apis/pluginregistration/v1).
#include "driver/grpc_services.h"
#include "kubelet/pluginregistration/v1/api.grpc.pb.h"

namespace dra::driver {

void RegistrationLog::Record(bool registered, const std::string& error) {
  MutexLock lock(mu_);
  status_ = registered ? "registered" : "rejected: " + error;
}

std::string RegistrationLog::Describe() const {
  MutexLock lock(mu_);
  return status_;
}

namespace {

class Registration final : public pluginregistration::Registration::Service {
 public:
  Registration(RegistrationInfo info, RegistrationLog& log) : info_(std::move(info)), log_(log) {}

  grpc::Status GetInfo(grpc::ServerContext*, const pluginregistration::InfoRequest*,
                       pluginregistration::PluginInfo* out) override {
    out->set_type("DRAPlugin");
    out->set_name(info_.driver_name);
    out->set_endpoint(info_.endpoint);
    for (const auto& v : info_.supported_versions) out->add_supported_versions(v);
    return grpc::Status::OK;
  }

  grpc::Status NotifyRegistrationStatus(grpc::ServerContext*,
                                        const pluginregistration::RegistrationStatus* status,
                                        pluginregistration::RegistrationStatusResponse*) override {
    log_.Record(status->plugin_registered(), status->error());
    if (!status->plugin_registered()) {
      // As the Go helper does: recorded, then answered with an error. The
      // plugin keeps serving; the kubelet retries registration from scratch.
      return {grpc::StatusCode::UNKNOWN, "registration failed: " + status->error()};
    }
    return grpc::Status::OK;
  }

 private:
  RegistrationInfo info_;
  RegistrationLog& log_;
};

}  // namespace

std::unique_ptr<grpc::Service> NewRegistrationService(RegistrationInfo info, RegistrationLog& log) {
  return std::make_unique<Registration>(std::move(info), log);
}

}  // namespace dra::driver

// DRAPlugin v1 and v1beta1 (k8s.io/kubelet pkg/apis/dra/v1 and v1beta1).
#include <set>

#include "driver/grpc_services.h"
#include "kubelet/dra/v1/api.grpc.pb.h"
#include "kubelet/dra/v1beta1/api.grpc.pb.h"

namespace dra::driver {
namespace {

namespace v1 = ::k8s::io::kubelet::pkg::apis::dra::v1;
namespace v1beta1 = ::k8s::io::kubelet::pkg::apis::dra::v1beta1;

// Every claim must name itself fully; the UID is the response key.
grpc::Status CheckClaims(const google::protobuf::RepeatedPtrField<v1::Claim>& claims) {
  for (int i = 0; i < claims.size(); ++i) {
    const auto& c = claims[i];
    std::string where = "claims[" + std::to_string(i) + "]";
    if (c.uid().empty()) return {grpc::StatusCode::INVALID_ARGUMENT, where + ".uid: required"};
    if (c.name().empty()) return {grpc::StatusCode::INVALID_ARGUMENT, where + ".name: required"};
    if (c.namespace_().empty()) {
      return {grpc::StatusCode::INVALID_ARGUMENT, where + ".namespace: required"};
    }
  }
  return grpc::Status::OK;
}

grpc::Status Prepare(ClaimPreparer& preparer, const v1::NodePrepareResourcesRequest& request,
                     v1::NodePrepareResourcesResponse& response) {
  if (auto s = CheckClaims(request.claims()); !s.ok()) return s;
  for (const auto& c : request.claims()) {
    if (response.claims().count(c.uid()) != 0) continue;  // a repeated claim
    Result<std::vector<PreparedDeviceRecord>> outcome =
        preparer.Prepare(ClaimRef{c.namespace_(), c.uid(), c.name()});
    v1::NodePrepareResourceResponse& entry = (*response.mutable_claims())[c.uid()];
    if (!outcome.ok()) {
      entry.set_error(outcome.error());
      continue;
    }
    for (const auto& d : *outcome) {
      v1::Device* device = entry.add_devices();
      for (const auto& r : d.request_names) device->add_request_names(r);
      device->set_pool_name(d.pool);
      device->set_device_name(d.device);
      for (const auto& id : d.cdi_device_ids) device->add_cdi_device_ids(id);
      if (d.share_id) device->set_share_id(*d.share_id);
    }
  }
  return grpc::Status::OK;
}

grpc::Status Unprepare(ClaimPreparer& preparer, const v1::NodeUnprepareResourcesRequest& request,
                       v1::NodeUnprepareResourcesResponse& response) {
  if (auto s = CheckClaims(request.claims()); !s.ok()) return s;
  for (const auto& c : request.claims()) {
    if (response.claims().count(c.uid()) != 0) continue;
    Status s = preparer.Unprepare(ClaimRef{c.namespace_(), c.uid(), c.name()});
    (*response.mutable_claims())[c.uid()].set_error(s.ok() ? std::string() : s.error());
  }
  return grpc::Status::OK;
}

class DraV1 final : public v1::DRAPlugin::Service {
 public:
  explicit DraV1(ClaimPreparer& p) : p_(p) {}
  grpc::Status NodePrepareResources(grpc::ServerContext*,
                                    const v1::NodePrepareResourcesRequest* req,
                                    v1::NodePrepareResourcesResponse* resp) override {
    return Prepare(p_, *req, *resp);
  }
  grpc::Status NodeUnprepareResources(grpc::ServerContext*,
                                      const v1::NodeUnprepareResourcesRequest* req,
                                      v1::NodeUnprepareResourcesResponse* resp) override {
    return Unprepare(p_, *req, *resp);
  }

 private:
  ClaimPreparer& p_;
};

template <class From, class To>
void CopyClaims(const From& from, To& to) {
  for (const auto& c : from.claims()) {
    auto* out = to.add_claims();
    out->set_namespace_(c.namespace_());
    out->set_uid(c.uid());
    out->set_name(c.name());
  }
}

// v1beta1 is served by converting to v1 and back; share_id has no v1beta1
// field and is dropped.
class DraV1beta1 final : public v1beta1::DRAPlugin::Service {
 public:
  explicit DraV1beta1(ClaimPreparer& p) : p_(p) {}
  grpc::Status NodePrepareResources(grpc::ServerContext*,
                                    const v1beta1::NodePrepareResourcesRequest* req,
                                    v1beta1::NodePrepareResourcesResponse* resp) override {
    v1::NodePrepareResourcesRequest request;
    CopyClaims(*req, request);
    v1::NodePrepareResourcesResponse response;
    if (auto s = Prepare(p_, request, response); !s.ok()) return s;
    for (const auto& [uid, entry] : response.claims()) {
      auto& out = (*resp->mutable_claims())[uid];
      out.set_error(entry.error());
      for (const auto& d : entry.devices()) {
        auto* device = out.add_devices();
        *device->mutable_request_names() = d.request_names();
        device->set_pool_name(d.pool_name());
        device->set_device_name(d.device_name());
        *device->mutable_cdi_device_ids() = d.cdi_device_ids();
      }
    }
    return grpc::Status::OK;
  }
  grpc::Status NodeUnprepareResources(grpc::ServerContext*,
                                      const v1beta1::NodeUnprepareResourcesRequest* req,
                                      v1beta1::NodeUnprepareResourcesResponse* resp) override {
    v1::NodeUnprepareResourcesRequest request;
    CopyClaims(*req, request);
    v1::NodeUnprepareResourcesResponse response;
    if (auto s = Unprepare(p_, request, response); !s.ok()) return s;
    for (const auto& [uid, entry] : response.claims()) {
      (*resp->mutable_claims())[uid].set_error(entry.error());
    }
    return grpc::Status::OK;
  }

 private:
  ClaimPreparer& p_;
};

}  // namespace

std::unique_ptr<grpc::Service> NewDraV1Service(ClaimPreparer& preparer) {
  return std::make_unique<DraV1>(preparer);
}
std::unique_ptr<grpc::Service> NewDraV1beta1Service(ClaimPreparer& preparer) {
  return std::make_unique<DraV1beta1>(preparer);
}

}  // namespace dra::driver

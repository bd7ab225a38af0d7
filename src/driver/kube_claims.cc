// Claims from the Kubernetes API: the claim source, device status writes and
// the Node UID lookup.
#include <optional>

#include "dra/api/codec.h"
#include "dra/driver/kubernetes.h"
#include "dra/json/value.h"
#include "dra/kube/resource_client.h"
#include "dra/util/mutex.h"

namespace dra::driver {
namespace {

class KubeClaimSource final : public ClaimSource {
 public:
  explicit KubeClaimSource(std::shared_ptr<kube::Client> client) : client_(std::move(client)) {}

  Result<api::ResourceClaim> Get(const std::string& namespace_, const std::string& name) override {
    auto typed = Typed();
    if (!typed) return typed.failure();
    auto claim = (*typed)->Get<api::ResourceClaim>(namespace_, name);
    if (!claim) {
      return claim.failure().WithPrefix("get ResourceClaim " + namespace_ + "/" + name + ": ");
    }
    return std::move(*claim);
  }

  Result<bool> Exists(const std::string& namespace_, const std::string& name,
                      const std::string& uid) override {
    auto typed = Typed();
    if (!typed) return typed.failure();
    auto claim = (*typed)->Get<api::ResourceClaim>(namespace_, name);
    if (!claim) {
      if (claim.error().IsNotFound()) return false;
      return claim.failure().WithPrefix("get ResourceClaim " + namespace_ + "/" + name + ": ");
    }
    return claim->metadata.uid == uid;
  }

 private:
  Result<kube::TypedClient*> Typed() DRA_EXCLUDES(mu_) {
    MutexLock lock(mu_);
    if (!typed_) {
      auto discovered = kube::TypedClient::New(client_);
      if (!discovered) {
        return discovered.failure().WithPrefix("discover resource.k8s.io: ");
      }
      typed_.emplace(std::move(*discovered));
    }
    return &*typed_;
  }

  std::shared_ptr<kube::Client> client_;
  Mutex mu_;
  // Set once, then only read: the pointer Typed returns lives as long as this.
  std::optional<kube::TypedClient> typed_ DRA_GUARDED_BY(mu_);
};

}  // namespace

std::unique_ptr<ClaimSource> NewKubeClaimSource(std::shared_ptr<kube::Client> client) {
  return std::make_unique<KubeClaimSource>(std::move(client));
}

namespace {

class KubeDeviceStatusWriter final : public DeviceStatusWriter {
 public:
  KubeDeviceStatusWriter(std::shared_ptr<kube::Client> client, std::string driver_name,
                         std::string field_manager)
      : client_(std::move(client)),
        driver_name_(std::move(driver_name)),
        field_manager_(field_manager.empty() ? std::string(driver_name_)
                                             : std::move(field_manager)) {}

  Status Write(const std::string& namespace_, const std::string& name,
               const std::vector<api::AllocatedDeviceStatus>& devices) override;

 private:
  std::shared_ptr<kube::Client> client_;
  const std::string driver_name_;
  const std::string field_manager_;
};

}  // namespace

std::unique_ptr<DeviceStatusWriter> NewKubeDeviceStatusWriter(std::shared_ptr<kube::Client> client,
                                                              std::string driver_name,
                                                              std::string field_manager) {
  return std::make_unique<KubeDeviceStatusWriter>(std::move(client), std::move(driver_name),
                                                  std::move(field_manager));
}

Status KubeDeviceStatusWriter::Write(const std::string& namespace_, const std::string& name,
                                     const std::vector<api::AllocatedDeviceStatus>& devices) {
  api::ResourceClaim claim;
  claim.metadata.name = name;
  claim.metadata.namespace_ = namespace_;
  for (api::AllocatedDeviceStatus d : devices) {
    if (d.driver.empty()) d.driver = driver_name_;
    if (d.driver != driver_name_) {
      return Error{"status of device " + d.pool + "/" + d.device + ": driver " + d.driver +
                   " is not " + driver_name_};
    }
    claim.status.devices.push_back(std::move(d));
  }
  claim.status.devices.set_present();
  auto encoded = api::EncodeObject(claim, api::ApiVersion::kV1);
  if (!encoded) return encoded.failure().WithPrefix("encode device status: ");
  auto tree = json::ParseJson(*encoded);
  if (!tree) return tree.failure().WithPrefix("encode device status: ");
  const json::Value* status = tree->Find("status");
  const json::Value* list = status != nullptr ? status->Find("devices") : nullptr;
  // Only identity and status.devices go into the apply configuration, so
  // this field manager owns nothing else.
  std::string body =
      R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":)" +
      json::ToJson(json::Value::String(name)) + R"(,"namespace":)" +
      json::ToJson(json::Value::String(namespace_)) + R"(},"status":{"devices":)" +
      (list != nullptr ? json::ToJson(*list) : std::string("[]")) + "}}";
  kube::ObjectClient objects(client_);
  kube::WriteOptions options;
  options.field_manager = field_manager_;
  auto patched = objects.Patch(kube::ResourceClaims(api::ApiVersion::kV1), namespace_, name,
                               kube::PatchType::kApply, body, options, /*force=*/true, "status");
  if (!patched) {
    return patched.failure().WithPrefix("write status.devices of ResourceClaim " + namespace_ +
                                        "/" + name + ": ");
  }
  return {};
}

Result<std::string> GetNodeUid(kube::Client& client, const std::string& node_name) {
  kube::ObjectClient objects(std::shared_ptr<kube::Client>(&client, [](kube::Client*) {}));
  auto node = objects.Get(kube::Nodes(), "", node_name);
  if (!node) return node.failure().WithPrefix("get Node " + node_name + ": ");
  const json::Value* meta = node->Find("metadata");
  const json::Value* uid = meta != nullptr && meta->is_object() ? meta->Find("uid") : nullptr;
  if (uid == nullptr || !uid->is_string() || uid->text.empty()) {
    return Error{"get Node " + node_name + ": the answer has no metadata.uid"};
  }
  return uid->text;
}

}  // namespace dra::driver

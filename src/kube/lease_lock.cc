// NewLeaseLock: the election record kept in a coordination.k8s.io/v1 Lease.
#include <optional>
#include <utility>

#include "dra/kube/leader_election.h"

namespace dra::kube {
namespace {

const json::Value* Member(const json::Value& v, std::string_view key) {
  return v.is_object() ? v.Find(key) : nullptr;
}

void Set(json::Value& object, std::string key, json::Value value) {
  for (json::Member& m : object.members) {
    if (m.key == key) {
      m.value = std::move(value);
      return;
    }
  }
  json::Member m;
  m.key = std::move(key);
  m.value = std::move(value);
  object.members.push_back(std::move(m));
}

int IntOf(const json::Value* v) {
  if (v == nullptr || v->kind != json::Kind::kNumber) return 0;
  try {
    return std::stoi(v->text);
  } catch (...) {
    return 0;
  }
}

ApiResult<LeaderElectionRecord> RecordOf(const json::Value& lease) {
  LeaderElectionRecord r;
  const json::Value* spec = Member(lease, "spec");
  if (spec == nullptr || !spec->is_object()) return r;
  if (const json::Value* v = Member(*spec, "holderIdentity"); v && v->is_string()) {
    r.holder_identity = v->text;
  }
  r.lease_duration_seconds = IntOf(Member(*spec, "leaseDurationSeconds"));
  r.lease_transitions = IntOf(Member(*spec, "leaseTransitions"));
  for (auto [key, out] :
       {std::pair{"acquireTime", &r.acquire_time}, std::pair{"renewTime", &r.renew_time}}) {
    const json::Value* v = Member(*spec, key);
    if (v == nullptr || !v->is_string()) continue;
    Result<std::chrono::system_clock::time_point> t = ParseMicroTime(v->text);
    if (!t.ok()) return ApiError::Protocol("Lease spec." + std::string(key) + ": " + t.error());
    *out = *t;
  }
  if (const json::Value* v = Member(*spec, "strategy"); v && v->is_string()) r.strategy = v->text;
  if (const json::Value* v = Member(*spec, "preferredHolder"); v && v->is_string()) {
    r.preferred_holder = v->text;
  }
  return r;
}

json::Value SpecOf(const LeaderElectionRecord& r) {
  json::Value spec = json::Value::Object();
  Set(spec, "holderIdentity", json::Value::String(r.holder_identity));
  Set(spec, "leaseDurationSeconds", json::Value::Number(std::to_string(r.lease_duration_seconds)));
  Set(spec, "acquireTime", json::Value::String(FormatMicroTime(r.acquire_time)));
  Set(spec, "renewTime", json::Value::String(FormatMicroTime(r.renew_time)));
  Set(spec, "leaseTransitions", json::Value::Number(std::to_string(r.lease_transitions)));
  if (!r.preferred_holder.empty()) {
    Set(spec, "preferredHolder", json::Value::String(r.preferred_holder));
  }
  if (!r.strategy.empty()) Set(spec, "strategy", json::Value::String(r.strategy));
  return spec;
}

class ApiLeaseLock : public LeaseLock {
 public:
  ApiLeaseLock(ObjectClient objects, std::string ns, std::string name,
               std::map<std::string, std::string> labels)
      : objects_(std::move(objects)),
        ns_(std::move(ns)),
        name_(std::move(name)),
        labels_(std::move(labels)) {}

  ApiResult<LeaderElectionRecord> Get() override {
    ApiResult<json::Value> lease = objects_.Get(Leases(), ns_, name_);
    if (!lease.ok()) return lease.error();
    lease_ = std::move(lease).value();
    return RecordOf(*lease_);
  }

  ApiStatus Create(const LeaderElectionRecord& record) override {
    json::Value lease = json::Value::Object();
    Set(lease, "apiVersion", json::Value::String("coordination.k8s.io/v1"));
    Set(lease, "kind", json::Value::String("Lease"));
    json::Value meta = json::Value::Object();
    Set(meta, "name", json::Value::String(name_));
    Set(meta, "namespace", json::Value::String(ns_));
    if (!labels_.empty()) Set(meta, "labels", Labels(json::Value::Object()));
    Set(lease, "metadata", std::move(meta));
    Set(lease, "spec", SpecOf(record));
    ApiResult<json::Value> created = objects_.Create(Leases(), ns_, lease);
    if (!created.ok()) return created.error();
    lease_ = std::move(created).value();
    return Done{};
  }

  ApiStatus Update(const LeaderElectionRecord& record) override {
    if (!lease_) return ApiError::Protocol("lease not initialized, call get or create first");
    json::Value lease = *lease_;
    Set(lease, "spec", SpecOf(record));
    if (!labels_.empty()) {
      for (json::Member& m : lease.members) {
        if (m.key != "metadata" || !m.value.is_object()) continue;
        const json::Value* existing = Member(m.value, "labels");
        Set(m.value, "labels",
            Labels(existing != nullptr && existing->is_object() ? *existing
                                                                : json::Value::Object()));
      }
    }
    ApiResult<json::Value> updated = objects_.Update(Leases(), ns_, lease);
    if (!updated.ok()) return updated.error();
    lease_ = std::move(updated).value();
    return Done{};
  }

  std::string Describe() const override { return ns_ + "/" + name_; }

 private:
  json::Value Labels(json::Value into) const {
    for (const auto& [k, v] : labels_) Set(into, k, json::Value::String(v));
    return into;
  }

  ObjectClient objects_;
  std::string ns_, name_;
  std::map<std::string, std::string> labels_;
  std::optional<json::Value> lease_;  // as last read or written
};

}  // namespace

std::unique_ptr<LeaseLock> NewLeaseLock(ObjectClient objects, std::string ns, std::string name,
                                        std::map<std::string, std::string> labels) {
  return std::make_unique<ApiLeaseLock>(std::move(objects), std::move(ns), std::move(name),
                                        std::move(labels));
}

}  // namespace dra::kube

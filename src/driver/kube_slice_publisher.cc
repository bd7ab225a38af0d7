// SlicePublisher on the Kubernetes API.
#include <optional>
#include <set>

#include "dra/driver/kubernetes.h"
#include "dra/kube/resource_client.h"
#include "dra/util/mutex.h"
#include "driver/kube_event_recorder.h"

namespace dra::driver {
namespace {

// Gives the taints of `sent` that have no timeAdded the time the server
// stored for the same key, value and effect: the API server stamps taints it
// stores, which is not a change the driver made.
api::ResourceSliceSpec WithStoredTaintTimes(api::ResourceSliceSpec sent,
                                            const api::ResourceSliceSpec& stored) {
  for (std::size_t i = 0; i < sent.devices.size() && i < stored.devices.size(); ++i) {
    for (auto& taint : sent.devices[i].taints) {
      if (taint.time_added.set) continue;
      for (const auto& s : stored.devices[i].taints) {
        if (s.key == taint.key && s.value == taint.value && s.effect == taint.effect) {
          taint.time_added = s.time_added;
        }
      }
    }
  }
  return sent;
}

// The feature gates whose fields `sent` has and `stored` lacks.
std::set<std::string> DroppedFeatures(const api::ResourceSliceSpec& sent,
                                      const api::ResourceSliceSpec& stored) {
  std::set<std::string> out;
  if (!sent.shared_counters.empty() && stored.shared_counters.empty()) {
    out.insert("DRAPartitionableDevices");
  }
  for (std::size_t i = 0; i < sent.devices.size() && i < stored.devices.size(); ++i) {
    const api::Device& a = sent.devices[i];
    const api::Device& b = stored.devices[i];
    if (!a.taints.empty() && b.taints.empty()) out.insert("DRADeviceTaints");
    if (!a.consumes_counters.empty() && b.consumes_counters.empty()) {
      out.insert("DRAPartitionableDevices");
    }
    if ((a.binds_to_node && !b.binds_to_node) ||
        (!a.binding_conditions.empty() && b.binding_conditions.empty())) {
      out.insert("DRADeviceBindingConditions");
    }
    if (a.allow_multiple_allocations && !b.allow_multiple_allocations) {
      out.insert("DRAConsumableCapacity");
    }
    for (const auto& [name, c] : a.capacity) {
      auto it = b.capacity.find(name);
      if (c.request_policy && (it == b.capacity.end() || !it->second.request_policy)) {
        out.insert("DRAConsumableCapacity");
      }
    }
  }
  return out;
}

class KubeSlicePublisher final : public SlicePublisher {
 public:
  KubeSlicePublisher(std::shared_ptr<kube::Client> client, KubeSlicePublisherOptions options)
      : client_(std::move(client)),
        options_(std::move(options)),
        events_(client_, options_.event_target,
                options_.field_manager.empty() ? options_.driver_name : options_.field_manager,
                options_.node_name) {}

  Result<std::vector<api::ResourceSlice>> List() override {
    MutexLock lock(mu_);
    auto typed = Typed();
    if (!typed) return Fail(typed.failure());
    kube::ListOptions list_options;
    list_options.field_selector =
        "spec.driver=" + options_.driver_name + ",spec.nodeName=" + options_.node_name;
    auto listed = (*typed)->List<api::ResourceSlice>("", list_options);
    if (!listed) {
      return Fail(listed.failure().WithPrefix("list ResourceSlices (" +
                                              list_options.field_selector + "): "));
    }
    listed_.clear();
    std::map<std::string, Memo> memo;
    for (api::ResourceSlice& s : *listed) {
      // A slice unchanged since this publisher wrote it stands for what was
      // sent, so server-side normalization is not mistaken for a change.
      auto it = memo_.find(s.metadata.name);
      if (it != memo_.end() && it->second.resource_version == s.metadata.resource_version) {
        s.spec = it->second.sent;
        memo.insert(*it);
      }
      listed_[s.metadata.name] = s;
    }
    memo_ = std::move(memo);
    return std::move(*listed);
  }

  Status Publish(const std::vector<api::ResourceSlice>& slices) override {
    MutexLock lock(mu_);
    auto typed = Typed();
    if (!typed) return Fail(typed.failure());
    kube::TypedClient& api = **typed;
    std::vector<Error> problems;
    std::set<std::string> keep;
    for (const auto& s : slices) {
      if (!s.metadata.name.empty()) keep.insert(s.metadata.name);
    }
    // Obsolete slices go first, so that vanished devices disappear even when
    // the new slices cannot be written.
    for (const auto& [name, old] : listed_) {
      if (keep.count(name) != 0) continue;
      kube::DeleteOptions del;
      del.precondition_uid = old.metadata.uid;
      del.precondition_resource_version = old.metadata.resource_version;
      auto deleted = api.Delete<api::ResourceSlice>("", name, del);
      if (!deleted && !deleted.error().IsNotFound()) {
        problems.push_back(deleted.failure().WithPrefix("delete ResourceSlice " + name + ": "));
      }
      memo_.erase(name);
    }
    kube::WriteOptions write;
    write.field_manager =
        options_.field_manager.empty() ? options_.driver_name : options_.field_manager;
    for (const auto& s : slices) {
      if (s.metadata.name.empty()) continue;
      auto it = listed_.find(s.metadata.name);
      if (it != listed_.end() && it->second.spec == s.spec &&
          it->second.metadata.owner_references == s.metadata.owner_references) {
        continue;
      }
      auto stored = it == listed_.end() ? api.Create(s, write) : api.Update(s, write);
      Record(s, stored, problems);
    }
    for (const auto& s : slices) {
      if (!s.metadata.name.empty()) continue;
      Record(s, api.Create(s, write), problems);
    }
    listed_.clear();  // stale now: the next Publish follows a List
    if (problems.empty()) return {};
    // The first problem's kind stands for all of them.
    Error all = problems.front();
    for (std::size_t i = 1; i < problems.size(); ++i) all.message += "; " + problems[i].message;
    return Fail(std::move(all));
  }

 private:
  struct Memo {
    std::string resource_version;  // of the object the write returned
    api::ResourceSliceSpec sent;
  };

  Result<kube::TypedClient*> Typed() DRA_REQUIRES(mu_) {
    if (!typed_) {
      auto typed = kube::TypedClient::New(client_);
      if (!typed) {
        return typed.failure().WithPrefix("discover resource.k8s.io: ");
      }
      typed_.emplace(std::move(*typed));
    }
    return &*typed_;
  }

  void Record(const api::ResourceSlice& sent, const kube::ApiResult<api::ResourceSlice>& stored,
              std::vector<Error>& problems) DRA_REQUIRES(mu_) {
    std::string what = sent.metadata.name.empty()
                           ? "create ResourceSlice " + sent.metadata.generate_name + "*"
                           : "write ResourceSlice " + sent.metadata.name;
    if (!stored) {
      problems.push_back(stored.failure().WithPrefix(what + ": "));
      return;
    }
    api::ResourceSliceSpec compared = WithStoredTaintTimes(sent.spec, stored->spec);
    memo_[stored->metadata.name] = Memo{stored->metadata.resource_version, compared};
    if (compared == stored->spec) return;
    std::set<std::string> features = DroppedFeatures(sent.spec, stored->spec);
    std::string message =
        "ResourceSlice " + stored->metadata.name + ": the API server dropped fields that were sent";
    if (!features.empty()) {
      message += "; probably disabled feature gates:";
      for (const auto& f : features) message += " " + f;
    }
    problems.push_back(Error{message});
  }

  // The error, also posted as a Warning Event on the node.
  Error Fail(Error error) {
    if (auto s = events_.Warn("FailedPublishResourceSlices", error.message); !s) {
      error.message += " (and " + s.error() + ")";
    }
    return error;
  }

  std::shared_ptr<kube::Client> client_;
  const KubeSlicePublisherOptions options_;
  KubeEventRecorder events_;
  Mutex mu_;  // held for all of a List or Publish
  std::optional<kube::TypedClient> typed_ DRA_GUARDED_BY(mu_);
  std::map<std::string, api::ResourceSlice> listed_ DRA_GUARDED_BY(mu_);  // from the last List
  std::map<std::string, Memo> memo_ DRA_GUARDED_BY(mu_);  // slices this publisher wrote
};

}  // namespace

std::unique_ptr<SlicePublisher> NewKubeSlicePublisher(std::shared_ptr<kube::Client> client,
                                                      KubeSlicePublisherOptions options) {
  return std::make_unique<KubeSlicePublisher>(std::move(client), std::move(options));
}

}  // namespace dra::driver

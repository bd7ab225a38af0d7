// LoadLiveCluster: kubectl's configuration, then one paged list per kind,
// the lists running side by side over the client's shared connection.
#include "cli/live_cluster.h"

#include <future>
#include <optional>
#include <string>
#include <utility>

#include "dra/kube/api_error.h"
#include "dra/kube/client.h"
#include "dra/kube/resource_client.h"

namespace dra::cli {
namespace {

template <class T>
kube::ApiResult<std::vector<T>> ListAll(kube::TypedClient client) {
  return client.List<T>("");
}

}  // namespace

Result<LiveCluster> LoadLiveCluster(const kube::ConfigFlags& flags) {
  Result<kube::RestConfig> config = kube::LoadRestConfig(flags, kube::Environment::FromProcess());
  if (!config.ok()) return Error{config.error()};
  // A one-shot reader: kubectl's own client limits (50/300) suit eight
  // parallel lists better than the 5/10 meant for controllers.
  config->qps = 50;
  config->burst = 300;
  LiveCluster out;
  out.namespace_ = config->namespace_.empty() ? "default" : config->namespace_;
  out.server = config->server;
  Result<std::shared_ptr<kube::Client>> client = kube::Client::New(*config);
  if (!client.ok()) return Error{"error: " + client.error()};
  kube::ApiResult<kube::TypedClient> typed = kube::TypedClient::New(*client);
  if (!typed.ok()) return Error{kube::KubectlErrorText(typed.error())};

  auto nodes = std::async(std::launch::async, ListAll<api::Node>, *typed);
  auto pods = std::async(std::launch::async, ListAll<api::Pod>, *typed);
  auto claims = std::async(std::launch::async, ListAll<api::ResourceClaim>, *typed);
  auto templates = std::async(std::launch::async, ListAll<api::ResourceClaimTemplate>, *typed);
  auto classes = std::async(std::launch::async, ListAll<api::DeviceClass>, *typed);
  auto slices = std::async(std::launch::async, ListAll<api::ResourceSlice>, *typed);
  auto rules = std::async(std::launch::async, ListAll<api::DeviceTaintRule>, *typed);
  auto namespaces = std::async(std::launch::async, ListAll<api::Namespace>, *typed);

  std::string errors;
  auto take = [&errors](auto& future, auto& into, bool optional_kind) {
    auto r = future.get();
    if (r.ok()) {
      into = std::move(r).value();
      return;
    }
    // DeviceTaintRules are not served by every version (v1beta1) or cluster.
    if (optional_kind && r.error().IsNotFound()) return;
    std::string e = kube::KubectlErrorText(r.error());
    if (errors.find(e) == std::string::npos) errors += (errors.empty() ? "" : "\n") + e;
  };
  scheduler::Cluster& c = out.cluster;
  take(nodes, c.nodes, false);
  take(pods, c.pods, false);
  take(claims, c.claims, false);
  take(templates, c.templates, false);
  take(classes, c.classes, false);
  take(slices, c.slices, false);
  take(rules, c.taint_rules, true);
  take(namespaces, out.namespaces, false);
  if (!errors.empty()) return Error{errors};
  return out;
}

}  // namespace dra::cli

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

Result<LiveReader> ConnectLiveReader(const kube::ConfigFlags& flags) {
  Result<kube::RestConfig> config = kube::LoadRestConfig(flags, kube::Environment::FromProcess());
  if (!config.ok()) return config.failure();
  config->qps = 50;
  config->burst = 300;
  Result<std::shared_ptr<kube::Client>> client = kube::Client::New(*config);
  if (!client.ok()) return client.failure().WithPrefix("error: ");
  kube::ApiResult<kube::TypedClient> typed = kube::TypedClient::New(*client);
  if (!typed.ok()) return typed.failure();
  return LiveReader{std::move(typed).value(), config->namespace_, config->server};
}

void ListOutcomes::Add(const Error& error) {
  if (!failure_) {
    failure_ = error;
  } else if (failure_->message.find(error.message) == std::string::npos) {
    failure_->message += "\n" + error.message;
  }
}

Result<LiveCluster> LoadLiveCluster(const kube::ConfigFlags& flags) {
  Result<LiveReader> reader = ConnectLiveReader(flags);
  if (!reader.ok()) return reader.failure();
  LiveCluster out;
  out.namespace_ = reader->namespace_.empty() ? "default" : reader->namespace_;
  out.server = reader->server;
  const kube::TypedClient& typed = reader->client;

  auto nodes = std::async(std::launch::async, ListAll<api::Node>, typed);
  auto pods = std::async(std::launch::async, ListAll<api::Pod>, typed);
  auto claims = std::async(std::launch::async, ListAll<api::ResourceClaim>, typed);
  auto templates = std::async(std::launch::async, ListAll<api::ResourceClaimTemplate>, typed);
  auto classes = std::async(std::launch::async, ListAll<api::DeviceClass>, typed);
  auto slices = std::async(std::launch::async, ListAll<api::ResourceSlice>, typed);
  auto rules = std::async(std::launch::async, ListAll<api::DeviceTaintRule>, typed);
  auto namespaces = std::async(std::launch::async, ListAll<api::Namespace>, typed);

  ListOutcomes lists;
  scheduler::Cluster& c = out.cluster;
  lists.Take(nodes.get(), c.nodes, false);
  lists.Take(pods.get(), c.pods, false);
  lists.Take(claims.get(), c.claims, false);
  lists.Take(templates.get(), c.templates, false);
  lists.Take(classes.get(), c.classes, false);
  lists.Take(slices.get(), c.slices, false);
  lists.Take(rules.get(), c.taint_rules, true);
  lists.Take(namespaces.get(), out.namespaces, false);
  if (!lists.ok()) return lists.failure();
  return out;
}

}  // namespace dra::cli

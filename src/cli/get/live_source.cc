// The live source of `dra get`: kubectl's configuration, then one list per
// kind, the lists running side by side.
#include "cli/get/live_source.h"

#include <future>
#include <optional>
#include <string>
#include <utility>

#include "dra/kube/api_error.h"
#include "dra/kube/client.h"
#include "dra/kube/kubeconfig.h"
#include "dra/kube/resource_client.h"

namespace dra::cli::get {
namespace {

std::optional<std::string> Flag(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}

template <class T>
kube::ApiResult<std::vector<T>> ListKind(kube::TypedClient client, std::string ns) {
  return client.List<T>(ns);
}

}  // namespace

Result<ClusterObjects> LoadLiveObjects(const LiveSourceOptions& options) {
  kube::ConfigFlags flags;
  flags.kubeconfig = Flag(options.kubeconfig);
  flags.context = Flag(options.context);
  flags.cluster = Flag(options.cluster);
  flags.user = Flag(options.user);
  flags.namespace_ = Flag(options.namespace_);
  flags.server = Flag(options.server);
  flags.token = Flag(options.token);
  flags.request_timeout = Flag(options.request_timeout);
  Result<kube::RestConfig> config = kube::LoadRestConfig(flags, kube::Environment::FromProcess());
  if (!config.ok()) return Error{config.error()};
  std::string ns = options.all_namespaces ? std::string() : config->namespace_;
  // `dra get` reads; kubectl's discovery limits (50/300) suit a handful of
  // parallel lists better than the 5/10 meant for controllers.
  config->qps = 50;
  config->burst = 300;
  Result<std::shared_ptr<kube::Client>> client = kube::Client::New(*config);
  if (!client.ok()) return Error{"error: " + client.error()};
  kube::ApiResult<kube::TypedClient> typed = kube::TypedClient::New(*client);
  if (!typed.ok()) return Error{kube::KubectlErrorText(typed.error())};

  // One list per kind, in parallel; each TypedClient copy shares the Client.
  auto slices = std::async(std::launch::async, ListKind<api::ResourceSlice>, *typed, "");
  auto claims = std::async(std::launch::async, ListKind<api::ResourceClaim>, *typed, ns);
  auto classes = std::async(std::launch::async, ListKind<api::DeviceClass>, *typed, "");
  auto rules = std::async(std::launch::async, ListKind<api::DeviceTaintRule>, *typed, "");

  ClusterObjects out;
  auto take = [](auto& future, auto& into, bool optional_kind) -> std::optional<std::string> {
    auto r = future.get();
    if (!r.ok()) {
      // DeviceTaintRules are not served by every version (v1beta1) or
      // cluster: none then.
      if (optional_kind && r.error().IsNotFound()) return std::nullopt;
      return kube::KubectlErrorText(r.error());
    }
    into = std::move(r).value();
    return std::nullopt;
  };
  std::string errors;
  for (auto e : {take(slices, out.slices, false), take(claims, out.claims, false),
                 take(classes, out.classes, false), take(rules, out.taint_rules, true)}) {
    if (e && errors.find(*e) == std::string::npos) errors += (errors.empty() ? "" : "\n") + *e;
  }
  if (!errors.empty()) return Error{errors};
  if (!options.with_node.empty()) {
    // A missing node is not an error: devices then match by name alone.
    auto node = typed->Get<api::Node>("", options.with_node);
    if (node.ok()) {
      out.nodes.push_back(std::move(node).value());
    } else if (!node.error().IsNotFound()) {
      return Error{kube::KubectlErrorText(node.error())};
    }
  }
  return out;
}

}  // namespace dra::cli::get

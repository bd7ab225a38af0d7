// The live source of `dra get`: kubectl's configuration, then one list per
// kind, the lists running side by side.
#include "cli/get/live_source.h"

#include <future>
#include <optional>
#include <string>
#include <utility>

#include "cli/live_cluster.h"
#include "dra/kube/api_error.h"

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
  Result<LiveReader> reader = ConnectLiveReader(flags);
  if (!reader.ok()) return reader.failure();
  const std::string ns = options.all_namespaces ? std::string() : reader->namespace_;
  kube::TypedClient& typed = reader->client;

  // One list per kind, in parallel; each TypedClient copy shares the Client.
  auto slices = std::async(std::launch::async, ListKind<api::ResourceSlice>, typed, "");
  auto claims = std::async(std::launch::async, ListKind<api::ResourceClaim>, typed, ns);
  auto classes = std::async(std::launch::async, ListKind<api::DeviceClass>, typed, "");
  auto rules = std::async(std::launch::async, ListKind<api::DeviceTaintRule>, typed, "");

  ClusterObjects out;
  ListOutcomes lists;
  lists.Take(slices.get(), out.slices, false);
  lists.Take(claims.get(), out.claims, false);
  lists.Take(classes.get(), out.classes, false);
  lists.Take(rules.get(), out.taint_rules, true);
  if (!lists.ok()) return lists.failure();
  if (!options.with_node.empty()) {
    // A missing node is not an error: devices then match by name alone.
    auto node = typed.Get<api::Node>("", options.with_node);
    if (node.ok()) {
      out.nodes.push_back(std::move(node).value());
    } else if (!node.error().IsNotFound()) {
      return node.failure();
    }
  }
  return out;
}

}  // namespace dra::cli::get

// TypedClient: dra's typed objects over the version the server speaks;
// discovery of that version; conflict retries; pod binding.
#include <chrono>
#include <string>
#include <thread>
#include <utility>

#include "dra/kube/resource_client.h"
#include "dra/util/random.h"
#include "kube/wire.h"

namespace dra::kube {
namespace {

bool IsResourceKind(std::string_view kind) {
  return kind == "ResourceSlice" || kind == "DeviceClass" || kind == "ResourceClaim" ||
         kind == "ResourceClaimTemplate" || kind == "DeviceTaintRule";
}

std::string ApiVersionOfKind(std::string_view kind, api::ApiVersion v) {
  if (IsResourceKind(kind)) {
    return std::string(api::kResourceGroup) + "/" + std::string(api::VersionName(v));
  }
  return "v1";
}

ApiResult<std::vector<api::Object>> DecodeBody(std::string_view body, std::string_view kind,
                                               api::ApiVersion v) {
  json::ParseLimits limits;
  limits.max_depth = 200;
  Result<json::Value> tree = json::ParseJson(body, limits);
  if (!tree.ok()) return ApiError::Protocol("the server's answer is not JSON: " + tree.error());
  api::DecodeOptions options;
  options.json_source = body;
  options.apply_defaults = false;  // the server has defaulted what it stores
  options.ignore_unknown_fields = true;
  options.default_kind = std::string(kind);
  options.default_api_version = ApiVersionOfKind(kind, v);
  api::DecodeOutcome outcome = api::DecodeDocument(*tree, options);
  if (!outcome.errors.empty()) {
    return ApiError::Protocol("the server sent a " + std::string(kind) +
                              " dra cannot read: " + outcome.errors.front().message);
  }
  std::vector<api::Object> out;
  out.reserve(outcome.objects.size());
  for (api::DecodedObject& o : outcome.objects) out.push_back(std::move(o.object));
  return out;
}

}  // namespace

ApiResult<api::ApiVersion> DiscoverResourceVersion(Client& client) {
  HttpRequest req;
  req.path = "/apis/" + std::string(api::kResourceGroup);
  req.verb = "get";
  auto resp = client.Do(req);
  if (!resp.ok()) {
    if (resp.error().IsNotFound()) {
      return ApiError::Protocol(
          "the server does not serve the resource.k8s.io API group (DRA needs Kubernetes 1.32+ "
          "with it enabled)");
    }
    return resp.error();
  }
  Result<json::Value> tree = json::ParseJson(resp->body);
  if (!tree.ok() || !tree->is_object()) {
    return ApiError::Protocol("the answer to GET " + req.path + " is not an APIGroup");
  }
  const json::Value* versions = tree->Find("versions");
  std::vector<std::string> served;
  if (versions != nullptr && versions->is_array()) {
    for (const json::Value& v : versions->items) {
      if (!v.is_object()) continue;
      const json::Value* name = v.Find("version");
      if (name != nullptr && name->is_string()) served.push_back(name->text);
    }
  }
  for (api::ApiVersion want :
       {api::ApiVersion::kV1, api::ApiVersion::kV1beta2, api::ApiVersion::kV1beta1}) {
    for (const std::string& s : served) {
      if (s == api::VersionName(want)) return want;
    }
  }
  std::string list;
  for (const std::string& s : served) list += (list.empty() ? "" : ", ") + s;
  return ApiError::Protocol("the server serves resource.k8s.io in versions [" + list +
                            "], none of v1, v1beta2, v1beta1");
}

TypedClient::TypedClient(std::shared_ptr<Client> client, api::ApiVersion version)
    : objects_(std::move(client)), version_(version) {}

ApiResult<TypedClient> TypedClient::New(std::shared_ptr<Client> client,
                                        std::optional<api::ApiVersion> version) {
  if (!version) {
    auto v = DiscoverResourceVersion(*client);
    if (!v.ok()) return v.error();
    version = *v;
  }
  return TypedClient(std::move(client), *version);
}

ApiResult<api::Object> TypedClient::Decode(const json::Value& tree,
                                           std::string_view source_text) const {
  api::DecodeOptions options;
  options.json_source = source_text;
  options.apply_defaults = false;
  options.ignore_unknown_fields = true;
  std::string kind;
  if (const json::Value* k = tree.is_object() ? tree.Find("kind") : nullptr;
      k != nullptr && k->is_string()) {
    kind = k->text;
  }
  options.default_api_version = ApiVersionOfKind(kind, version_);
  api::DecodeOutcome outcome = api::DecodeDocument(tree, options);
  if (!outcome.errors.empty()) {
    return ApiError::Protocol("the server sent an object dra cannot read: " +
                              outcome.errors.front().message);
  }
  if (outcome.objects.size() != 1) {
    return ApiError::Protocol("expected one object, the server sent " +
                              std::to_string(outcome.objects.size()));
  }
  return std::move(outcome.objects.front().object);
}

ApiResult<std::string> TypedClient::Encode(const api::Object& object) const {
  Result<std::string> body = api::EncodeObject(object, version_);
  if (!body.ok()) return ApiError::Config(body.error());
  return std::move(body).value();
}

ApiResult<api::Object> TypedClient::GetObject(std::string_view kind, std::string_view ns,
                                              std::string_view name) {
  if (auto bad = CheckPathNames(ns, name)) return *bad;
  ResourceType type = TypeOfKind(kind, version_);
  HttpRequest req;
  req.path = type.ObjectPath(ns, name);
  req.verb = "get";
  req.resource = type.QualifiedResource();
  req.name = std::string(name);
  auto resp = objects_.client().Do(req);
  if (!resp.ok()) return resp.error();
  auto objs = DecodeBody(resp->body, kind, version_);
  if (!objs.ok()) return objs.error();
  if (objs->size() != 1) return ApiError::Protocol("expected one " + std::string(kind));
  return std::move(objs->front());
}

ApiResult<std::vector<api::Object>> TypedClient::ListObjects(std::string_view kind,
                                                             std::string_view ns,
                                                             const ListOptions& options,
                                                             std::string* resource_version) {
  if (auto bad = CheckPathNames(ns, "", true)) return *bad;
  ResourceType type = TypeOfKind(kind, version_);
  ListOptions page = options;
  if (page.limit == 0) page.limit = 500;
  std::vector<api::Object> all;
  bool first = true;
  while (true) {
    auto resp = objects_.ListRaw(type, ns, page);
    if (!resp.ok()) {
      if (!first && resp.error().IsGone()) {
        // Expired continue token: one full list (client-go's pager).
        ListOptions full = options;
        full.limit = 0;
        full.continue_token.clear();
        all.clear();
        first = true;
        page = full;
        resp = objects_.ListRaw(type, ns, page);
        if (!resp.ok()) return resp.error();
      } else {
        return resp.error();
      }
    }
    // The list's own metadata (resourceVersion, continue) is read with a
    // cheap scan of the parsed tree; items are decoded from the same text.
    json::ParseLimits limits;
    limits.max_depth = 200;
    Result<json::Value> tree = json::ParseJson(resp->body, limits);
    if (!tree.ok() || !tree->is_object()) {
      return ApiError::Protocol("the server's list answer is not a JSON object");
    }
    api::DecodeOptions decode;
    decode.json_source = resp->body;
    decode.apply_defaults = false;
    decode.ignore_unknown_fields = true;
    decode.default_kind = std::string(kind);
    decode.default_api_version = ApiVersionOfKind(kind, version_);
    if (first && resource_version != nullptr)
      *resource_version = wire::MetaString(*tree, "resourceVersion");
    std::string next = wire::MetaString(*tree, "continue");
    const json::Value* items = tree->Find("items");
    if (items != nullptr && items->is_array()) {
      all.reserve(all.size() + items->items.size());
      for (const json::Value& item : items->items) {
        api::DecodeOutcome outcome = api::DecodeDocument(item, decode);
        if (!outcome.errors.empty()) {
          return ApiError::Protocol("the server sent a " + std::string(kind) +
                                    " dra cannot read: " + outcome.errors.front().message);
        }
        for (api::DecodedObject& o : outcome.objects) all.push_back(std::move(o.object));
      }
    }
    if (next.empty() || page.limit == 0) break;
    first = false;
    page.continue_token = next;
    page.resource_version.reset();
    page.resource_version_match.clear();
  }
  return all;
}

ApiResult<api::Object> TypedClient::Write(const api::Object& object, bool create,
                                          std::string_view sub, const WriteOptions& options) {
  std::string_view kind = api::KindOf(object);
  const api::ObjectMeta& meta = api::MetaOf(object);
  if (auto bad = CheckPathNames(meta.namespace_, meta.name, create)) return *bad;
  ResourceType type = TypeOfKind(kind, version_);
  auto body = Encode(object);
  if (!body.ok()) return body.error();
  HttpRequest req;
  req.method = create ? "POST" : "PUT";
  req.verb = create ? "create" : "update";
  req.resource = type.QualifiedResource();
  req.name = meta.name;
  req.path = create ? type.CollectionPath(meta.namespace_)
                    : type.ObjectPath(meta.namespace_, meta.name, sub);
  req.content_type = "application/json";
  req.body = std::move(body).value();
  wire::AddWriteOptions(req.query, options);
  auto resp = objects_.client().Do(req);
  if (!resp.ok()) return resp.error();
  auto objs = DecodeBody(resp->body, kind, version_);
  if (!objs.ok()) return objs.error();
  if (objs->size() != 1) return ApiError::Protocol("expected one " + std::string(kind));
  return std::move(objs->front());
}

ApiStatus RetryOnConflict(const std::function<ApiStatus()>& attempt, int steps) {
  util::SplitMix64 rng(util::RandomSeed());
  for (int i = 0;; ++i) {
    ApiStatus s = attempt();
    if (s.ok() || !s.error().IsConflict() || i + 1 >= steps) return s;
    // 10 ms plus up to 10% (DefaultRetry), not after the last attempt.
    auto sleep = std::chrono::duration<double, std::milli>(10.0 * (1.0 + 0.1 * rng.NextDouble()));
    std::this_thread::sleep_for(sleep);
  }
}

ApiStatus BindPod(Client& client, std::string_view ns, std::string_view pod, std::string_view node,
                  std::string_view pod_uid) {
  json::Value binding = json::Value::Object();
  binding.members.push_back({"kind", json::Value::String("Binding"), {}});
  binding.members.push_back({"apiVersion", json::Value::String("v1"), {}});
  json::Value meta = json::Value::Object();
  meta.members.push_back({"name", json::Value::String(std::string(pod)), {}});
  meta.members.push_back({"namespace", json::Value::String(std::string(ns)), {}});
  if (!pod_uid.empty())
    meta.members.push_back({"uid", json::Value::String(std::string(pod_uid)), {}});
  binding.members.push_back({"metadata", std::move(meta), {}});
  json::Value target = json::Value::Object();
  target.members.push_back({"kind", json::Value::String("Node"), {}});
  target.members.push_back({"apiVersion", json::Value::String("v1"), {}});
  target.members.push_back({"name", json::Value::String(std::string(node)), {}});
  binding.members.push_back({"target", std::move(target), {}});
  HttpRequest req;
  req.method = "POST";
  req.verb = "create";
  req.resource = "pods";
  req.name = std::string(pod);
  req.path = Pods().ObjectPath(ns, pod, "binding");
  req.content_type = "application/json";
  req.body = json::ToJson(binding);
  auto resp = client.Do(req);
  if (!resp.ok()) return resp.error();
  return Done{};
}

}  // namespace dra::kube

// ResourceType paths and the verbs on JSON trees (ObjectClient).
#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dra/api/field_error.h"
#include "dra/kube/resource_client.h"
#include "kube/wire.h"

namespace dra::kube {
namespace {

constexpr std::string_view kJson = "application/json";

json::ParseLimits ServerParseLimits() {
  json::ParseLimits limits;
  limits.max_depth = 200;
  return limits;
}

ApiResult<json::Value> ParseAnswer(const HttpResponse& resp, const HttpRequest& req) {
  if (resp.body.empty()) return json::Value::Object();
  Result<json::Value> tree = json::ParseJson(resp.body, ServerParseLimits());
  if (!tree.ok()) {
    return ApiError::Protocol("the server's answer to " + req.method + " " + req.path +
                              " is not JSON: " + tree.error());
  }
  return std::move(tree).value();
}

// apimachinery's IsValidPathSegmentName messages for `s`.
std::vector<std::string> PathSegmentProblems(std::string_view s) {
  std::vector<std::string> out;
  if (s == "." || s == "..") {
    out.push_back("may not be '" + std::string(s) + "'");
    return out;
  }
  if (s.find('/') != std::string_view::npos) out.emplace_back("may not contain '/'");
  if (s.find('%') != std::string_view::npos) out.emplace_back("may not contain '%'");
  return out;
}

std::string JoinProblems(const std::vector<std::string>& problems) {
  std::string out = "[";
  for (std::size_t i = 0; i < problems.size(); ++i) out += (i ? ", " : "") + problems[i];
  return out + "]";
}

}  // namespace

std::optional<ApiError> CheckPathNames(std::string_view ns, std::string_view name,
                                       bool collection) {
  if (!ns.empty()) {
    auto problems = PathSegmentProblems(ns);
    if (!problems.empty()) {
      return ApiError::Config("invalid namespace " + api::GoQuote(ns) + ": " +
                              JoinProblems(problems));
    }
  }
  if (collection) return std::nullopt;
  if (name.empty()) return ApiError::Config("resource name may not be empty");
  auto problems = PathSegmentProblems(name);
  if (!problems.empty()) {
    return ApiError::Config("invalid resource name " + api::GoQuote(name) + ": " +
                            JoinProblems(problems));
  }
  return std::nullopt;
}

std::string ResourceType::QualifiedResource() const {
  return group.empty() ? resource : resource + "." + group;
}

std::string ResourceType::GroupVersion() const {
  return group.empty() ? version : group + "/" + version;
}

std::string ResourceType::CollectionPath(std::string_view ns) const {
  std::string out = group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
  if (namespaced && !ns.empty()) out += "/namespaces/" + wire::PercentEscape(ns, wire::kPathKept);
  return out + "/" + resource;
}

std::string ResourceType::ObjectPath(std::string_view ns, std::string_view name,
                                     std::string_view subresource) const {
  std::string out = CollectionPath(ns) + "/" + wire::PercentEscape(name, wire::kPathKept);
  if (!subresource.empty()) out += "/" + std::string(subresource);
  return out;
}

namespace {
ResourceType Resource(api::ApiVersion v, std::string resource, std::string kind, bool namespaced) {
  return ResourceType{std::string(api::kResourceGroup), std::string(api::VersionName(v)),
                      std::move(resource), std::move(kind), namespaced};
}
}  // namespace

ResourceType ResourceSlices(api::ApiVersion v) {
  return Resource(v, "resourceslices", "ResourceSlice", false);
}
ResourceType DeviceClasses(api::ApiVersion v) {
  return Resource(v, "deviceclasses", "DeviceClass", false);
}
ResourceType ResourceClaims(api::ApiVersion v) {
  return Resource(v, "resourceclaims", "ResourceClaim", true);
}
ResourceType ResourceClaimTemplates(api::ApiVersion v) {
  return Resource(v, "resourceclaimtemplates", "ResourceClaimTemplate", true);
}
ResourceType DeviceTaintRules(api::ApiVersion v) {
  return Resource(v, "devicetaintrules", "DeviceTaintRule", false);
}
ResourceType Nodes() { return {"", "v1", "nodes", "Node", false}; }
ResourceType Pods() { return {"", "v1", "pods", "Pod", true}; }
ResourceType Namespaces() { return {"", "v1", "namespaces", "Namespace", false}; }
ResourceType Events() { return {"", "v1", "events", "Event", true}; }
ResourceType Leases() { return {"coordination.k8s.io", "v1", "leases", "Lease", true}; }

ResourceType TypeOfKind(std::string_view kind, api::ApiVersion v) {
  if (kind == "ResourceSlice") return ResourceSlices(v);
  if (kind == "DeviceClass") return DeviceClasses(v);
  if (kind == "ResourceClaim") return ResourceClaims(v);
  if (kind == "ResourceClaimTemplate") return ResourceClaimTemplates(v);
  if (kind == "DeviceTaintRule") return DeviceTaintRules(v);
  if (kind == "Node") return Nodes();
  if (kind == "Pod") return Pods();
  if (kind == "Namespace") return Namespaces();
  if (kind == "Event") return Events();
  if (kind == "Lease") return Leases();
  return {};
}

ObjectClient::ObjectClient(std::shared_ptr<Client> client) : client_(std::move(client)) {}

ApiResult<json::Value> ObjectClient::Get(const ResourceType& type, std::string_view ns,
                                         std::string_view name, std::string_view subresource) {
  if (auto bad = CheckPathNames(ns, name)) return *bad;
  HttpRequest req;
  req.path = type.ObjectPath(ns, name, subresource);
  req.verb = "get";
  req.resource = type.QualifiedResource();
  req.name = std::string(name);
  auto resp = client_->Do(req);
  if (!resp.ok()) return resp.error();
  return ParseAnswer(*resp, req);
}

ApiResult<HttpResponse> ObjectClient::ListRaw(const ResourceType& type, std::string_view ns,
                                              const ListOptions& o) {
  if (auto bad = CheckPathNames(ns, "", true)) return *bad;
  HttpRequest req;
  req.path = type.CollectionPath(ns);
  req.verb = "list";
  req.resource = type.QualifiedResource();
  if (!o.label_selector.empty()) req.query.emplace_back("labelSelector", o.label_selector);
  if (!o.field_selector.empty()) req.query.emplace_back("fieldSelector", o.field_selector);
  if (o.resource_version) req.query.emplace_back("resourceVersion", *o.resource_version);
  if (!o.resource_version_match.empty()) {
    req.query.emplace_back("resourceVersionMatch", o.resource_version_match);
  }
  if (o.limit > 0) req.query.emplace_back("limit", std::to_string(o.limit));
  if (!o.continue_token.empty()) req.query.emplace_back("continue", o.continue_token);
  if (o.timeout_seconds)
    req.query.emplace_back("timeoutSeconds", std::to_string(*o.timeout_seconds));
  return client_->Do(req);
}

ApiResult<ObjectList> ObjectClient::ListPage(const ResourceType& type, std::string_view ns,
                                             const ListOptions& options) {
  auto resp = ListRaw(type, ns, options);
  if (!resp.ok()) return resp.error();
  HttpRequest req;
  req.method = "GET";
  req.path = type.CollectionPath(ns);
  auto tree = ParseAnswer(*resp, req);
  if (!tree.ok()) return tree.error();
  if (!tree->is_object()) return ApiError::Protocol("the list answer is not a JSON object");
  ObjectList out;
  out.resource_version = wire::MetaString(*tree, "resourceVersion");
  out.continue_token = wire::MetaString(*tree, "continue");
  for (json::Member& m : tree->members) {
    if (m.key != "items") continue;
    if (m.value.is_array()) {
      out.items = std::move(m.value.items);
    } else if (!m.value.is_null()) {
      return ApiError::Protocol("the list answer's items is not an array");
    }
  }
  return out;
}

ApiResult<ObjectList> ObjectClient::List(const ResourceType& type, std::string_view ns,
                                         const ListOptions& options, std::int64_t page_size) {
  ListOptions page = options;
  if (page.limit == 0) page.limit = page_size;
  ObjectList all;
  bool first = true;
  while (true) {
    auto r = ListPage(type, ns, page);
    if (!r.ok()) {
      // An expired continue token: one full list without a limit, at the
      // originally requested resourceVersion (client-go tools/pager).
      if (!first && r.error().IsGone()) {
        ListOptions full = options;
        full.limit = 0;
        full.continue_token.clear();
        return ListPage(type, ns, full);
      }
      return r.error();
    }
    if (first) all.resource_version = r->resource_version;
    for (json::Value& v : r->items) all.items.push_back(std::move(v));
    if (r->continue_token.empty()) break;
    first = false;
    page.continue_token = r->continue_token;
    // The continue token carries the snapshot: no resourceVersion with it.
    page.resource_version.reset();
    page.resource_version_match.clear();
  }
  return all;
}

namespace {

// POST or PUT of a whole object as JSON, and its answer parsed.
ApiResult<json::Value> SendObject(Client& client, HttpRequest req, const json::Value& object,
                                  const WriteOptions& o) {
  req.content_type = kJson;
  req.body = json::ToJson(object);
  wire::AddWriteOptions(req.query, o);
  auto resp = client.Do(req);
  if (!resp.ok()) return resp.error();
  return ParseAnswer(*resp, req);
}

}  // namespace

ApiResult<json::Value> ObjectClient::Create(const ResourceType& type, std::string_view ns,
                                            const json::Value& object, const WriteOptions& o,
                                            std::string_view subresource) {
  HttpRequest req;
  req.method = "POST";
  req.verb = "create";
  req.resource = type.QualifiedResource();
  req.name = wire::MetaString(object, "name");
  if (auto bad = CheckPathNames(ns, req.name, subresource.empty())) return *bad;
  req.path =
      subresource.empty() ? type.CollectionPath(ns) : type.ObjectPath(ns, req.name, subresource);
  return SendObject(*client_, std::move(req), object, o);
}

ApiResult<json::Value> ObjectClient::Update(const ResourceType& type, std::string_view ns,
                                            const json::Value& object, const WriteOptions& o,
                                            std::string_view subresource) {
  HttpRequest req;
  req.method = "PUT";
  req.verb = "update";
  req.resource = type.QualifiedResource();
  req.name = wire::MetaString(object, "name");
  if (auto bad = CheckPathNames(ns, req.name)) return *bad;
  req.path = type.ObjectPath(ns, req.name, subresource);
  return SendObject(*client_, std::move(req), object, o);
}

ApiResult<json::Value> ObjectClient::Patch(const ResourceType& type, std::string_view ns,
                                           std::string_view name, PatchType patch_type,
                                           std::string_view body, const WriteOptions& o, bool force,
                                           std::string_view subresource) {
  if (auto bad = CheckPathNames(ns, name)) return *bad;
  HttpRequest req;
  req.method = "PATCH";
  req.verb = "patch";
  req.resource = type.QualifiedResource();
  req.name = std::string(name);
  req.path = type.ObjectPath(ns, name, subresource);
  switch (patch_type) {
    case PatchType::kMerge:
      req.content_type = "application/merge-patch+json";
      break;
    case PatchType::kJson:
      req.content_type = "application/json-patch+json";
      break;
    case PatchType::kStrategicMerge:
      req.content_type = "application/strategic-merge-patch+json";
      break;
    case PatchType::kApply:
      req.content_type = "application/apply-patch+yaml";
      break;
  }
  req.body = std::string(body);
  wire::AddWriteOptions(req.query, o);
  if (force) req.query.emplace_back("force", "true");
  auto resp = client_->Do(req);
  if (!resp.ok()) return resp.error();
  return ParseAnswer(*resp, req);
}

ApiResult<json::Value> ObjectClient::Delete(const ResourceType& type, std::string_view ns,
                                            std::string_view name, const DeleteOptions& o) {
  if (auto bad = CheckPathNames(ns, name)) return *bad;
  HttpRequest req;
  req.method = "DELETE";
  req.verb = "delete";
  req.resource = type.QualifiedResource();
  req.name = std::string(name);
  req.path = type.ObjectPath(ns, name);
  // DeleteOptions as the body, as typed clients send it.
  json::Value body = json::Value::Object();
  body.members.push_back({"kind", json::Value::String("DeleteOptions"), {}});
  body.members.push_back({"apiVersion", json::Value::String(type.GroupVersion()), {}});
  if (o.grace_period_seconds) {
    body.members.push_back(
        {"gracePeriodSeconds", json::Value::Number(std::to_string(*o.grace_period_seconds)), {}});
  }
  if (o.precondition_uid || o.precondition_resource_version) {
    json::Value pre = json::Value::Object();
    if (o.precondition_uid)
      pre.members.push_back({"uid", json::Value::String(*o.precondition_uid), {}});
    if (o.precondition_resource_version) {
      pre.members.push_back(
          {"resourceVersion", json::Value::String(*o.precondition_resource_version), {}});
    }
    body.members.push_back({"preconditions", std::move(pre), {}});
  }
  if (!o.propagation_policy.empty()) {
    body.members.push_back({"propagationPolicy", json::Value::String(o.propagation_policy), {}});
  }
  if (o.dry_run) {
    json::Value dry = json::Value::Array();
    dry.items.push_back(json::Value::String("All"));
    body.members.push_back({"dryRun", std::move(dry), {}});
  }
  req.content_type = kJson;
  req.body = json::ToJson(body);
  auto resp = client_->Do(req);
  if (!resp.ok()) return resp.error();
  return ParseAnswer(*resp, req);
}

}  // namespace dra::kube

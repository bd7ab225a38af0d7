// Verbs on API resources: get, list (one page or all pages), create, update,
// patch, delete, on objects kept as JSON trees (any kind, every field kept) or
// as dra's typed resource.k8s.io and core objects.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dra/api/codec.h"
#include "dra/json/value.h"
#include "dra/kube/api_error.h"
#include "dra/kube/client.h"

namespace dra::kube {

// Where a kind lives in the API.
struct ResourceType {
  std::string group;     // "" for core
  std::string version;   // "v1"
  std::string resource;  // plural: "resourceslices"
  std::string kind;      // "ResourceSlice"
  bool namespaced = false;

  // "resourceslices.resource.k8s.io" ("pods" for core), as errors name it.
  std::string QualifiedResource() const;
  // "resource.k8s.io/v1" ("v1" for core).
  std::string GroupVersion() const;
  // The collection path, in `ns` when namespaced and ns is not empty (empty:
  // all namespaces). Segments are escaped as Go's url.URL escapes a path;
  // callers check them with CheckPathNames first.
  std::string CollectionPath(std::string_view ns) const;
  // The object path, optionally with a subresource ("status", "binding").
  std::string ObjectPath(std::string_view ns, std::string_view name,
                         std::string_view subresource = {}) const;
};

// client-go's checks of the namespace and name a request puts in its path
// (rest/request.go Namespace and Name): a name may not be empty, and neither
// may be "." or ".." or contain '/' or '%'. An empty `ns` is allowed (cluster
// scope or all namespaces); `name` is checked unless `collection`. The error
// is kConfig with client-go's text ("resource name may not be empty",
// "invalid resource name \"..\": [may not be '..']").
std::optional<ApiError> CheckPathNames(std::string_view ns, std::string_view name,
                                       bool collection = false);

// The resource.k8s.io kinds in a version, and the core kinds DRA uses.
ResourceType ResourceSlices(api::ApiVersion v);
ResourceType DeviceClasses(api::ApiVersion v);
ResourceType ResourceClaims(api::ApiVersion v);
ResourceType ResourceClaimTemplates(api::ApiVersion v);
ResourceType DeviceTaintRules(api::ApiVersion v);
ResourceType Nodes();
ResourceType Pods();
ResourceType Namespaces();
ResourceType Events();
ResourceType Leases();
// The ResourceType of a typed object's kind in `v` (core kinds ignore v).
ResourceType TypeOfKind(std::string_view kind, api::ApiVersion v);

struct ListOptions {
  std::string label_selector;
  std::string field_selector;
  std::optional<std::string> resource_version;
  std::string resource_version_match;  // "NotOlderThan", "Exact"
  std::int64_t limit = 0;              // 0: no limit
  std::string continue_token;
  std::optional<std::int64_t> timeout_seconds;
  bool allow_watch_bookmarks = false;
  bool send_initial_events = false;
};

struct WriteOptions {
  bool dry_run = false;          // dryRun=All
  std::string field_manager;     // fieldManager
  std::string field_validation;  // "Strict", "Warn", "Ignore"; empty: the server's default
};

struct DeleteOptions {
  std::optional<std::string> precondition_uid;
  std::optional<std::string> precondition_resource_version;
  std::string propagation_policy;  // "Orphan", "Background", "Foreground"
  std::optional<std::int64_t> grace_period_seconds;
  bool dry_run = false;
};

enum class PatchType : std::uint8_t {
  kMerge,           // application/merge-patch+json
  kJson,            // application/json-patch+json
  kStrategicMerge,  // application/strategic-merge-patch+json (core kinds)
  kApply,           // server-side apply: application/apply-patch+yaml, fieldManager required
};

// One page of a list, or all pages joined.
struct ObjectList {
  std::string resource_version;  // the list's metadata.resourceVersion
  std::string continue_token;    // empty when no more pages
  std::vector<json::Value> items;
};

// Verbs on JSON trees: what the server sends is kept whole, and what is
// written is sent as given, so kinds dra does not model round-trip without
// losing a field. Thread-safety: as safe as the Client it uses.
class ObjectClient {
 public:
  explicit ObjectClient(std::shared_ptr<Client> client);
  Client& client() const { return *client_; }

  ApiResult<json::Value> Get(const ResourceType& type, std::string_view ns, std::string_view name,
                             std::string_view subresource = {});
  // One page (options.limit, options.continue_token).
  ApiResult<ObjectList> ListPage(const ResourceType& type, std::string_view ns,
                                 const ListOptions& options);
  // Every page, `page_size` items at a time (client-go's pager: 500); when a
  // later page's continue token has expired (410), lists once more in one
  // request without a limit, as client-go's pager does.
  ApiResult<ObjectList> List(const ResourceType& type, std::string_view ns,
                             const ListOptions& options, std::int64_t page_size = 500);
  // The text of a list answer, not parsed (for callers that parse it their way).
  ApiResult<HttpResponse> ListRaw(const ResourceType& type, std::string_view ns,
                                  const ListOptions& options);
  ApiResult<json::Value> Create(const ResourceType& type, std::string_view ns,
                                const json::Value& object, const WriteOptions& options = {},
                                std::string_view subresource = {});
  // PUT; the object's metadata.name names it and metadata.resourceVersion,
  // when set, makes the update conditional (409 Conflict when stale).
  ApiResult<json::Value> Update(const ResourceType& type, std::string_view ns,
                                const json::Value& object, const WriteOptions& options = {},
                                std::string_view subresource = {});
  ApiResult<json::Value> Patch(const ResourceType& type, std::string_view ns, std::string_view name,
                               PatchType patch_type, std::string_view body,
                               const WriteOptions& options = {}, bool force = false,
                               std::string_view subresource = {});
  // Returns what the server answers: the deleted object, or a Status.
  ApiResult<json::Value> Delete(const ResourceType& type, std::string_view ns,
                                std::string_view name, const DeleteOptions& options = {});

 private:
  std::shared_ptr<Client> client_;
};

// The newest resource.k8s.io version the server serves, among those dra
// speaks: v1 (Kubernetes 1.34+), else v1beta2 (1.33 with it enabled), else
// v1beta1 (1.32). From GET /apis/resource.k8s.io; a server that serves none
// is an error naming the versions it does serve.
ApiResult<api::ApiVersion> DiscoverResourceVersion(Client& client);

// Typed access to resource.k8s.io and core kinds. Objects are decoded from
// the version the server speaks into dra's v1 types (unknown fields skipped,
// as client-go does) and encoded into that version for writes. Core kinds
// carry only the fields dra models: write them with ObjectClient (whole
// trees) or Patch, not by Update of a typed object.
//
// Thread-safety: as safe as the Client; the version is fixed at creation.
class TypedClient {
 public:
  // Discovers the resource.k8s.io version unless `version` is given.
  static ApiResult<TypedClient> New(std::shared_ptr<Client> client,
                                    std::optional<api::ApiVersion> version = std::nullopt);
  api::ApiVersion version() const { return version_; }
  ObjectClient& objects() { return objects_; }

  template <class T>
  ApiResult<T> Get(std::string_view ns, std::string_view name);
  template <class T>
  ApiResult<std::vector<T>> List(std::string_view ns, const ListOptions& options = {},
                                 std::string* resource_version = nullptr);
  template <class T>
  ApiResult<T> Create(const T& object, const WriteOptions& options = {});
  template <class T>
  ApiResult<T> Update(const T& object, const WriteOptions& options = {});
  // PUT .../status.
  template <class T>
  ApiResult<T> UpdateStatus(const T& object, const WriteOptions& options = {});
  template <class T>
  ApiStatus Delete(std::string_view ns, std::string_view name, const DeleteOptions& options = {});

  // Decodes a tree the server sent (in version()) into `Object`.
  ApiResult<api::Object> Decode(const json::Value& tree, std::string_view source_text = {}) const;
  // Encodes for a write in version(): the JSON body.
  ApiResult<std::string> Encode(const api::Object& object) const;

 private:
  TypedClient(std::shared_ptr<Client> client, api::ApiVersion version);
  ApiResult<api::Object> GetObject(std::string_view kind, std::string_view ns,
                                   std::string_view name);
  ApiResult<std::vector<api::Object>> ListObjects(std::string_view kind, std::string_view ns,
                                                  const ListOptions& options,
                                                  std::string* resource_version);
  ApiResult<api::Object> Write(const api::Object& object, bool create, std::string_view sub,
                               const WriteOptions& options);
  ObjectClient objects_;
  api::ApiVersion version_;
};

// Conflict-retrying update (client-go util/retry RetryOnConflict with
// DefaultRetry: 5 attempts, 10 ms apart with 10% jitter): calls `attempt`
// again while it fails with 409 Conflict.
ApiStatus RetryOnConflict(const std::function<ApiStatus()>& attempt, int steps = 5);

// Pod binding: POST .../pods/<name>/binding (core/v1 Binding to `node`).
ApiStatus BindPod(Client& client, std::string_view ns, std::string_view pod, std::string_view node,
                  std::string_view pod_uid = {});

}  // namespace dra::kube

#include "dra/kube/typed_client_inl.h"  // IWYU pragma: export

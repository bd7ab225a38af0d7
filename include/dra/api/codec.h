// Decoding and encoding of resource.k8s.io objects (v1, v1beta2, v1beta1) and
// the core/v1 kinds DRA reads, with kube-apiserver's strictness and output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "dra/api/core.h"
#include "dra/api/resource.h"
#include "dra/json/value.h"
#include "dra/util/result.h"

namespace dra::api {

enum class ApiVersion : std::uint8_t { kV1, kV1beta2, kV1beta1, kV1alpha3 };

inline constexpr std::string_view kResourceGroup = "resource.k8s.io";

std::string_view VersionName(ApiVersion v);  // "v1", "v1beta2", ...
// Parses "v1" / "v1beta2" / "v1beta1" / "v1alpha3".
Result<ApiVersion> ParseVersionName(std::string_view name);

using Object = std::variant<ResourceSlice, DeviceClass, ResourceClaim, ResourceClaimTemplate,
                            DeviceTaintRule, Node, Pod, Namespace, ResourcePoolStatusRequest>;

// The kind name of the object held ("ResourceSlice", ...).
std::string_view KindOf(const Object& object);
const ObjectMeta& MetaOf(const Object& object);

struct DecodedObject {
  Object object;
  // The apiVersion the document was written in (for resource.k8s.io kinds).
  ApiVersion version = ApiVersion::kV1;
  json::Position pos;  // where the object starts in its file
};

// Why a document could not become an object.
enum class DecodeFailure : std::uint8_t {
  kNotAnObject,  // the document is not a JSON object
  kMissingType,  // kind or apiVersion missing
  kUnknownKind,  // no such kind in that group/version
  kBadField,     // wrong JSON type, bad quantity/time, unknown or duplicate field
};

struct DecodeError {
  DecodeFailure failure = DecodeFailure::kBadField;
  // kube-apiserver's text, e.g. `ResourceClaim in version "v1" cannot be
  // handled as a ResourceClaim: strict decoding error: unknown field "spec.x"`.
  std::string message;
  std::string kind;         // as written, when known
  std::string name;         // metadata.name, when it could be read
  json::Position pos;       // the offending value, when known
  std::string api_version;  // as written, when known
};

struct DecodeOptions {
  // Source text of the document, for exact RawExtension bytes when the tree
  // came from JSON text. Empty for YAML input.
  std::string_view json_source;
  // Applies version-specific defaults (the SetDefaults_* functions of
  // k8s.io/kubernetes/pkg/apis/resource/<version>/defaults.go) after decoding.
  bool apply_defaults = true;
  // metav1.Time for defaulted timestamps (taint timeAdded): seconds since
  // the epoch.
  std::int64_t now = 0;
  // Unknown fields are skipped instead of being strict errors, as client-go's
  // decoder does for what a server sends (a newer server may send fields this
  // build does not know). Core kinds always skip them.
  bool ignore_unknown_fields = false;
  // Kind and apiVersion of documents that carry none: the items of a typed
  // list as kube-apiserver sends it. Empty: such documents are errors.
  std::string default_kind;
  std::string default_api_version;
};

// Decodes one document. A `List` (or `<Kind>List`) yields each item; items
// that fail are reported individually.
struct DecodeOutcome {
  std::vector<DecodedObject> objects;
  std::vector<DecodeError> errors;
};
DecodeOutcome DecodeDocument(const json::Value& document, const DecodeOptions& options);

// Encodes an object as kube-apiserver emits it in `version` (compact JSON,
// Go field order and omitempty rules, Go string escaping). Core kinds are
// always encoded as core/v1. Fails for kinds the version does not serve
// (DeviceTaintRule in v1beta1).
Result<std::string> EncodeObject(const Object& object, ApiVersion version);

// Version-specific defaulting (the SetDefaults_* functions of
// k8s.io/kubernetes/pkg/apis/resource/<version>/defaults.go), applied to the
// v1-shaped object as it would be to the versioned one.
void ApplyDefaults(Object& object, ApiVersion written_in, std::int64_t now);

}  // namespace dra::api

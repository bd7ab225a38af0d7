// Top-level documents: apiVersion/kind dispatch, Lists, strict-error
// aggregation, and encoding of whole objects.
#include <string>
#include <utility>

#include "api/codec/decoder.h"
#include "api/codec/encoder.h"
#include "dra/api/codec.h"
#include "dra/api/kinds.h"

namespace dra::api {
namespace {

using codec::Decoder;
using codec::Encoder;

struct KindVersion {
  std::string kind;
  std::string api_version;
};

// Kinds served per group/version (addKnownTypes in k8s.io/api/resource/*/register.go).
bool IsResourceKind(std::string_view kind) {
  return kind == "ResourceSlice" || kind == "DeviceClass" || kind == "ResourceClaim" ||
         kind == "ResourceClaimTemplate" || kind == "DeviceTaintRule";
}

bool Serves(ApiVersion v, std::string_view kind) {
  switch (v) {
    case ApiVersion::kV1:
    case ApiVersion::kV1beta2:
      return IsResourceKind(kind);
    case ApiVersion::kV1beta1:
      return IsResourceKind(kind) && kind != "DeviceTaintRule";
    case ApiVersion::kV1alpha3:
      return kind == "DeviceTaintRule" || kind == "ResourcePoolStatusRequest";
  }
  return false;
}

std::string StringMember(const json::Value& doc, std::string_view key) {
  const json::Value* v = doc.Find(key);
  return v != nullptr && v->is_string() ? v->text : std::string();
}

template <class T>
void DecodeTyped(const json::Value& doc, ApiVersion version, bool core, const std::string& kind,
                 const DecodeOptions& options, DecodeOutcome& outcome) {
  T object;
  object.type.kind = kind;
  object.type.api_version = StringMember(doc, "apiVersion");
  if (object.type.api_version.empty()) object.type.api_version = options.default_api_version;
  Decoder decoder(options, version, core || options.ignore_unknown_fields);
  decoder.ReadObject(doc, object);

  const std::string written_version =
      object.type.api_version.substr(object.type.api_version.find('/') == std::string::npos
                                         ? 0
                                         : object.type.api_version.find('/') + 1);
  std::string prefix =
      kind + " in version \"" + written_version + "\" cannot be handled as a " + kind + ": ";
  if (decoder.failed() || !decoder.strict_errors().empty()) {
    DecodeError error;
    error.failure = DecodeFailure::kBadField;
    error.kind = kind;
    error.name = object.metadata.name;
    error.api_version = object.type.api_version;
    if (decoder.failed()) {
      error.message = prefix + decoder.type_error();
      error.pos = decoder.error_pos();
    } else {
      std::string joined;
      for (const std::string& e : decoder.strict_errors()) {
        if (!joined.empty()) joined += ", ";
        joined += e;
      }
      error.message = prefix + "strict decoding error: " + joined;
      error.pos = doc.pos;
    }
    outcome.errors.push_back(std::move(error));
    return;
  }
  DecodedObject decoded{Object(std::move(object)), version, doc.pos};
  if (options.apply_defaults) ApplyDefaults(decoded.object, version, options.now);
  outcome.objects.push_back(std::move(decoded));
}

void DecodeOne(const json::Value& doc, const DecodeOptions& options, DecodeOutcome& outcome);

// A resource.k8s.io kind that `version` serves (Serves).
void DecodeResourceKind(const json::Value& doc, ApiVersion version, const std::string& kind,
                        const DecodeOptions& options, DecodeOutcome& outcome) {
  if (kind == "ResourceSlice") {
    return DecodeTyped<ResourceSlice>(doc, version, false, kind, options, outcome);
  }
  if (kind == "DeviceClass") {
    return DecodeTyped<DeviceClass>(doc, version, false, kind, options, outcome);
  }
  if (kind == "ResourceClaim") {
    return DecodeTyped<ResourceClaim>(doc, version, false, kind, options, outcome);
  }
  if (kind == "ResourceClaimTemplate") {
    return DecodeTyped<ResourceClaimTemplate>(doc, version, false, kind, options, outcome);
  }
  if (kind == "ResourcePoolStatusRequest") {
    return DecodeTyped<ResourcePoolStatusRequest>(doc, version, false, kind, options, outcome);
  }
  return DecodeTyped<DeviceTaintRule>(doc, version, false, kind, options, outcome);
}

void DecodeList(const json::Value& doc, const DecodeOptions& options, DecodeOutcome& outcome) {
  const json::Value* items = doc.Find("items");
  if (items == nullptr || items->is_null()) return;
  if (!items->is_array()) {
    outcome.errors.push_back({DecodeFailure::kBadField,
                              "json: cannot unmarshal " + std::string(codec::JsonKindName(*items)) +
                                  " into Go struct field List.items of type []runtime.RawExtension",
                              StringMember(doc, "kind"), "", items->pos, ""});
    return;
  }
  for (const json::Value& item : items->items) DecodeOne(item, options, outcome);
}

void DecodeOne(const json::Value& doc, const DecodeOptions& options, DecodeOutcome& outcome) {
  if (!doc.is_object()) {
    outcome.errors.push_back({DecodeFailure::kNotAnObject,
                              "json: cannot unmarshal " + std::string(codec::JsonKindName(doc)) +
                                  " into Go value of type struct { APIVersion string "
                                  "\"json:\\\"apiVersion,omitempty\\\"\"; Kind string "
                                  "\"json:\\\"kind,omitempty\\\"\" }",
                              "", "", doc.pos, ""});
    return;
  }
  const json::Value* kind_value = doc.Find("kind");
  const json::Value* version_value = doc.Find("apiVersion");
  std::string kind = StringMember(doc, "kind");
  std::string api_version = StringMember(doc, "apiVersion");
  if (kind.empty()) kind = options.default_kind;
  if (api_version.empty()) api_version = options.default_api_version;
  std::string name;
  if (const json::Value* meta = doc.Find("metadata"); meta != nullptr && meta->is_object()) {
    name = StringMember(*meta, "name");
  }
  if ((kind_value != nullptr && !kind_value->is_string() && !kind_value->is_null()) ||
      (version_value != nullptr && !version_value->is_string() && !version_value->is_null())) {
    const json::Value* bad =
        kind_value != nullptr && !kind_value->is_string() ? kind_value : version_value;
    outcome.errors.push_back({DecodeFailure::kMissingType,
                              "json: cannot unmarshal " + std::string(codec::JsonKindName(*bad)) +
                                  " into Go struct field .apiVersion of type string",
                              kind, name, bad->pos, ""});
    return;
  }
  if (kind.empty() || api_version.empty()) {
    // kubectl's aggregate of the two checks: one error as itself, two in
    // brackets.
    std::string missing = api_version.empty() ? "apiVersion not set" : "kind not set";
    if (api_version.empty() && kind.empty()) missing = "[apiVersion not set, kind not set]";
    outcome.errors.push_back({DecodeFailure::kMissingType, "error validating data: " + missing,
                              kind, name, doc.pos, ""});
    return;
  }
  if (kind == "List" || (kind.size() > 4 && kind.ends_with("List") && doc.Find("items"))) {
    DecodeList(doc, options, outcome);
    return;
  }

  std::string group, version = api_version;
  if (auto slash = api_version.find('/'); slash != std::string::npos) {
    group = api_version.substr(0, slash);
    version = api_version.substr(slash + 1);
  }
  auto unknown = [&] {
    outcome.errors.push_back(
        {DecodeFailure::kUnknownKind,
         "no matches for kind \"" + kind + "\" in version \"" + api_version + "\"", kind, name,
         doc.pos, ""});
  };
  if (group.empty() && version == "v1") {
    if (kind == "Node")
      return DecodeTyped<Node>(doc, ApiVersion::kV1, true, kind, options, outcome);
    if (kind == "Pod") return DecodeTyped<Pod>(doc, ApiVersion::kV1, true, kind, options, outcome);
    if (kind == "Namespace") {
      return DecodeTyped<Namespace>(doc, ApiVersion::kV1, true, kind, options, outcome);
    }
    return unknown();
  }
  if (group != kResourceGroup) return unknown();
  Result<ApiVersion> v = ParseVersionName(version);
  if (!v.ok() || !Serves(*v, kind)) return unknown();
  DecodeResourceKind(doc, *v, kind, options, outcome);
}

template <class T>
std::string EncodeTyped(const T& object, std::string_view kind, std::string_view api_version,
                        ApiVersion version) {
  std::string out;
  out.reserve(256);
  out += "{\"kind\":";
  json::AppendGoJsonString(out, kind);
  out += ",\"apiVersion\":";
  json::AppendGoJsonString(out, api_version);
  Encoder encoder(out, version);
  bool first = false;
  encoder.WriteFields(object, first);
  out += '}';
  return out;
}

}  // namespace

std::string_view VersionName(ApiVersion v) {
  switch (v) {
    case ApiVersion::kV1:
      return "v1";
    case ApiVersion::kV1beta2:
      return "v1beta2";
    case ApiVersion::kV1beta1:
      return "v1beta1";
    case ApiVersion::kV1alpha3:
      return "v1alpha3";
  }
  return "v1";
}

Result<ApiVersion> ParseVersionName(std::string_view name) {
  if (name == "v1") return ApiVersion::kV1;
  if (name == "v1beta2") return ApiVersion::kV1beta2;
  if (name == "v1beta1") return ApiVersion::kV1beta1;
  if (name == "v1alpha3") return ApiVersion::kV1alpha3;
  return Error{"unknown version \"" + std::string(name) +
               "\" (want v1, v1beta2, v1beta1 or v1alpha3)"};
}

std::string_view KindOf(const Object& object) {
  constexpr std::string_view kNames[] = {"ResourceSlice",
                                         "DeviceClass",
                                         "ResourceClaim",
                                         "ResourceClaimTemplate",
                                         "DeviceTaintRule",
                                         "Node",
                                         "Pod",
                                         "Namespace",
                                         "ResourcePoolStatusRequest"};
  return kNames[object.index()];
}

const ObjectMeta& MetaOf(const Object& object) {
  return std::visit([](const auto& o) -> const ObjectMeta& { return o.metadata; }, object);
}

DecodeOutcome DecodeDocument(const json::Value& document, const DecodeOptions& options) {
  DecodeOutcome outcome;
  DecodeOne(document, options, outcome);
  return outcome;
}

bool IsDecodedKind(std::string_view api_version, std::string_view kind) {
  if (api_version == "v1") return kind == "Node" || kind == "Pod" || kind == "Namespace";
  std::string_view group = api_version.substr(0, api_version.find('/'));
  if (group != kResourceGroup || group.size() == api_version.size()) return false;
  Result<ApiVersion> v = ParseVersionName(api_version.substr(group.size() + 1));
  return v.ok() && Serves(*v, kind);
}

Result<std::string> EncodeObject(const Object& object, ApiVersion version) {
  std::string_view kind = KindOf(object);
  if (std::holds_alternative<Node>(object) || std::holds_alternative<Pod>(object) ||
      std::holds_alternative<Namespace>(object)) {
    return std::visit([&](const auto& o) { return EncodeTyped(o, kind, "v1", ApiVersion::kV1); },
                      object);
  }
  if (!Serves(version, kind)) {
    return Error{std::string(kind) + " is not served in " + std::string(kResourceGroup) + "/" +
                 std::string(VersionName(version))};
  }
  std::string api_version = std::string(kResourceGroup) + "/" + std::string(VersionName(version));
  return std::visit([&](const auto& o) { return EncodeTyped(o, kind, api_version, version); },
                    object);
}

}  // namespace dra::api

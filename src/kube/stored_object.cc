#include "dra/kube/stored_object.h"

#include <utility>

namespace dra::kube {

ApiResult<std::shared_ptr<const StoredObject>> StoreObject(json::Value&& tree) {
  if (!tree.is_object()) return ApiError::Protocol("a cached object is not a JSON object");
  auto out = std::make_shared<StoredObject>();
  json::WriteJson(tree, out->json);
  out->json.shrink_to_fit();
  return std::shared_ptr<const StoredObject>(std::move(out));
}

ApiResult<api::Object> DecodeStored(const StoredObject& object, const ResourceType& type) {
  return DecodeStoredJson(object.json, &type);
}

ApiResult<api::Object> DecodeStoredJson(std::string_view json, const ResourceType* type) {
  json::ParseLimits limits;
  limits.max_depth = 200;
  Result<json::Value> tree = json::ParseJson(json, limits);
  if (!tree.ok()) return ApiError::Protocol("a cached object is not JSON: " + tree.error());
  api::DecodeOptions options;
  options.json_source = json;
  options.apply_defaults = false;
  options.ignore_unknown_fields = true;
  if (type != nullptr) {
    options.default_kind = type->kind;
    options.default_api_version = type->GroupVersion();
  }
  api::DecodeOutcome outcome = api::DecodeDocument(*tree, options);
  if (!outcome.errors.empty()) {
    return ApiError::Protocol("a cached object cannot be read: " + outcome.errors.front().message);
  }
  if (outcome.objects.size() != 1) return ApiError::Protocol("a cached object is not one object");
  return std::move(outcome.objects.front().object);
}

}  // namespace dra::kube

// A memory-lean form of an object for caches that hold a whole cluster's
// ResourceSlices (an informer over thousands of nodes): the object's compact
// JSON text, as the API server's own watch cache keeps serialized objects,
// about an eighth of the memory of dra's decoded objects. Readers decode
// what they read (TypedClient::Decode, or DecodeStored below).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "dra/api/codec.h"
#include "dra/json/value.h"
#include "dra/kube/api_error.h"
#include "dra/kube/resource_client.h"

namespace dra::kube {

// Immutable once made; safe to share between threads.
struct StoredObject {
  std::string json;  // compact JSON of the whole object, as the server sent it
};

// An informer transform: Informer<StoredObject>(source, StoreObject, ...).
ApiResult<std::shared_ptr<const StoredObject>> StoreObject(json::Value&& tree);

// The stored object decoded into dra's typed form. `type` is what the
// informer watched: list items carry no kind or apiVersion, and take its.
ApiResult<api::Object> DecodeStored(const StoredObject& object, const ResourceType& type);

// The same for any compact JSON text of one object (e.g. decompressed from a
// kube::CompressedText); `type` may be null when the text carries its kind
// and apiVersion.
ApiResult<api::Object> DecodeStoredJson(std::string_view json, const ResourceType* type);

}  // namespace dra::kube

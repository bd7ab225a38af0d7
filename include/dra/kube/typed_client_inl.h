// Template members of TypedClient (resource_client.h): each typed verb maps
// its object type to the kind name and goes through the untyped api::Object
// path. Not to be included directly.
#pragma once

#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "dra/kube/resource_client.h"

namespace dra::kube {
namespace internal {

template <class T>
struct KindName;
template <>
struct KindName<api::ResourceSlice> {
  static constexpr std::string_view kValue = "ResourceSlice";
};
template <>
struct KindName<api::DeviceClass> {
  static constexpr std::string_view kValue = "DeviceClass";
};
template <>
struct KindName<api::ResourceClaim> {
  static constexpr std::string_view kValue = "ResourceClaim";
};
template <>
struct KindName<api::ResourceClaimTemplate> {
  static constexpr std::string_view kValue = "ResourceClaimTemplate";
};
template <>
struct KindName<api::DeviceTaintRule> {
  static constexpr std::string_view kValue = "DeviceTaintRule";
};
template <>
struct KindName<api::Node> {
  static constexpr std::string_view kValue = "Node";
};
template <>
struct KindName<api::Pod> {
  static constexpr std::string_view kValue = "Pod";
};
template <>
struct KindName<api::Namespace> {
  static constexpr std::string_view kValue = "Namespace";
};

// The object held, when it is a T: the server answered with another kind.
template <class T>
ApiResult<T> Take(ApiResult<api::Object>&& r) {
  if (!r.ok()) return r.error();
  if (T* t = std::get_if<T>(&r.value())) return std::move(*t);
  return ApiError::Protocol("the server answered a request for " +
                            std::string(KindName<T>::kValue) + " with a " +
                            std::string(api::KindOf(r.value())));
}

}  // namespace internal

template <class T>
ApiResult<T> TypedClient::Get(std::string_view ns, std::string_view name) {
  return internal::Take<T>(GetObject(internal::KindName<T>::kValue, ns, name));
}

template <class T>
ApiResult<std::vector<T>> TypedClient::List(std::string_view ns, const ListOptions& options,
                                            std::string* resource_version) {
  auto all = ListObjects(internal::KindName<T>::kValue, ns, options, resource_version);
  if (!all.ok()) return all.error();
  std::vector<T> out;
  out.reserve(all->size());
  for (api::Object& o : *all) {
    if (T* t = std::get_if<T>(&o)) out.push_back(std::move(*t));
  }
  return out;
}

template <class T>
ApiResult<T> TypedClient::Create(const T& object, const WriteOptions& options) {
  return internal::Take<T>(Write(api::Object(object), true, {}, options));
}

template <class T>
ApiResult<T> TypedClient::Update(const T& object, const WriteOptions& options) {
  return internal::Take<T>(Write(api::Object(object), false, {}, options));
}

template <class T>
ApiResult<T> TypedClient::UpdateStatus(const T& object, const WriteOptions& options) {
  return internal::Take<T>(Write(api::Object(object), false, "status", options));
}

template <class T>
ApiStatus TypedClient::Delete(std::string_view ns, std::string_view name,
                              const DeleteOptions& options) {
  auto r = objects_.Delete(TypeOfKind(internal::KindName<T>::kValue, version_), ns, name, options);
  if (!r.ok()) return r.error();
  return Done{};
}

}  // namespace dra::kube

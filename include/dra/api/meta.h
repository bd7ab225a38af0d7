// The apimachinery (meta/v1) parts every object carries.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "dra/api/list.h"

namespace dra::api {

// metav1.Time: whole seconds since the Unix epoch, UTC. Unset encodes as
// absent (omitempty) or null.
struct Time {
  bool set = false;
  std::int64_t seconds = 0;

  bool IsZero() const { return !set; }
  static Time FromUnix(std::int64_t s) { return Time{true, s}; }
  bool operator==(const Time&) const = default;
};

// A JSON value kept as its exact bytes (runtime.RawExtension). Empty = nil.
struct RawExtension {
  std::string raw;
  bool empty() const { return raw.empty(); }
  bool operator==(const RawExtension&) const = default;
};

using StringMap = std::map<std::string, std::string>;

struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  std::optional<bool> controller;
  std::optional<bool> block_owner_deletion;
  bool operator==(const OwnerReference&) const = default;
};

struct ManagedFieldsEntry {
  std::string manager;
  std::string operation;
  std::string api_version;
  Time time;
  std::string fields_type;
  RawExtension fields_v1;
  std::string subresource;
  bool operator==(const ManagedFieldsEntry&) const = default;
};

struct ObjectMeta {
  std::string name;
  std::string generate_name;
  std::string namespace_;
  std::string self_link;
  std::string uid;
  std::string resource_version;
  std::int64_t generation = 0;
  Time creation_timestamp;
  Time deletion_timestamp;
  std::optional<std::int64_t> deletion_grace_period_seconds;
  StringMap labels;
  StringMap annotations;
  List<OwnerReference> owner_references;
  List<std::string> finalizers;
  List<ManagedFieldsEntry> managed_fields;
  bool operator==(const ObjectMeta&) const = default;
};

struct ListMeta {
  std::string self_link;
  std::string resource_version;
  std::string continue_;
  std::optional<std::int64_t> remaining_item_count;
  bool operator==(const ListMeta&) const = default;
};

struct Condition {
  std::string type;
  std::string status;
  std::int64_t observed_generation = 0;
  Time last_transition_time;
  std::string reason;
  std::string message;
  bool operator==(const Condition&) const = default;
};

// Common header of every top-level object.
struct TypeMeta {
  std::string kind;
  std::string api_version;
  bool operator==(const TypeMeta&) const = default;
};

}  // namespace dra::api

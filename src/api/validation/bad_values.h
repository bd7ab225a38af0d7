// Bad values that are not plain strings or numbers, rendered the way
// apimachinery renders them in field errors (Error.ErrorBody in
// k8s.io/apimachinery/pkg/util/validation/field): Go JSON of the value.
// Declarative validation reports versioned objects (JSON names, in the
// request's API version); hand-written validation reports internal structs
// (Go field names).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/codec/encoder.h"
#include "dra/api/codec.h"
#include "dra/api/list.h"

namespace dra::api::validation {

// The API version whose JSON shape declarative errors use.
ApiVersion DeclarativeVersion(std::string_view request_version);

// `value` as the versioned object `version` encodes it.
template <class T>
std::string VersionedJson(const T& value, ApiVersion version) {
  std::string out;
  codec::Encoder(out, version).Write(value);
  return out;
}

// A JSON string literal with Go's escaping.
std::string GoJsonString(std::string_view s);
inline std::string GoJsonString(const std::string& s) { return GoJsonString(std::string_view(s)); }
inline std::string GoJsonString(const char* s) { return GoJsonString(std::string_view(s)); }
// A *string field: the literal, or null.
std::string GoJsonString(const std::optional<std::string>& s);
// A []string field: null when nil, else an array of literals.
std::string GoJsonStringList(const List<std::string>& list);

}  // namespace dra::api::validation

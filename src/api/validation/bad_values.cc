#include "api/validation/bad_values.h"

#include "dra/json/value.h"

namespace dra::api::validation {

ApiVersion DeclarativeVersion(std::string_view request_version) {
  // v1beta2 has the v1 shape; only v1beta1 differs.
  return request_version == "v1beta1" ? ApiVersion::kV1beta1 : ApiVersion::kV1;
}

std::string GoJsonString(std::string_view s) {
  std::string out;
  json::AppendGoJsonString(out, s);
  return out;
}

std::string GoJsonString(const std::optional<std::string>& s) {
  return s ? GoJsonString(*s) : "null";
}

std::string GoJsonStringList(const List<std::string>& list) {
  if (list.nil()) return "null";
  std::string out = "[";
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out += ',';
    json::AppendGoJsonString(out, list[i]);
  }
  out += ']';
  return out;
}

}  // namespace dra::api::validation

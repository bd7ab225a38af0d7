// Small pieces of the wire format that several parts of the kube layer
// share: fields read from JSON answers, percent-escaping in its three
// flavours, and write options as query parameters. Internal to src/kube.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dra/json/value.h"
#include "dra/kube/resource_client.h"

namespace dra::kube::wire {

// The string member `key` of an object, or nullptr (absent, not a string,
// or `object` not an object).
const std::string* StringField(const json::Value& object, std::string_view key);
// The same, "" when missing.
std::string StringAt(const json::Value& object, std::string_view key);
// An integer member, 0 when missing or not an int.
int IntAt(const json::Value& object, std::string_view key);
// metadata.<field> of an object, "" when missing.
std::string MetaString(const json::Value& object, std::string_view field);

// Every byte that is not alphanumeric or in `kept` as %XX (uppercase hex),
// and a space as '+' when `space_as_plus`:
//   query values (url.QueryEscape):      kept "-_.~", space_as_plus
//   path segments (url.URL.EscapedPath): kept "-._~!$&'()*+,;=:@"
//   header keys (client-go's headerKeyEscape): kept "!#$&'*+-.^_`|~"
std::string PercentEscape(std::string_view s, std::string_view kept, bool space_as_plus = false);
inline constexpr std::string_view kQueryKept = "-_.~";
inline constexpr std::string_view kPathKept = "-._~!$&'()*+,;=:@";
inline constexpr std::string_view kHeaderKeyKept = "!#$&'*+-.^_`|~";

// dryRun, fieldManager and fieldValidation as query parameters.
void AddWriteOptions(std::vector<std::pair<std::string, std::string>>& query,
                     const WriteOptions& options);

}  // namespace dra::kube::wire

// metav1.Time text: RFC 3339 in, RFC 3339 UTC with whole seconds out.
#pragma once

#include <string>
#include <string_view>

#include "dra/api/meta.h"
#include "dra/json/value.h"
#include "dra/util/result.h"

namespace dra::api::codec {

// Accepts Go's time.RFC3339 layout (fractional seconds allowed and
// truncated, as metav1.Time keeps whole seconds).
Result<Time> ParseRfc3339(std::string_view text);
// "2026-07-24T04:09:49Z". REQUIRES: t.set.
std::string FormatRfc3339(const Time& t);

// A copy of `v` with every object's members sorted by key, as Go's
// encoding/json writes maps (what sigs.k8s.io/yaml produces for YAML input).
json::Value SortedKeys(const json::Value& v);

}  // namespace dra::api::codec

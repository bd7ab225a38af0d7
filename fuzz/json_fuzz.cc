// ParseJson on arbitrary bytes: errors are positioned, raw spans re-parse to
// the same values, and every writer's output reads back as the same tree.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "dra/json/value.h"
#include "tree_checks.h"

namespace {

using dra::fuzz::Check;
using dra::fuzz::CheckWriters;
using dra::fuzz::Equal;
using dra::fuzz::IsPositionedError;
using dra::json::Member;
using dra::json::Value;

void CheckRaw(std::string_view text, const Value& v, int depth) {
  Check(v.raw_end > v.raw_begin && v.raw_end <= text.size());
  if (depth > 3) return;
  auto again = dra::json::ParseJson(text.substr(v.raw_begin, v.raw_end - v.raw_begin));
  Check(again.ok() && Equal(*again, v));
  for (const Value& item : v.items) CheckRaw(text, item, depth + 1);
  for (const Member& m : v.members) CheckRaw(text, m.value, depth + 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  dra::json::ParseLimits limits;
  limits.max_depth = 200;
  limits.max_values = 200000;
  auto r = dra::json::ParseJson(text, limits);
  if (!r.ok()) {
    Check(IsPositionedError(r.error()));
    return 0;
  }
  CheckRaw(text, *r, 0);
  CheckWriters(*r);
  return 0;
}

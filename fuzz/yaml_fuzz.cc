// ParseYaml on arbitrary bytes: errors are positioned, limits hold (no
// crash, no runaway memory), YAML values carry no raw span, and every
// writer's output reads back as the same tree.
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

bool HasPositionsOnlyAndNoRaw(const Value& v) {
  if (v.raw_begin != 0 || v.raw_end != 0) return false;
  for (const Value& item : v.items) {
    if (!HasPositionsOnlyAndNoRaw(item)) return false;
  }
  for (const Member& m : v.members) {
    if (!HasPositionsOnlyAndNoRaw(m.value)) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  dra::json::ParseLimits limits;
  limits.max_values = 200000;
  auto r = dra::json::ParseYaml(text, limits);
  if (!r.ok()) {
    Check(IsPositionedError(r.error()));
    return 0;
  }
  Check(!r->empty());
  for (const dra::json::YamlDocument& doc : *r) {
    Check(HasPositionsOnlyAndNoRaw(doc.root));
    Check(!doc.empty || doc.root.is_null());
    CheckWriters(doc.root);
  }
  return 0;
}

// Compiled RE2 programs shared across evaluations. Selectors almost always
// use constant patterns, so a pattern is compiled once per thread and reused;
// lookups do not allocate.
#pragma once

#include <re2/re2.h>

#include <string>
#include <string_view>

namespace dra::cel {

// The compiled pattern (Go regexp syntax as RE2 accepts it), or nullptr with
// *error set to RE2's message. The pointer stays valid until the calling
// thread compiles kMaxCachedRegexes more patterns.
const RE2* CompiledRegex(std::string_view pattern, std::string* error);

inline constexpr std::size_t kMaxCachedRegexes = 64;

}  // namespace dra::cel

#include "cel/regex_cache.h"

#include <memory>
#include <unordered_map>

namespace dra::cel {
namespace {

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

using Cache = std::unordered_map<std::string, std::unique_ptr<RE2>, StringHash, std::equal_to<>>;

}  // namespace

const RE2* CompiledRegex(std::string_view pattern, std::string* error) {
  thread_local Cache cache;
  if (auto it = cache.find(pattern); it != cache.end()) {
    if (it->second->ok()) return it->second.get();
    *error = it->second->error();
    return nullptr;
  }
  if (cache.size() >= kMaxCachedRegexes) cache.clear();
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  const RE2* result = re.get();
  cache.emplace(std::string(pattern), std::move(re));
  if (!result->ok()) {
    *error = result->error();
    return nullptr;
  }
  return result;
}

}  // namespace dra::cel

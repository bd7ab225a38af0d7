// A cache of compiled selectors keyed by expression text, so that an
// allocator compiles each distinct expression once however many claims and
// classes repeat it.
#pragma once

#include <cstddef>
#include <list>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "dra/cel/program.h"

namespace dra::cel {

class CompileCache {
 public:
  // Keeps at most `capacity` compilations (least recently used evicted).
  // REQUIRES: capacity > 0.
  explicit CompileCache(std::size_t capacity = 1024, CompileOptions options = {});

  // Compile() through the cache. Failed compilations are cached too: the same
  // text fails the same way. Thread-safe.
  Compilation GetOrCompile(std::string_view expression);

  std::size_t size() const;

 private:
  struct Entry {
    std::string expression;
    Compilation compilation;
  };
  using Lru = std::list<Entry>;

  const std::size_t capacity_;
  const CompileOptions options_;
  mutable std::mutex mu_;
  Lru lru_;                                                    // most recently used first
  std::unordered_map<std::string_view, Lru::iterator> index_;  // keys point into lru_
};

}  // namespace dra::cel

// A cache of compiled selectors keyed by expression text, so that an
// allocator compiles each distinct expression once however many claims and
// classes repeat it.
//
// Thread-safety: every method may be called from any thread at any time.
// GetOrCompile returns a copy: its Program is shared and stays valid as long
// as the caller keeps the Compilation, whether or not the cache evicts it.
#pragma once

#include <cstddef>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>

#include "dra/cel/program.h"
#include "dra/util/mutex.h"

namespace dra::cel {

class CompileCache {
 public:
  // Keeps at most `capacity` compilations (least recently used evicted).
  // REQUIRES: capacity > 0.
  explicit CompileCache(std::size_t capacity = 1024, CompileOptions options = {});

  // Compile() through the cache. Failed compilations are cached too: the same
  // text fails the same way. Thread-safe.
  Compilation GetOrCompile(std::string_view expression) DRA_EXCLUDES(mu_);

  std::size_t size() const;

 private:
  struct Entry {
    std::string expression;
    Compilation compilation;
  };
  using Lru = std::list<Entry>;

  const std::size_t capacity_;
  const CompileOptions options_;
  mutable Mutex mu_;
  Lru lru_ DRA_GUARDED_BY(mu_);  // most recently used first
  // keys point into lru_
  std::unordered_map<std::string_view, Lru::iterator> index_ DRA_GUARDED_BY(mu_);
};

}  // namespace dra::cel

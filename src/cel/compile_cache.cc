#include "dra/cel/compile_cache.h"

#include "dra/util/mutex.h"

namespace dra::cel {

CompileCache::CompileCache(std::size_t capacity, CompileOptions options)
    : capacity_(capacity), options_(options) {}

Compilation CompileCache::GetOrCompile(std::string_view expression) {
  {
    MutexLock lock(mu_);
    if (auto it = index_.find(expression); it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      return it->second->compilation;
    }
  }
  // Compile outside the lock; a concurrent miss on the same text compiles
  // twice and keeps the first result.
  Compilation compiled = Compile(expression, options_);
  MutexLock lock(mu_);
  if (auto it = index_.find(expression); it != index_.end()) return it->second->compilation;
  lru_.push_front(Entry{std::string(expression), compiled});
  index_.emplace(lru_.front().expression, lru_.begin());
  if (lru_.size() > capacity_) {
    index_.erase(lru_.back().expression);
    lru_.pop_back();
  }
  return compiled;
}

std::size_t CompileCache::size() const {
  MutexLock lock(mu_);
  return lru_.size();
}

}  // namespace dra::cel

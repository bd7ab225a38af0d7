// An informer's cache: its objects by key ("namespace/name", or "name" for a
// cluster-scoped kind). Open addressing with linear probing over slots of
// the object and its key's place in one text of every key, so that an
// entry costs its slot (24 bytes, the table at most three quarters full)
// and its key's bytes: some 60 bytes, where a hash map of strings took over
// a hundred. Both are single large blocks: a cache filled while the
// documents of a list come and go does not leave small entries scattered
// among their freed pages, keeping those resident.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dra/kube/informer.h"

namespace dra::kube::internal {

// Not thread-safe: the informer guards it with its cache lock. Objects are
// never null in it.
class KeyedObjects {
 public:
  KeyedObjects() = default;
  KeyedObjects(const KeyedObjects&) = delete;
  KeyedObjects& operator=(const KeyedObjects&) = delete;

  // Room for `n` entries without growing.
  void Reserve(std::size_t n);
  std::size_t size() const { return size_; }

  // The object at `key`, or null.
  const ErasedObject* Find(std::string_view key) const;
  // Sets the object at `key` (REQUIRES: not null); returns what was there,
  // null if nothing.
  ErasedObject Put(std::string_view key, ErasedObject object);
  // Removes `key`; returns what was there, null if nothing.
  ErasedObject Erase(std::string_view key);

  // Calls f(key, object) for every entry, in no particular order. REQUIRES:
  // `f` does not change the table.
  template <class F>
  void ForEach(F f) const {
    for (const Slot& s : slots_) {
      if (s.object != nullptr) f(KeyOf(s), s.object);
    }
  }

  // Every object, in no particular order.
  std::vector<ErasedObject> Objects() const;

  // Bytes held, for the memory figures.
  std::size_t bytes() const { return slots_.capacity() * sizeof(Slot) + keys_.capacity(); }

 private:
  struct Slot {
    ErasedObject object;  // null: empty
    std::uint32_t key_at = 0;
    std::uint32_t key_size = 0;
  };

  std::string_view KeyOf(const Slot& s) const { return {keys_.data() + s.key_at, s.key_size}; }
  // The slot of `key`, or the empty slot where it would go. REQUIRES: slots_
  // is not empty.
  std::size_t SlotOf(std::string_view key) const;
  // Rehashes into `slots` slots (a power of two), writing the keys anew
  // without the bytes of erased ones.
  void Rebuild(std::size_t slots);

  std::vector<Slot> slots_;  // a power of two in size, or empty
  std::string keys_;         // every key back to back, and erased ones
  std::size_t size_ = 0;
  std::size_t erased_bytes_ = 0;  // of keys_, belonging to erased entries
};

}  // namespace dra::kube::internal

// A map kept as a vector sorted by key, for the few entries a node holds
// (its extended resources, the priorities of its pods): 24 bytes when
// empty where std::map takes 48, and one allocation where std::map takes
// one per entry. Lookups are binary searches; inserting moves the entries
// after the new one, which is cheap for a handful.
//
// Thread-safety: as a std::vector. Iterators and references are invalidated
// by operator[] of a new key and by erase.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace dra::scheduler {

template <class K, class V>
class SmallMap {
 public:
  using value_type = std::pair<K, V>;
  using iterator = typename std::vector<value_type>::iterator;
  using const_iterator = typename std::vector<value_type>::const_iterator;

  V& operator[](const K& key) {
    auto it = LowerBound(key);
    if (it == entries_.end() || it->first != key) it = entries_.insert(it, {key, V{}});
    return it->second;
  }
  iterator find(const K& key) {
    auto it = LowerBound(key);
    return it != entries_.end() && it->first == key ? it : entries_.end();
  }
  const_iterator find(const K& key) const {
    auto it = LowerBound(key);
    return it != entries_.end() && it->first == key ? it : entries_.end();
  }
  iterator erase(const_iterator it) { return entries_.erase(it); }

  iterator begin() { return entries_.begin(); }
  iterator end() { return entries_.end(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }
  bool operator==(const SmallMap&) const = default;

 private:
  static bool KeyBefore(const value_type& e, const K& k) { return e.first < k; }
  iterator LowerBound(const K& key) {
    return std::lower_bound(entries_.begin(), entries_.end(), key, KeyBefore);
  }
  const_iterator LowerBound(const K& key) const {
    return std::lower_bound(entries_.begin(), entries_.end(), key, KeyBefore);
  }

  std::vector<value_type> entries_;  // sorted by key, keys distinct
};

}  // namespace dra::scheduler

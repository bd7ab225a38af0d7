#include "kube/keyed_objects.h"

#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

namespace dra::kube::internal {
namespace {

constexpr std::size_t kMinSlots = 8;

std::size_t HashOf(std::string_view key) { return std::hash<std::string_view>{}(key); }

// Slots for `n` entries at most three quarters full: a power of two.
std::size_t SlotsFor(std::size_t n) {
  std::size_t slots = kMinSlots;
  while (slots / 4 * 3 < n) slots *= 2;
  return slots;
}

}  // namespace

void KeyedObjects::Reserve(std::size_t n) {
  const std::size_t slots = SlotsFor(n);
  if (slots > slots_.size()) Rebuild(slots);
}

std::size_t KeyedObjects::SlotOf(std::string_view key) const {
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = HashOf(key) & mask;
  while (slots_[i].object != nullptr && KeyOf(slots_[i]) != key) i = (i + 1) & mask;
  return i;
}

const ErasedObject* KeyedObjects::Find(std::string_view key) const {
  if (slots_.empty()) return nullptr;
  const Slot& s = slots_[SlotOf(key)];
  return s.object != nullptr ? &s.object : nullptr;
}

ErasedObject KeyedObjects::Put(std::string_view key, ErasedObject object) {
  if ((size_ + 1) > slots_.size() / 4 * 3) Rebuild(SlotsFor(size_ + 1));
  Slot& s = slots_[SlotOf(key)];
  if (s.object != nullptr) return std::exchange(s.object, std::move(object));
  if (keys_.size() + key.size() > std::numeric_limits<std::uint32_t>::max()) {
    Rebuild(slots_.size());  // drops erased keys' bytes
    if (keys_.size() + key.size() > std::numeric_limits<std::uint32_t>::max()) {
      throw std::length_error("informer cache: keys over 4 GiB");
    }
    return Put(key, std::move(object));
  }
  s.key_at = static_cast<std::uint32_t>(keys_.size());
  s.key_size = static_cast<std::uint32_t>(key.size());
  keys_.append(key);
  s.object = std::move(object);
  ++size_;
  return nullptr;
}

ErasedObject KeyedObjects::Erase(std::string_view key) {
  if (slots_.empty()) return nullptr;
  const std::size_t mask = slots_.size() - 1;
  std::size_t hole = SlotOf(key);
  if (slots_[hole].object == nullptr) return nullptr;
  ErasedObject out = std::move(slots_[hole].object);
  erased_bytes_ += slots_[hole].key_size;
  slots_[hole] = Slot();
  --size_;
  // Backward-shift deletion: every entry after the hole in its run that
  // may live at the hole (its home slot is not cyclically in (hole, j])
  // moves there, so that lookups never meet an empty slot before their key.
  for (std::size_t j = (hole + 1) & mask; slots_[j].object != nullptr; j = (j + 1) & mask) {
    const std::size_t home = HashOf(KeyOf(slots_[j])) & mask;
    const bool home_in_between =
        hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (home_in_between) continue;
    slots_[hole] = std::move(slots_[j]);
    slots_[j] = Slot();
    hole = j;
  }
  // Erased keys' bytes go once they are most of the text.
  if (erased_bytes_ > 4096 && erased_bytes_ > keys_.size() / 2) Rebuild(slots_.size());
  return out;
}

std::vector<ErasedObject> KeyedObjects::Objects() const {
  std::vector<ErasedObject> out;
  out.reserve(size_);
  for (const Slot& s : slots_) {
    if (s.object != nullptr) out.push_back(s.object);
  }
  return out;
}

void KeyedObjects::Rebuild(std::size_t slots) {
  std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(slots));
  std::string old_keys = std::exchange(keys_, std::string());
  keys_.reserve(old_keys.size() - erased_bytes_);
  erased_bytes_ = 0;
  const std::size_t mask = slots - 1;
  for (Slot& s : old) {
    if (s.object == nullptr) continue;
    const std::string_view key(old_keys.data() + s.key_at, s.key_size);
    std::size_t i = HashOf(key) & mask;
    while (slots_[i].object != nullptr) i = (i + 1) & mask;
    slots_[i].object = std::move(s.object);
    slots_[i].key_at = static_cast<std::uint32_t>(keys_.size());
    slots_[i].key_size = s.key_size;
    keys_.append(key);
  }
}

}  // namespace dra::kube::internal

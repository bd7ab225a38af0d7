#include "allocator/device_table.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace dra::allocator {
namespace {

void Mix(std::size_t& h, std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

std::size_t Hash(std::string_view s) { return std::hash<std::string_view>{}(s); }

// Equal also in which lists are present: an empty list that is set decides
// the attribute's type.
bool SameAttribute(const api::DeviceAttribute& a, const api::DeviceAttribute& b) {
  return a == b && a.int_values.nil() == b.int_values.nil() &&
         a.bool_values.nil() == b.bool_values.nil() &&
         a.string_values.nil() == b.string_values.nil() &&
         a.version_values.nil() == b.version_values.nil();
}

std::size_t AttributeHash(std::string_view driver, const std::string& name,
                          const api::DeviceAttribute& a) {
  std::size_t h = Hash(driver);
  Mix(h, Hash(name));
  if (a.int_value) Mix(h, std::hash<std::int64_t>{}(*a.int_value));
  if (a.bool_value) Mix(h, *a.bool_value ? 3 : 5);
  if (a.string_value) Mix(h, Hash(*a.string_value));
  if (a.version_value) Mix(h, Hash(*a.version_value));
  for (std::int64_t v : a.int_values) Mix(h, std::hash<std::int64_t>{}(v));
  for (const std::string& s : a.string_values) Mix(h, Hash(s));
  for (const std::string& s : a.version_values) Mix(h, Hash(s));
  Mix(h, a.bool_values.size());
  return h;
}

// Quantities equal in value, format and text: results print them.
bool SameQuantity(const api::Quantity& a, const api::Quantity& b) {
  return a == b && a.format() == b.format() && a.String() == b.String();
}

bool SameQuantity(const std::optional<api::Quantity>& a, const std::optional<api::Quantity>& b) {
  return a.has_value() == b.has_value() && (!a || SameQuantity(*a, *b));
}

bool SameCapacity(const api::DeviceCapacity& a, const api::DeviceCapacity& b) {
  if (!SameQuantity(a.value, b.value)) return false;
  if (a.request_policy.has_value() != b.request_policy.has_value()) return false;
  if (!a.request_policy) return true;
  const api::CapacityRequestPolicy& x = *a.request_policy;
  const api::CapacityRequestPolicy& y = *b.request_policy;
  if (!SameQuantity(x.default_, y.default_)) return false;
  if (x.valid_values.size() != y.valid_values.size() ||
      x.valid_values.nil() != y.valid_values.nil()) {
    return false;
  }
  for (std::size_t i = 0; i < x.valid_values.size(); ++i) {
    if (!SameQuantity(x.valid_values[i], y.valid_values[i])) return false;
  }
  if (x.valid_range.has_value() != y.valid_range.has_value()) return false;
  if (!x.valid_range) return true;
  return SameQuantity(x.valid_range->min, y.valid_range->min) &&
         SameQuantity(x.valid_range->max, y.valid_range->max) &&
         SameQuantity(x.valid_range->step, y.valid_range->step);
}

// Whether `a` is exactly one scalar value field and no list, which
// NamedAttribute keeps as its view alone.
bool IsOneScalar(const api::DeviceAttribute& a) {
  const int scalars = int{a.int_value.has_value()} + int{a.bool_value.has_value()} +
                      int{a.string_value.has_value()} + int{a.version_value.has_value()};
  return scalars == 1 && a.int_values.nil() && a.bool_values.nil() && a.string_values.nil() &&
         a.version_values.nil();
}

// Whether entry `e` holds what `a` publishes.
bool SameAttribute(const NamedAttribute& e, const api::DeviceAttribute& a) {
  if (const api::DeviceAttribute* published = e.published()) return SameAttribute(*published, a);
  if (!IsOneScalar(a)) return false;
  using Kind = cel::AttributeValueView::Kind;
  switch (e.value.kind) {
    case Kind::kInt:
      return a.int_value == e.value.int_value;
    case Kind::kBool:
      return a.bool_value == e.value.bool_value;
    case Kind::kString:
      return a.string_value && *a.string_value == e.value.string_value;
    case Kind::kVersion:
      return a.version_value && *a.version_value == e.value.string_value;
    default:
      return false;
  }
}

}  // namespace

static_assert(sizeof(NamedAttribute) <= 40, "a distinct attribute is one per device in a fleet");

namespace {

// Distinct entries by hash in one array, probed linearly. Large, it is
// mapped apart from the heap and goes whole at Seal; a node-based multimap
// left its 40,000 small blocks (one per distinct uuid) as holes between the
// entries the table keeps. V names an entry; kNone is no entry.
template <class V, V kNone>
class HashSlots {
 public:
  // The entry with hash `h` for which same(entry) holds; kNone when none.
  template <class Same>
  V Find(std::size_t h, Same same) const {
    if (slots_.empty()) return kNone;
    for (std::size_t i = Start(h);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& slot = slots_[i];
      if (slot.entry == kNone) return kNone;
      if (slot.hash == h && same(slot.entry)) return slot.entry;
    }
  }
  void Insert(std::size_t h, V entry) {
    if ((size_ + 1) * 4 > slots_.size() * 3) Grow();
    Place(h, entry);
    ++size_;
  }

 private:
  struct Slot {
    std::size_t hash = 0;
    V entry = kNone;
  };
  // Fibonacci hashing: the product's high bits, so that hashes differing
  // only in high bits spread too.
  std::size_t Start(std::size_t h) const {
    return static_cast<std::size_t>((h * 0x9e3779b97f4a7c15ULL) >> shift_);
  }
  void Place(std::size_t h, V entry) {
    std::size_t i = Start(h);
    while (slots_[i].entry != kNone) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = {h, entry};
  }
  void Grow() {
    std::vector<Slot> old =
        std::exchange(slots_, std::vector<Slot>(std::max<std::size_t>(16, 2 * slots_.size())));
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(slots_.size()));
    for (const Slot& slot : old) {
      if (slot.entry != kNone) Place(slot.hash, slot.entry);
    }
  }

  std::vector<Slot> slots_;  // a power of two long, at most 3/4 used
  std::size_t size_ = 0;
  unsigned shift_ = 63;
};

constexpr DeviceTable::Index kNoAttribute = ~DeviceTable::Index{0};

}  // namespace

struct DeviceTable::Distinct {
  std::unordered_set<std::string_view> names;  // in text_
  // Name records by (name in text_, driver for a name without a domain,
  // else null): the pair decides the split.
  struct PairHash {
    std::size_t operator()(const std::pair<const char*, const char*>& p) const {
      std::size_t h = std::hash<const void*>{}(p.first);
      Mix(h, std::hash<const void*>{}(p.second));
      return h;
    }
  };
  std::unordered_map<std::pair<const char*, const char*>, const AttributeName*, PairHash>
      name_records;
  HashSlots<Index, kNoAttribute> attributes;  // entry numbers
  HashSlots<const NamedCapacity*, nullptr> capacities;
};

DeviceTable::DeviceTable(bool hide_multiple_allocations)
    : attribute_begin_{0},
      capacity_begin_{0},
      hide_multiple_allocations_(hide_multiple_allocations),
      distinct_(std::make_unique<Distinct>()) {}

DeviceTable::~DeviceTable() = default;

const AttributeName* DeviceTable::NameRecord(std::string_view name, bool has_domain,
                                             std::string_view driver) {
  auto known = distinct_->names.find(name);
  if (known == distinct_->names.end()) known = distinct_->names.insert(KeepText(text_, name)).first;
  auto [record, inserted] = distinct_->name_records.try_emplace(
      {known->data(), has_domain ? nullptr : driver.data()}, nullptr);
  if (inserted) {
    cel::QualifiedName q = cel::SplitQualifiedName(*known, driver);
    record->second = &names_.emplace_back(AttributeName{*known, q.domain, q.id});
  }
  return record->second;
}

void DeviceTable::Add(const api::Device& d, std::string_view driver) {
  if (driver_names_.empty() || driver_names_.back() != driver) {
    std::uint32_t i = 0;
    while (i < driver_names_.size() && driver_names_[i] != driver) ++i;
    if (i == driver_names_.size()) driver_names_.push_back(driver);
    drivers_.push_back(i);
  } else {
    drivers_.push_back(static_cast<std::uint32_t>(driver_names_.size() - 1));
  }
  multiple_.push_back(!hide_multiple_allocations_ && d.allow_multiple_allocations.value_or(false));
  for (const auto& attribute : d.attributes) {
    // Named, not bound: the lookup's lambda captures them.
    const std::string& name = attribute.first;
    const api::DeviceAttribute& a = attribute.second;
    const bool has_domain = name.find('/') != std::string::npos;
    const std::size_t h = AttributeHash(driver, name, a);
    Index number = distinct_->attributes.Find(h, [&](Index n) {
      const NamedAttribute& e = *Attribute(n);
      const bool same_domain_rule = has_domain || e.domain().data() == driver.data();
      return e.name() == name && same_domain_rule && SameAttribute(e, a);
    });
    if (number == kNoAttribute) {
      number = static_cast<Index>(attributes_.appended());
      NamedAttribute& e = *attributes_.Append();
      e.names = NameRecord(name, has_domain, driver);
      if (IsOneScalar(a)) {
        cel::AttributeViewStorage unused;  // a scalar's view uses none
        e.value = cel::ViewAttribute(a, unused);
        using Kind = cel::AttributeValueView::Kind;
        if (e.value.kind == Kind::kString || e.value.kind == Kind::kVersion) {
          e.value.string_value = KeepText(text_, e.value.string_value);
        }
      } else {
        ++published_;
        auto kept = std::make_unique<PublishedAttribute>();
        kept->attribute = a;
        e.value = cel::ViewAttribute(kept->attribute, kept->storage);
        e.kept = std::move(kept);
      }
      distinct_->attributes.Insert(h, number);
    }
    attribute_refs_.push_back(number);
  }
  for (const auto& capacity : d.capacity) {
    const std::string& name = capacity.first;
    const api::DeviceCapacity& c = capacity.second;
    std::size_t h = Hash(driver);
    Mix(h, Hash(name));
    Mix(h, Hash(c.value.String()));
    const NamedCapacity* found = distinct_->capacities.Find(h, [&](const NamedCapacity* entry) {
      const NamedCapacity& e = *entry;
      const bool same_domain_rule =
          name.find('/') != std::string::npos || e.domain.data() == driver.data();
      return e.name == name && same_domain_rule && SameCapacity(e.capacity, c);
    });
    if (found == nullptr) {
      NamedCapacity& e = capacities_.emplace_back();
      e.name = name;
      e.capacity = c;
      cel::QualifiedName q = cel::SplitQualifiedName(e.name, driver);
      e.domain = q.domain;
      e.id = q.id;
      distinct_->capacities.Insert(h, &e);
      found = &e;
    }
    capacity_refs_.push_back(found);
  }
  attribute_begin_.push_back(static_cast<Index>(attribute_refs_.size()));
  capacity_begin_.push_back(static_cast<Index>(capacity_refs_.size()));
}

void DeviceTable::Seal() {
  distinct_.reset();
  drivers_.shrink_to_fit();
  multiple_.shrink_to_fit();
  attribute_begin_.shrink_to_fit();
  capacity_begin_.shrink_to_fit();
  attribute_refs_.shrink_to_fit();
  capacity_refs_.shrink_to_fit();
  capacities_.shrink_to_fit();
}

std::size_t DeviceTable::bytes() const {
  // Distinct entries: their own size plus a rough allowance for their heap.
  constexpr std::size_t kEntryHeap = 64;
  return drivers_.capacity() * sizeof(std::uint32_t) + multiple_.capacity() +
         (attribute_begin_.capacity() + capacity_begin_.capacity()) * sizeof(Index) +
         attribute_refs_.capacity() * sizeof(Index) + capacity_refs_.capacity() * sizeof(void*) +
         attributes_.bytes() + text_.bytes() + names_.size() * sizeof(AttributeName) +
         published_ * (sizeof(PublishedAttribute) + kEntryHeap) +
         capacities_.size() * (sizeof(NamedCapacity) + kEntryHeap);
}

const cel::AttributeValueView* DeviceTable::View::FindAttribute(std::string_view domain,
                                                                std::string_view id) const {
  for (const NamedAttribute* a : table_->attributes(device_)) {
    if (a->id() == id && a->domain() == domain) return &a->value;
  }
  return nullptr;
}

const api::Quantity* DeviceTable::View::FindCapacity(std::string_view domain,
                                                     std::string_view id) const {
  for (const NamedCapacity* c : table_->capacities(device_)) {
    if (c->id == id && c->domain == domain) return &c->capacity.value;
  }
  return nullptr;
}

std::size_t DeviceTable::View::attribute_count() const {
  return table_->attribute_begin_[device_ + 1] - table_->attribute_begin_[device_];
}
std::string_view DeviceTable::View::attribute_domain(std::size_t i) const {
  return table_->attributes(device_)[i]->domain();
}
std::string_view DeviceTable::View::attribute_id(std::size_t i) const {
  return table_->attributes(device_)[i]->id();
}
std::size_t DeviceTable::View::capacity_count() const {
  return table_->capacity_begin_[device_ + 1] - table_->capacity_begin_[device_];
}
std::string_view DeviceTable::View::capacity_domain(std::size_t i) const {
  return table_->capacity_refs_[table_->capacity_begin_[device_] + i]->domain;
}
std::string_view DeviceTable::View::capacity_id(std::size_t i) const {
  return table_->capacity_refs_[table_->capacity_begin_[device_] + i]->id;
}

}  // namespace dra::allocator

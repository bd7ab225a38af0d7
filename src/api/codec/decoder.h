// Decodes a JSON tree into the typed objects, driven by the field tables, the
// way kube-apiserver's strict decoder does: case-sensitive field names,
// unknown and duplicate fields collected as strict errors, the first type
// error reported in Go's encoding/json wording, null leaving values unset.
#pragma once

#include <charconv>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "api/codec/beta_types.h"
#include "api/codec/schema.h"
#include "api/codec/time_format.h"
#include "dra/api/codec.h"
#include "dra/json/value.h"

namespace dra::api::codec {

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsList : std::false_type {};
template <class T>
struct IsList<List<T>> : std::true_type {};
template <class T>
struct IsMap : std::false_type {};
template <class T>
struct IsMap<std::map<std::string, T>> : std::true_type {};

// Go's name for T in error messages ("int64", "[]v1.Device", ...).
template <class T>
std::string GoTypeName(ApiVersion version);

class Decoder {
 public:
  Decoder(const DecodeOptions& options, ApiVersion version, bool ignore_unknown_fields)
      : options_(options), version_(version), ignore_unknown_(ignore_unknown_fields) {}

  template <class T>
  void Read(const json::Value& v, T& out);
  // A top-level object: `kind` and `apiVersion` are skipped (TypeMeta).
  template <class T>
  void ReadObject(const json::Value& v, T& out) {
    ReadStruct(v, out, true);
  }

  bool failed() const { return !type_error_.empty(); }
  const std::string& type_error() const { return type_error_; }
  json::Position error_pos() const { return error_pos_; }
  const std::vector<std::string>& strict_errors() const { return strict_; }

 private:
  template <class S>
  void ReadStruct(const json::Value& v, S& out, bool skip_type_meta = false);
  template <class T>
  void ReadList(const json::Value& v, T& out);  // a List<...>
  template <class T>
  void ReadMap(const json::Value& v, T& out);  // a std::map<std::string, ...>
  template <class S, class Fields, std::size_t... I>
  bool ReadMember(const json::Member& m, S& out, const Fields& fields, std::uint64_t& seen,
                  std::size_t bit_base, std::index_sequence<I...>);
  template <class S>
  bool ReadField(const json::Member& m, S& out, std::uint64_t& seen, std::size_t bit_base);

  void ReadString(const json::Value& v, std::string& out);
  void ReadBool(const json::Value& v, bool& out);
  template <class Int>
  void ReadInt(const json::Value& v, Int& out);
  void ReadQuantity(const json::Value& v, Quantity& out);
  void ReadTime(const json::Value& v, Time& out);
  void ReadRaw(const json::Value& v, RawExtension& out);

  // Records Go's UnmarshalTypeError (first one wins, as in encoding/json).
  void TypeError(const json::Value& v, std::string_view json_kind, const std::string& go_type);
  void ValueError(const json::Value& v, std::string message);

  // Path bookkeeping: `path_` has indices (strict errors), `stack_` the Go
  // field stack (type errors).
  struct Mark {
    std::size_t path_len;
    std::size_t stack_len;
    std::string_view struct_name;
  };
  Mark Enter(std::string_view field) {
    Mark m{path_.size(), stack_.size(), struct_name_};
    if (!path_.empty()) path_ += '.';
    path_ += field;
    if (!stack_.empty()) stack_ += '.';
    stack_ += field;
    return m;
  }
  // A map's key: in the path of strict errors, never in Go's field stack
  // (encoding/json names the map, not its key, in an UnmarshalTypeError).
  Mark EnterKey(std::string_view key) {
    Mark m{path_.size(), stack_.size(), struct_name_};
    if (!path_.empty()) path_ += '.';
    path_ += key;
    return m;
  }
  Mark EnterIndex(std::size_t i) {
    Mark m{path_.size(), stack_.size(), struct_name_};
    path_ += '[';
    path_ += std::to_string(i);
    path_ += ']';
    return m;
  }
  void Leave(const Mark& m) {
    path_.resize(m.path_len);
    stack_.resize(m.stack_len);
    struct_name_ = m.struct_name;
  }

  const DecodeOptions& options_;
  ApiVersion version_;
  bool ignore_unknown_;
  std::string path_;
  std::string stack_;
  std::string_view struct_name_;
  // FieldDef::go_type of the field being read (see there), else empty.
  std::string_view named_type_;
  std::string NamedType() const {
    return std::string(VersionName(version_)) + "." + std::string(named_type_);
  }
  std::string type_error_;
  json::Position error_pos_;
  std::vector<std::string> strict_;
};

inline std::string_view JsonKindName(const json::Value& v) {
  switch (v.kind) {
    case json::Kind::kNull:
      return "null";
    case json::Kind::kBool:
      return "bool";
    case json::Kind::kNumber:
      return "number";
    case json::Kind::kString:
      return "string";
    case json::Kind::kArray:
      return "array";
    case json::Kind::kObject:
      return "object";
  }
  return "value";
}

template <class T>
std::string GoTypeName(ApiVersion version) {
  if constexpr (std::is_same_v<T, std::string>) {
    return "string";
  } else if constexpr (std::is_same_v<T, bool>) {
    return "bool";
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return "int64";
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return "int32";
  } else if constexpr (std::is_same_v<T, Quantity>) {
    return "resource.Quantity";
  } else if constexpr (std::is_same_v<T, Time>) {
    return "v1.Time";
  } else if constexpr (std::is_same_v<T, RawExtension>) {
    return "runtime.RawExtension";
  } else if constexpr (IsOptional<T>::value) {
    return "*" + GoTypeName<typename T::value_type>(version);
  } else if constexpr (IsList<T>::value) {
    return "[]" + GoTypeName<typename T::value_type>(version);
  } else if constexpr (IsMap<T>::value) {
    return "map[string]" + GoTypeName<typename T::mapped_type>(version);
  } else {
    std::string pkg = Schema<T>::package == GoPackage::kResource ? std::string(VersionName(version))
                                                                 : std::string("v1");
    return pkg + "." + std::string(Schema<T>::go_name);
  }
}

inline void Decoder::TypeError(const json::Value& v, std::string_view json_kind,
                               const std::string& go_type) {
  if (!type_error_.empty()) return;
  if (stack_.empty()) {
    type_error_ =
        "json: cannot unmarshal " + std::string(json_kind) + " into Go value of type " + go_type;
  } else {
    type_error_ = "json: cannot unmarshal " + std::string(json_kind) + " into Go struct field " +
                  std::string(struct_name_) + "." + stack_ + " of type " + go_type;
  }
  error_pos_ = v.pos;
}

inline void Decoder::ValueError(const json::Value& v, std::string message) {
  if (!type_error_.empty()) return;
  type_error_ = std::move(message);
  error_pos_ = v.pos;
}

inline void Decoder::ReadString(const json::Value& v, std::string& out) {
  if (v.kind == json::Kind::kString) {
    out = v.text;
  } else if (v.kind != json::Kind::kNull) {
    TypeError(v, JsonKindName(v), named_type_.empty() ? "string" : NamedType());
  }
}

inline void Decoder::ReadBool(const json::Value& v, bool& out) {
  if (v.kind == json::Kind::kBool) {
    out = v.boolean;
  } else if (v.kind != json::Kind::kNull) {
    TypeError(v, JsonKindName(v), "bool");
  }
}

template <class Int>
void Decoder::ReadInt(const json::Value& v, Int& out) {
  if (v.kind == json::Kind::kNull) return;
  const std::string type = std::is_same_v<Int, std::int64_t> ? "int64" : "int32";
  if (v.kind != json::Kind::kNumber) {
    TypeError(v, JsonKindName(v), type);
    return;
  }
  Int parsed = 0;
  const char* begin = v.text.data();
  const char* end = begin + v.text.size();
  auto [ptr, ec] = std::from_chars(begin, end, parsed);
  if (ec != std::errc() || ptr != end) {
    TypeError(v, "number " + v.text, type);
    return;
  }
  out = parsed;
}

inline void Decoder::ReadQuantity(const json::Value& v, Quantity& out) {
  std::string text;
  switch (v.kind) {
    case json::Kind::kNull:
      out = Quantity();
      return;
    case json::Kind::kString: {
      // Quantity's JSON unmarshaller trims white space inside the quotes.
      std::string_view s = v.text;
      while (!s.empty() &&
             (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r')) {
        s.remove_prefix(1);
      }
      while (!s.empty() &&
             (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) {
        s.remove_suffix(1);
      }
      text = s;
      break;
    }
    case json::Kind::kNumber:
      text = v.text;
      break;
    default:
      text = json::ToJson(v);
      break;
  }
  Result<Quantity> q = Quantity::Parse(text);
  if (!q.ok()) {
    ValueError(v, q.error());
    return;
  }
  out = std::move(q).value();
}

inline void Decoder::ReadTime(const json::Value& v, Time& out) {
  if (v.kind == json::Kind::kNull) {
    out = Time{};
    return;
  }
  if (v.kind != json::Kind::kString) {
    // metav1.Time unmarshals a Go string; encoding/json adds the field's
    // context to the type error that comes out of UnmarshalJSON.
    TypeError(v, JsonKindName(v), "string");
    return;
  }
  Result<Time> t = ParseRfc3339(v.text);
  if (!t.ok()) {
    ValueError(v, t.error());
    return;
  }
  out = *t;
}

inline void Decoder::ReadRaw(const json::Value& v, RawExtension& out) {
  if (v.kind == json::Kind::kNull) {
    out.raw.clear();
    return;
  }
  if (v.has_raw() && v.raw_end <= options_.json_source.size()) {
    out.raw = std::string(options_.json_source.substr(v.raw_begin, v.raw_end - v.raw_begin));
  } else {
    // YAML input: sigs.k8s.io/yaml re-encodes the value as JSON with sorted keys.
    out.raw = json::ToJson(SortedKeys(v));
  }
}

template <class T>
void Decoder::Read(const json::Value& v, T& out) {
  if constexpr (std::is_same_v<T, std::string>) {
    ReadString(v, out);
  } else if constexpr (std::is_same_v<T, bool>) {
    ReadBool(v, out);
  } else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::int32_t>) {
    ReadInt(v, out);
  } else if constexpr (std::is_same_v<T, Quantity>) {
    ReadQuantity(v, out);
  } else if constexpr (std::is_same_v<T, Time>) {
    ReadTime(v, out);
  } else if constexpr (std::is_same_v<T, RawExtension>) {
    ReadRaw(v, out);
  } else if constexpr (IsOptional<T>::value) {
    // A pointer field: null leaves it nil. Quantity and Time pointers get a
    // value even for null, as their unmarshallers run on a fresh value.
    if (v.kind == json::Kind::kNull) {
      out.reset();
      return;
    }
    out.emplace();
    Read(v, *out);
  } else if constexpr (IsList<T>::value) {
    ReadList(v, out);
  } else if constexpr (IsMap<T>::value) {
    ReadMap(v, out);
  } else if constexpr (std::is_same_v<T, Device> || std::is_same_v<T, DeviceRequest>) {
    // v1beta1 shapes these differently: device fields under `basic`, flat requests.
    if (version_ == ApiVersion::kV1beta1) {
      if (v.kind == json::Kind::kNull) return;
      std::conditional_t<std::is_same_v<T, Device>, BetaDevice, BetaDeviceRequest> beta;
      ReadStruct(v, beta);
      out = FromBeta(std::move(beta));
    } else {
      ReadStruct(v, out);
    }
  } else if constexpr (std::is_same_v<T, ResourceSliceSpec>) {
    ReadStruct(v, out);
    if (version_ == ApiVersion::kV1beta1) {
      // v1beta1 has plain string/bool fields: empty and false mean unset.
      if (out.node_name && out.node_name->empty()) out.node_name.reset();
      if (out.all_nodes && !*out.all_nodes) out.all_nodes.reset();
    }
  } else {
    ReadStruct(v, out);
  }
}

template <class T>
void Decoder::ReadList(const json::Value& v, T& out) {
  if (v.kind == json::Kind::kNull) {
    out.set_nil();
    return;
  }
  if (v.kind != json::Kind::kArray) {
    TypeError(v, JsonKindName(v),
              named_type_.empty() ? GoTypeName<T>(version_) : "[]" + NamedType());
    return;
  }
  out.clear();
  out.set_present();
  out.resize(v.items.size());
  for (std::size_t i = 0; i < v.items.size(); ++i) {
    Mark m = EnterIndex(i);
    if constexpr (std::is_same_v<typename T::value_type, bool>) {
      bool b = false;
      Read(v.items[i], b);
      out[i] = b;
    } else {
      Read(v.items[i], out[i]);
    }
    Leave(m);
  }
}

template <class T>
void Decoder::ReadMap(const json::Value& v, T& out) {
  if (v.kind == json::Kind::kNull) {
    out.clear();
    return;
  }
  if (v.kind != json::Kind::kObject) {
    std::string type = GoTypeName<T>(version_);
    if (!named_type_.empty())
      type.replace(0, std::string_view("map[string]").size(), "map[" + NamedType() + "]");
    TypeError(v, JsonKindName(v), type);
    return;
  }
  // The named type is the keys'; values are read without it.
  std::string_view named = std::exchange(named_type_, {});
  out.clear();
  for (const json::Member& m : v.members) {
    Mark mark = EnterKey(m.key);
    auto [it, inserted] = out.try_emplace(m.key);
    if (!inserted) {
      strict_.push_back("duplicate field \"" + path_ + "\"");
      it->second = typename T::mapped_type{};
    }
    Read(m.value, it->second);
    Leave(mark);
  }
  named_type_ = named;
}

template <class S>
void Decoder::ReadStruct(const json::Value& v, S& out, bool skip_type_meta) {
  if (v.kind == json::Kind::kNull) return;
  if (v.kind != json::Kind::kObject) {
    TypeError(v, JsonKindName(v), GoTypeName<S>(version_));
    return;
  }
  std::uint64_t seen = 0;
  for (const json::Member& m : v.members) {
    if (skip_type_meta && (m.key == "kind" || m.key == "apiVersion")) continue;
    std::string_view saved_struct = struct_name_;
    struct_name_ = Schema<S>::go_name;
    bool known = ReadField(m, out, seen, 0);
    struct_name_ = saved_struct;
    if (!known && !ignore_unknown_) {
      std::string field = path_.empty() ? m.key : path_ + "." + m.key;
      strict_.push_back("unknown field \"" + field + "\"");
    }
  }
}

template <class S>
bool Decoder::ReadField(const json::Member& m, S& out, std::uint64_t& seen, std::size_t bit_base) {
  constexpr auto& fields = Schema<S>::fields;
  constexpr std::size_t n = std::tuple_size_v<std::decay_t<decltype(fields)>>;
  return ReadMember(m, out, fields, seen, bit_base, std::make_index_sequence<n>{});
}

template <class S, class Fields, std::size_t... I>
bool Decoder::ReadMember(const json::Member& m, S& out, const Fields& fields, std::uint64_t& seen,
                         std::size_t bit_base, std::index_sequence<I...>) {
  bool matched = false;
  auto try_field = [&](const auto& f, std::size_t index) {
    if (matched) return;
    using Member = std::decay_t<decltype(out.*(f.member))>;
    if constexpr (IsInlined<Member>::value) {
      // The inlined struct's fields take bits after this struct's own. Go's
      // field stack names the embedded struct ("config.DeviceConfiguration.opaque").
      const std::size_t stack_len = stack_.size();
      if (!stack_.empty()) stack_ += '.';
      stack_ += Schema<Member>::go_name;
      matched = ReadField(m, out.*(f.member), seen, bit_base + 32);
      stack_.resize(stack_len);
      return;
    }
    if (f.name != m.key) return;
    matched = true;
    std::uint64_t bit = std::uint64_t{1} << ((bit_base + index) % 64);
    Mark mark = Enter(m.key);
    if (seen & bit) {
      strict_.push_back("duplicate field \"" + path_ + "\"");
      out.*(f.member) = Member{};
    }
    seen |= bit;
    std::string_view named = std::exchange(named_type_, f.go_type);
    Read(m.value, out.*(f.member));
    named_type_ = named;
    Leave(mark);
  };
  (try_field(std::get<I>(fields), I), ...);
  return matched;
}

}  // namespace dra::api::codec

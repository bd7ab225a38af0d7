// Encodes the typed objects as kube-apiserver's Go encoding/json does: field
// order from the field tables, omitempty as Go applies it (never to struct
// values), nil lists and pointers as null, map keys sorted, Go escaping.
#pragma once

#include <string>
#include <tuple>
#include <type_traits>

#include "api/codec/beta_types.h"
#include "api/codec/decoder.h"
#include "api/codec/schema.h"
#include "api/codec/time_format.h"
#include "dra/json/value.h"

namespace dra::api::codec {

class Encoder {
 public:
  Encoder(std::string& out, ApiVersion version) : out_(out), version_(version) {}

  template <class T>
  void Write(const T& v);

  // Writes the fields of `v` without braces (for top-level objects, whose
  // kind and apiVersion are written by the caller). `first` tracks commas.
  template <class S>
  void WriteFields(const S& v, bool& first);

 private:
  template <class T>
  static bool IsEmpty(const T& v);
  void WriteRaw(const RawExtension& raw);

  std::string& out_;
  ApiVersion version_;
};

template <class T>
bool Encoder::IsEmpty(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return v.empty();
  } else if constexpr (std::is_same_v<T, bool>) {
    return !v;
  } else if constexpr (std::is_integral_v<T>) {
    return v == 0;
  } else if constexpr (IsOptional<T>::value) {
    return !v.has_value();
  } else if constexpr (IsList<T>::value || IsMap<T>::value) {
    return v.empty();
  } else if constexpr (std::is_same_v<T, Time>) {
    return !v.set;
  } else if constexpr (std::is_same_v<T, RawExtension>) {
    return v.empty();
  } else {
    return false;  // Go never omits a struct value
  }
}

inline void Encoder::WriteRaw(const RawExtension& raw) {
  if (raw.empty()) {
    out_ += "null";
    return;
  }
  // encoding/json compacts (and HTML-escapes) what a Marshaler returns.
  Result<json::Value> parsed = json::ParseJson(raw.raw);
  if (parsed.ok()) {
    json::WriteJson(*parsed, out_);
  } else {
    out_ += raw.raw;
  }
}

template <class T>
void Encoder::Write(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    json::AppendGoJsonString(out_, v);
  } else if constexpr (std::is_same_v<T, bool>) {
    out_ += v ? "true" : "false";
  } else if constexpr (std::is_integral_v<T>) {
    out_ += std::to_string(v);
  } else if constexpr (std::is_same_v<T, Quantity>) {
    json::AppendGoJsonString(out_, v.String());
  } else if constexpr (std::is_same_v<T, Time>) {
    if (v.set) {
      json::AppendGoJsonString(out_, FormatRfc3339(v));
    } else {
      out_ += "null";
    }
  } else if constexpr (std::is_same_v<T, RawExtension>) {
    WriteRaw(v);
  } else if constexpr (IsOptional<T>::value) {
    if (v) {
      Write(*v);
    } else {
      out_ += "null";
    }
  } else if constexpr (IsList<T>::value) {
    if (v.nil()) {
      out_ += "null";
      return;
    }
    out_ += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) out_ += ',';
      if constexpr (std::is_same_v<typename T::value_type, bool>) {
        out_ += v[i] ? "true" : "false";
      } else {
        Write(v[i]);
      }
    }
    out_ += ']';
  } else if constexpr (IsMap<T>::value) {
    out_ += '{';
    bool first = true;
    for (const auto& [key, value] : v) {
      if (!first) out_ += ',';
      first = false;
      json::AppendGoJsonString(out_, key);
      out_ += ':';
      Write(value);
    }
    out_ += '}';
  } else if constexpr (std::is_same_v<T, Device> || std::is_same_v<T, DeviceRequest>) {
    // v1beta1 shapes these differently: device fields under `basic`, flat requests.
    if (version_ == ApiVersion::kV1beta1) {
      Write(ToBeta(v));
      return;
    }
    bool first = true;
    out_ += '{';
    WriteFields(v, first);
    out_ += '}';
  } else if constexpr (std::is_same_v<T, ResourceSliceSpec>) {
    bool first = true;
    out_ += '{';
    if (version_ == ApiVersion::kV1beta1 &&
        ((v.node_name && v.node_name->empty()) || (v.all_nodes && !*v.all_nodes))) {
      ResourceSliceSpec copy = v;
      if (copy.node_name && copy.node_name->empty()) copy.node_name.reset();
      if (copy.all_nodes && !*copy.all_nodes) copy.all_nodes.reset();
      WriteFields(copy, first);
    } else {
      WriteFields(v, first);
    }
    out_ += '}';
  } else {
    bool first = true;
    out_ += '{';
    WriteFields(v, first);
    out_ += '}';
  }
}

template <class S>
void Encoder::WriteFields(const S& v, bool& first) {
  auto write_field = [&](const auto& f) {
    const auto& member = v.*(f.member);
    using Member = std::decay_t<decltype(member)>;
    if constexpr (IsInlined<Member>::value) {
      WriteFields(member, first);
      return;
    }
    if ((f.flags & kOmitEmpty) && IsEmpty(member)) return;
    if (!first) out_ += ',';
    first = false;
    out_ += '"';
    out_ += f.name;
    out_ += "\":";
    Write(member);
  };
  std::apply([&](const auto&... f) { (write_field(f), ...); }, Schema<S>::fields);
}

}  // namespace dra::api::codec

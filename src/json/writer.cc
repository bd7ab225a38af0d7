// Writer: compact JSON appended as the calls come.
#include "dra/json/writer.h"

#include "dra/json/value.h"

namespace dra::json {

void Writer::Separate() {
  if (after_value_) out_.push_back(',');
}

Writer& Writer::Open(char bracket) {
  Separate();
  out_.push_back(bracket);
  after_value_ = false;
  return *this;
}

Writer& Writer::Close(char bracket) {
  out_.push_back(bracket);
  after_value_ = true;
  return *this;
}

Writer& Writer::BeginObject() { return Open('{'); }

Writer& Writer::EndObject() { return Close('}'); }

Writer& Writer::BeginArray() { return Open('['); }

Writer& Writer::EndArray() { return Close(']'); }

Writer& Writer::Key(std::string_view key) {
  Separate();
  AppendGoJsonString(out_, key);
  out_.push_back(':');
  // The value that follows is the member's, not a new item.
  after_value_ = false;
  return *this;
}

Writer& Writer::String(std::string_view s) {
  Separate();
  AppendGoJsonString(out_, s);
  after_value_ = true;
  return *this;
}

Writer& Writer::Int(std::int64_t v) { return Number(std::to_string(v)); }

Writer& Writer::Uint(std::uint64_t v) { return Number(std::to_string(v)); }

Writer& Writer::Number(std::string_view literal) {
  Separate();
  out_ += literal;
  after_value_ = true;
  return *this;
}

Writer& Writer::Bool(bool b) { return Number(b ? "true" : "false"); }

Writer& Writer::Null() { return Number("null"); }

Writer& Writer::Raw(std::string_view json) { return Number(json); }

}  // namespace dra::json

// A stream of concatenated JSON values, read one value at a time as Go's
// json.Decoder reads it: whitespace may separate the values or not.
#pragma once

#include <cstddef>
#include <string_view>

#include "dra/json/value.h"
#include "dra/util/result.h"

namespace dra::json {

// Not thread-safe; `text` must outlive the stream. Positions and raw offsets
// of the values it returns are those in the whole text.
class JsonStream {
 public:
  explicit JsonStream(std::string_view text, const ParseLimits& limits = {});

  // Skips whitespace; true when nothing else is left.
  bool AtEnd();
  // The next value, with the strictness of ParseJson. After an error the
  // stream stays where the failing value starts (offset(), position()).
  Result<Value> Next();

  // Bytes consumed: the end of the last value read (or of the whitespace
  // AtEnd skipped after it).
  std::size_t offset() const { return offset_; }
  Position position() const;

 private:
  std::string_view text_;
  ParseLimits limits_;
  std::size_t offset_ = 0;
  std::size_t line_ = 1;
  std::size_t line_start_ = 0;
};

}  // namespace dra::json

// Expression text with position bookkeeping, and the issue list that the
// parser and checker fill. Issues print in cel-go's format:
//   ERROR: <input>:LINE:COL: MESSAGE
//    | source line
//    | ....^
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cel {

// Byte offset into the source; kNoOffset for errors without a location.
inline constexpr std::int32_t kNoOffset = -1;

class Source {
 public:
  explicit Source(std::string_view text);

  std::string_view text() const { return text_; }
  // 1-based line and 0-based code-point column of a byte offset.
  void Locate(std::int32_t offset, int* line, int* column) const;
  // The text of a 1-based line without its terminator; empty if out of range.
  std::string_view Line(int line) const;

 private:
  std::string text_;
  std::vector<std::int32_t> line_starts_;  // byte offset of each line's start
};

struct Issue {
  std::int32_t offset;  // kNoOffset: printed as <input>:-1:0 without snippet
  std::string message;
};

class Issues {
 public:
  // cel-go stops reporting after this many errors.
  static constexpr std::size_t kMaxReported = 100;

  void Add(std::int32_t offset, std::string message);
  // Drops issues added after the first n (for speculative lookahead).
  void Truncate(std::size_t n) {
    if (n < issues_.size()) issues_.resize(n);
  }
  bool empty() const { return issues_.empty(); }
  std::size_t size() const { return issues_.size(); }
  const std::vector<Issue>& all() const { return issues_; }
  // All issues, sorted by position, each in cel-go's display format, joined
  // by newlines.
  std::string Format(const Source& source) const;

 private:
  std::vector<Issue> issues_;
};

}  // namespace dra::cel

#include "cel/source.h"

#include <algorithm>

#include "cel/utf8.h"

namespace dra::cel {
namespace {

// cel-go omits the snippet for very long lines.
constexpr std::size_t kMaxSnippetBytes = 16384;

}  // namespace

Source::Source(std::string_view text) : text_(text) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(static_cast<std::int32_t>(i + 1));
  }
}

void Source::Locate(std::int32_t offset, int* line, int* column) const {
  if (offset < 0) {
    *line = -1;
    *column = -1;
    return;
  }
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  std::size_t index = static_cast<std::size_t>(it - line_starts_.begin()) - 1;
  *line = static_cast<int>(index) + 1;
  std::string_view prefix(text_.data() + line_starts_[index],
                          static_cast<std::size_t>(offset - line_starts_[index]));
  *column = static_cast<int>(CountCodePoints(prefix));
}

std::string_view Source::Line(int line) const {
  if (line < 1 || static_cast<std::size_t>(line) > line_starts_.size()) return {};
  std::size_t start = static_cast<std::size_t>(line_starts_[line - 1]);
  std::size_t end = static_cast<std::size_t>(line) < line_starts_.size()
                        ? static_cast<std::size_t>(line_starts_[line]) - 1
                        : text_.size();
  std::string_view s(text_.data() + start, end - start);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

void Issues::Add(std::int32_t offset, std::string message) {
  if (issues_.size() >= kMaxReported) return;
  issues_.push_back({offset, std::move(message)});
}

std::string Issues::Format(const Source& source) const {
  std::vector<Issue> sorted = issues_;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Issue& a, const Issue& b) { return a.offset < b.offset; });
  std::string out;
  for (const Issue& issue : sorted) {
    if (!out.empty()) out += '\n';
    int line, column;
    source.Locate(issue.offset, &line, &column);
    // cel-go places the end of an empty expression at column -1 (shown as
    // 0) and has no line to show under it.
    if (source.text().empty()) {
      out += "ERROR: <input>:1:0: " + issue.message;
      continue;
    }
    out += "ERROR: <input>:" + std::to_string(line) + ":" + std::to_string(column + 1) + ": " +
           issue.message;
    std::string_view snippet = source.Line(line);
    if (line < 1 || snippet.size() > kMaxSnippetBytes) continue;
    std::string shown(snippet);
    std::replace(shown.begin(), shown.end(), '\t', ' ');
    out += "\n | " + shown + "\n | ";
    // One marker per code point before the column; wide (multi-byte)
    // characters get full-width markers so the caret lines up.
    std::string_view rest = snippet;
    for (int i = 0; i < column && !rest.empty(); ++i) {
      std::size_t width = Utf8SequenceLength(rest);
      out += width > 1 ? "\uFF0E" : ".";
      rest.remove_prefix(width);
    }
    out += (!rest.empty() && Utf8SequenceLength(rest) > 1) ? "\uFF3E" : "^";
  }
  return out;
}

}  // namespace dra::cel

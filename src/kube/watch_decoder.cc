// WatchDecoder: a JSON framer over the watch stream. It tracks only string,
// escape and bracket state to find where each top-level document ends, then
// parses that document with the strict JSON parser.
//
// Why a scanner of its own: the stream arrives in chunks that split documents
// anywhere, so the framer keeps its state (string, escape, open brackets)
// between Feed calls and checks no syntax; json::ParseJson, which checks and
// builds a whole document, parses each framed event. api's GoJsonChecker
// (src/api/validation/formats.cc) is a syntax checker for one whole value
// with Go's error texts, which framing does not need.
#include <string>
#include <utility>

#include "dra/kube/watch.h"
#include "kube/wire.h"

namespace dra::kube {
namespace {

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string Printable(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  static const char* kHex = "0123456789abcdef";
  return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
}

bool ValidEventType(std::string_view t) {
  return t == "ADDED" || t == "MODIFIED" || t == "DELETED" || t == "BOOKMARK" || t == "ERROR";
}

}  // namespace

WatchDecoder::WatchDecoder(WatchDecoderLimits limits) : limits_(limits) {}

ApiStatus WatchDecoder::Fail(std::string message) {
  failed_ = true;
  error_ = ApiError::Protocol("watch stream: " + std::move(message));
  return error_;
}

ApiStatus WatchDecoder::Feed(std::string_view bytes,
                             const std::function<bool(WatchEvent&&)>& on_event) {
  if (failed_) return error_;
  std::size_t i = 0;
  const std::size_t n = bytes.size();
  std::size_t local_start = 0;  // where the unfinished event's bytes begin in `bytes`
  while (i < n && !stopped_) {
    if (open_.empty()) {
      // Between events: only whitespace and the start of the next object.
      while (i < n && IsJsonSpace(bytes[i])) ++i;
      if (i == n) break;
      if (bytes[i] != '{') {
        return Fail("invalid character " + Printable(bytes[i]) + " at byte offset " +
                    std::to_string(offset_ + i) + ": expected the start of an event ('{')");
      }
      doc_start_ = offset_ + i;
      local_start = i;
      pending_.clear();
    }
    // Inside an event: scan to its end or to the end of `bytes`.
    bool done = false;
    while (i < n) {
      char c = bytes[i];
      if (in_string_) {
        if (escape_) {
          escape_ = false;
        } else if (c == '\\') {
          escape_ = true;
        } else if (c == '"') {
          in_string_ = false;
        }
        ++i;
        continue;
      }
      ++i;
      if (c == '"') {
        in_string_ = true;
      } else if (c == '{' || c == '[') {
        if (open_.size() >= limits_.max_depth) {
          return Fail("event at byte offset " + std::to_string(doc_start_) +
                      " is nested deeper than " + std::to_string(limits_.max_depth));
        }
        open_.push_back(c);
      } else if (c == '}' || c == ']') {
        if (open_.back() != (c == '}' ? '{' : '[')) {
          return Fail("invalid character " + Printable(c) + " at byte offset " +
                      std::to_string(offset_ + i - 1) + ": mismatched bracket");
        }
        open_.pop_back();
        if (open_.empty()) {
          done = true;
          break;
        }
      }
    }
    std::size_t size = pending_.size() + (i - local_start);
    if (size > limits_.max_event_bytes) {
      return Fail("event at byte offset " + std::to_string(doc_start_) +
                  " is larger than the limit of " + std::to_string(limits_.max_event_bytes) +
                  " bytes");
    }
    if (!done) {
      pending_.append(bytes.substr(local_start, i - local_start));
      break;
    }
    ApiStatus st = Done{};
    if (pending_.empty()) {
      st = Complete(bytes.substr(local_start, i - local_start), doc_start_, on_event);
    } else {
      pending_.append(bytes.substr(local_start, i - local_start));
      std::string doc = std::move(pending_);
      pending_.clear();
      st = Complete(doc, doc_start_, on_event);
    }
    if (!st.ok()) return st;
    local_start = n;
  }
  offset_ += i;
  return Done{};
}

ApiStatus WatchDecoder::Complete(std::string_view document, std::uint64_t document_offset,
                                 const std::function<bool(WatchEvent&&)>& on_event) {
  json::ParseLimits parse_limits;
  parse_limits.max_depth = limits_.max_depth;
  Result<json::Value> tree = json::ParseJson(document, parse_limits);
  std::string where = "event at byte offset " + std::to_string(document_offset);
  if (!tree.ok()) return Fail(where + ": " + tree.error());
  json::Value& root = *tree;
  const std::string* type = wire::StringField(root, "type");
  if (type == nullptr) return Fail(where + ": no \"type\" string");
  if (!ValidEventType(*type)) return Fail(where + ": invalid event type \"" + *type + "\"");
  WatchEvent event;
  event.type = *type;
  for (json::Member& m : root.members) {
    if (m.key == "object") event.object = std::move(m.value);  // the last one, as Go keeps
  }
  if (!event.object.is_object()) return Fail(where + ": no \"object\" object");
  if (limits_.keep_text) event.document.assign(document);
  ++events_;
  if (!on_event(std::move(event))) stopped_ = true;
  return Done{};
}

ApiStatus WatchDecoder::Finish() const {
  if (failed_) return error_;
  if (!open_.empty() && !stopped_) {
    return ApiError::Protocol("watch stream ended inside an event (at byte offset " +
                              std::to_string(doc_start_) + ", " + std::to_string(offset_) +
                              " bytes received)");
  }
  return Done{};
}

}  // namespace dra::kube

// Watches: the stream of change events kube-apiserver sends for a collection
// (GET ...?watch=true), decoded incrementally from the bytes as they arrive.
//
// The stream is a sequence of JSON documents, one per event,
//   {"type":"ADDED","object":{...}}
// each usually followed by a newline. The framing is by JSON syntax, not by
// lines (as client-go's JSON framer does), so any whitespace between
// documents is accepted and a document may be split anywhere across the
// pieces the transport delivers.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dra/json/value.h"
#include "dra/kube/api_error.h"
#include "dra/kube/resource_client.h"

namespace dra::kube {

// One watch event. `type` is one of ADDED, MODIFIED, DELETED, BOOKMARK,
// ERROR; `object` is the object (for ERROR a metav1.Status). The raw offsets
// inside `object` (json::Value::raw_begin/raw_end) refer to `document`.
struct WatchEvent {
  std::string type;
  json::Value object;
  // The event's JSON text, kept only when WatchDecoderLimits::keep_text is set
  // (for callers that decode objects from their source text).
  std::string document;
};

struct WatchDecoderLimits {
  // One event larger than this is an error; the decoder never holds more than
  // this much of an unfinished event.
  std::size_t max_event_bytes = std::size_t{256} << 20;
  // Nesting depth and value count of one event (json::ParseLimits).
  std::uint32_t max_depth = 1000;
  bool keep_text = false;
};

// Frames and parses a watch stream incrementally.
//
// Thread-safety: none; one decoder per stream, used by one thread at a time.
class WatchDecoder {
 public:
  explicit WatchDecoder(WatchDecoderLimits limits = {});

  // Consumes the next piece of the stream, calling `on_event` for every event
  // that it completes, in stream order. `on_event` returning false stops the
  // decoder: the rest of `bytes` is ignored, stopped() becomes true and later
  // calls do nothing. Malformed input (not a JSON object, bad JSON, an event
  // without a valid "type" or "object", an oversized event) is a kProtocol
  // error naming the byte offset in the stream; after an error the decoder
  // stays failed and returns the same error.
  ApiStatus Feed(std::string_view bytes, const std::function<bool(WatchEvent&&)>& on_event);

  // The stream ended: an error when it ended inside an event.
  ApiStatus Finish() const;

  bool stopped() const { return stopped_; }
  // Bytes consumed so far, and events delivered.
  std::uint64_t offset() const { return offset_; }
  std::uint64_t events() const { return events_; }

 private:
  ApiStatus Fail(std::string message);
  ApiStatus Complete(std::string_view document, std::uint64_t document_offset,
                     const std::function<bool(WatchEvent&&)>& on_event);

  WatchDecoderLimits limits_;
  std::string pending_;          // the unfinished event's bytes so far
  std::uint64_t offset_ = 0;     // stream offset of the next byte to consume
  std::uint64_t doc_start_ = 0;  // stream offset where the unfinished event began
  std::uint64_t events_ = 0;
  // Scanner state of the unfinished event.
  std::string open_;  // the open brackets of the unfinished event; empty: between events
  bool in_string_ = false;
  bool escape_ = false;
  bool stopped_ = false;
  bool failed_ = false;
  ApiError error_;
};

// Watches `type` in `ns` ("" for all namespaces or a cluster-scoped type),
// calling `on_event` for each ADDED, MODIFIED, DELETED and BOOKMARK event in
// order, on the calling thread, until the server ends the stream (success),
// `on_event` returns false (success), `cancel` becomes true (kCancelled), or
// an error. An ERROR event ends the watch with its Status as the error (a
// too-old resourceVersion is error().IsGone()); a stream that ends inside an
// event, or malformed data, is a kProtocol error.
//
// The request is GET <collection>?watch=true with the options as client-go
// sends them: allowWatchBookmarks, fieldSelector, labelSelector,
// resourceVersion, resourceVersionMatch, sendInitialEvents, timeoutSeconds
// (and the matching `timeout`); limit and continue are not sent.
//
// Thread-safety: as safe as the ObjectClient; blocks the calling thread.
ApiStatus Watch(ObjectClient& objects, const ResourceType& type, std::string_view ns,
                const ListOptions& options, const std::function<bool(WatchEvent&&)>& on_event,
                const std::atomic<bool>* cancel = nullptr, const WatchDecoderLimits& limits = {});

// The query parameters of a watch request for `options` (exposed for tests).
std::vector<std::pair<std::string, std::string>> WatchQuery(const ListOptions& options);

}  // namespace dra::kube

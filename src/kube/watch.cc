// Watch(): a watch request over Client::Stream, decoded with WatchDecoder.
#include "dra/kube/watch.h"

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kube/go_duration.h"

namespace dra::kube {
std::vector<std::pair<std::string, std::string>> WatchQuery(const ListOptions& options) {
  std::vector<std::pair<std::string, std::string>> q;
  q.emplace_back("watch", "true");
  if (options.allow_watch_bookmarks) q.emplace_back("allowWatchBookmarks", "true");
  if (!options.field_selector.empty()) q.emplace_back("fieldSelector", options.field_selector);
  if (!options.label_selector.empty()) q.emplace_back("labelSelector", options.label_selector);
  if (options.resource_version && !options.resource_version->empty()) {
    q.emplace_back("resourceVersion", *options.resource_version);
  }
  if (!options.resource_version_match.empty()) {
    q.emplace_back("resourceVersionMatch", options.resource_version_match);
  }
  if (options.send_initial_events) q.emplace_back("sendInitialEvents", "true");
  if (options.timeout_seconds) {
    // client-go's typed Watch also sets the request timeout from timeoutSeconds.
    q.emplace_back("timeout", FormatGoDuration(std::chrono::seconds(*options.timeout_seconds)));
    q.emplace_back("timeoutSeconds", std::to_string(*options.timeout_seconds));
  }
  return q;
}

ApiStatus Watch(ObjectClient& objects, const ResourceType& type, std::string_view ns,
                const ListOptions& options, const std::function<bool(WatchEvent&&)>& on_event,
                const std::atomic<bool>* cancel, const WatchDecoderLimits& limits) {
  HttpRequest request;
  request.method = "GET";
  request.path = type.CollectionPath(ns);
  request.query = WatchQuery(options);
  request.verb = "watch";
  request.resource = type.QualifiedResource();

  WatchDecoder decoder(limits);
  std::optional<ApiError> failure;  // a decode error or an ERROR event
  bool stopped_by_caller = false;
  auto deliver = [&](WatchEvent&& event) {
    if (event.type == "ERROR") {
      failure = StatusToApiError(event.object);
      return false;
    }
    if (!on_event(std::move(event))) {
      stopped_by_caller = true;
      return false;
    }
    return true;
  };
  ApiStatus streamed = objects.client().Stream(
      request,
      [&](std::string_view piece) {
        ApiStatus st = decoder.Feed(piece, deliver);
        if (!st.ok()) {
          failure = st.error();
          return false;
        }
        return !decoder.stopped();
      },
      cancel);
  if (failure) return *failure;
  if (!streamed.ok()) return streamed;
  if (stopped_by_caller) return Done{};
  if (cancel != nullptr && cancel->load()) return ApiError::Cancelled();
  return decoder.Finish();
}

}  // namespace dra::kube

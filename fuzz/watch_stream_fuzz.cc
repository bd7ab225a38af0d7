// Feeds arbitrary bytes to the watch stream decoder, split into pieces at
// positions taken from the input, and checks that the same events come out
// as when the bytes are fed whole.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dra/kube/watch.h"

namespace {

struct Outcome {
  std::vector<std::string> events;  // type and compact JSON of each event
  bool ok = true;
};

Outcome Decode(std::string_view data, std::size_t split_every) {
  dra::kube::WatchDecoderLimits limits;
  limits.max_event_bytes = 1 << 16;
  limits.max_depth = 64;
  dra::kube::WatchDecoder decoder(limits);
  Outcome out;
  auto collect = [&](dra::kube::WatchEvent&& e) {
    out.events.push_back(e.type + " " + dra::json::ToJson(e.object));
    if (e.type == "ERROR") (void)dra::kube::StatusToApiError(e.object);
    return true;
  };
  for (std::size_t i = 0; i < data.size(); i += split_every) {
    if (!decoder.Feed(data.substr(i, split_every), collect).ok()) {
      out.ok = false;
      return out;
    }
  }
  out.ok = decoder.Finish().ok();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::size_t split = 1 + data[0] % 17;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  Outcome whole = Decode(text, text.size() + 1);
  Outcome pieces = Decode(text, split);
  if (whole.ok != pieces.ok || whole.events.size() != pieces.events.size()) __builtin_trap();
  for (std::size_t i = 0; i < whole.events.size(); ++i) {
    if (whole.events[i] != pieces.events[i]) __builtin_trap();
  }
  return 0;
}

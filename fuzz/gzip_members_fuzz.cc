// Feeds arbitrary bytes to the gzip decoder of watch streams, split into
// pieces at positions taken from the input, and checks that the same bytes
// come out, with the same outcome, as when they are fed whole.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "kube/gzip_members.h"

namespace {

struct Outcome {
  std::string text;
  bool ok = true;
};

Outcome Decode(std::string_view data, std::size_t split_every) {
  dra::kube::GzipMembers g;
  Outcome out;
  auto collect = [&](std::string_view piece) {
    if (piece.empty() || piece.size() > (std::size_t{64} << 10)) __builtin_trap();
    // A bomb is cut off, not held: the reader bounds what it keeps.
    if (out.text.size() < (std::size_t{1} << 20)) out.text.append(piece);
    return true;
  };
  for (std::size_t i = 0; i < data.size(); i += split_every) {
    if (!g.Feed(data.substr(i, split_every), collect)) {
      if (g.error().empty() || g.stopped()) __builtin_trap();
      out.ok = false;
      return out;
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::size_t split = 1 + data[0] % 17;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  Outcome whole = Decode(bytes, bytes.size() + 1);
  Outcome pieces = Decode(bytes, split);
  if (whole.ok != pieces.ok) __builtin_trap();
  // Fed in pieces, output may go further before an error is found.
  if (whole.ok && whole.text != pieces.text) __builtin_trap();
  return 0;
}

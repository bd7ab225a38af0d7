// Arbitrary bytes as a kubeconfig: YAML/JSON parsing, lenient decoding,
// base64 fields and merging must end in a value or an error, never a crash;
// the same bytes as a --request-timeout value.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dra/kube/kubeconfig.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  dra::Result<dra::kube::Kubeconfig> config = dra::kube::ParseKubeconfig(text);
  if (config.ok()) {
    dra::kube::Kubeconfig merged = dra::kube::MergeKubeconfigs({*config, *config});
    if (merged.clusters.size() != config->clusters.size()) __builtin_trap();
    if (merged.current_context != config->current_context) __builtin_trap();
  } else if (config.error().empty()) {
    __builtin_trap();
  }
  if (size < 64) (void)dra::kube::ParseRequestTimeout(text);
  return 0;
}

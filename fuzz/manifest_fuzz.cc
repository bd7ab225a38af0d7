// Arbitrary bytes through the whole manifest path: YAML/JSON parsing,
// strict decoding, defaulting, validation, and encoding in every version
// (whose output must decode again without errors).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dra/api/codec.h"
#include "dra/api/manifest.h"
#include "dra/api/validation.h"
#include "dra/json/value.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  dra::api::ManifestSet set;
  dra::api::ParseManifestText("fuzz", text, {}, set);
  dra::api::ValidationOptions options;
  for (const auto& doc : set.documents) {
    for (const auto& decoded : doc.decoded.objects) {
      (void)dra::api::ValidateForCreate(decoded.object, options);
      for (auto v : {dra::api::ApiVersion::kV1, dra::api::ApiVersion::kV1beta2,
                     dra::api::ApiVersion::kV1beta1}) {
        auto encoded = dra::api::EncodeObject(decoded.object, v);
        if (!encoded.ok()) continue;
        auto tree = dra::json::ParseJson(*encoded);
        if (!tree.ok()) __builtin_trap();
        dra::api::DecodeOptions decode;
        decode.json_source = *encoded;
        auto again = dra::api::DecodeDocument(*tree, decode);
        if (!again.errors.empty() || again.objects.size() != 1) __builtin_trap();
      }
    }
  }
  return 0;
}

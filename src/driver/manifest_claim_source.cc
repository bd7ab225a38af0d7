// ClaimSource over ResourceClaim manifests on disk.
#include "dra/api/manifest.h"
#include "dra/driver/claim_source.h"

namespace dra::driver {
namespace {

class ManifestClaimSource final : public ClaimSource {
 public:
  explicit ManifestClaimSource(std::string path) : path_(std::move(path)) {}

  Result<api::ResourceClaim> Get(const std::string& namespace_, const std::string& name) override {
    api::ManifestOptions options;
    options.recursive = true;
    auto set = api::ReadManifests({path_}, options);
    std::optional<api::ResourceClaim> found;
    std::string problems;
    for (const auto& e : set.read_errors) problems += "; " + e.source + ": " + e.message;
    for (const auto& doc : set.documents) {
      for (const auto& e : doc.decoded.errors) {
        if (e.kind == "ResourceClaim") problems += "; " + doc.source + ": " + e.message;
      }
      for (const auto& o : doc.decoded.objects) {
        const auto* claim = std::get_if<api::ResourceClaim>(&o.object);
        if (claim == nullptr) continue;
        const std::string& ns =
            claim->metadata.namespace_.empty() ? "default" : claim->metadata.namespace_;
        if (ns == namespace_ && claim->metadata.name == name) found = *claim;
      }
    }
    if (!found) {
      return Error{"ResourceClaim " + namespace_ + "/" + name + " not found in " + path_ +
                   problems};
    }
    return *found;
  }

 private:
  std::string path_;
};

}  // namespace

std::unique_ptr<ClaimSource> NewManifestClaimSource(std::string path) {
  return std::make_unique<ManifestClaimSource>(std::move(path));
}

}  // namespace dra::driver

// Deprecation warnings of resource.k8s.io versions as kube-apiserver v1.37.2
// sends them. The releases are those of the zz_generated.prerelease-lifecycle.go
// files of k8s.io/api v0.37.2 (resource/v1beta1, v1beta2, v1alpha3); a kind
// is deprecated when its deprecation release is at most the server's, 1.37.
#include <string>

#include "dra/api/kinds.h"

namespace dra::api {
namespace {

struct Lifecycle {
  std::string_view version;
  std::string_view kind;  // empty: every kind of the version
  int deprecated_minor;   // of major version 1
  int removed_minor;
};

constexpr int kServerMinor = 37;

constexpr Lifecycle kLifecycles[] = {
    {"v1beta1", "", 35, 38},
    {"v1beta2", "DeviceTaintRule", 39, 42},
    {"v1beta2", "", 36, 39},
    {"v1alpha3", "DeviceTaintRule", 36, 39},
    {"v1alpha3", "ResourcePoolStatusRequest", 39, 42},
};

}  // namespace

std::string DeprecationWarning(std::string_view api_version, std::string_view kind) {
  constexpr std::string_view kPrefix = "resource.k8s.io/";
  if (!api_version.starts_with(kPrefix)) return "";
  std::string_view version = api_version.substr(kPrefix.size());
  for (const Lifecycle& l : kLifecycles) {
    if (l.version != version || (!l.kind.empty() && l.kind != kind)) continue;
    if (l.deprecated_minor > kServerMinor) return "";
    return std::string(api_version) + " " + std::string(kind) + " is deprecated in v1." +
           std::to_string(l.deprecated_minor) + "+, unavailable in v1." +
           std::to_string(l.removed_minor) + "+";
  }
  return "";
}

}  // namespace dra::api

#include "cli/manifest_flags.h"

#include <chrono>
#include <iostream>

#include "api/codec/time_format.h"

namespace dra::cli {

void ManifestFlags::Register(CLI::App& cmd, bool with_gates) {
  cmd.add_option("-f,--filename", files,
                 "Manifest files or directories (.yaml, .yml, .json); - reads standard input")
      ->required();
  cmd.add_flag("-R,--recursive", recursive, "Process directories recursively");
  cmd.add_option("-n,--namespace", namespace_,
                 "Namespace for namespaced objects that name none (as kubectl's context)");
  if (with_gates) {
    cmd.add_option(
        "--feature-gates", feature_gates,
        "Kubernetes feature gates, e.g. DRAListTypeAttributes=true,DRADeviceTaints=false");
  }
  cmd.add_option("--now", now,
                 "Time used for defaulted timestamps, RFC 3339 (default: the current time)");
}

int ManifestFlags::Prepare(api::ManifestOptions& options, api::FeatureGates& gates) const {
  options.recursive = recursive;
  if (Status s = gates.Apply(feature_gates); !s.ok()) {
    std::cerr << "error: invalid argument \"" << feature_gates
              << "\" for \"--feature-gates\" flag: " << s.error() << "\n";
    return 2;
  }
  if (now.empty()) {
    options.decode.now = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  } else {
    Result<api::Time> t = api::codec::ParseRfc3339(now);
    if (!t.ok()) {
      std::cerr << "error: invalid argument \"" << now << "\" for \"--now\" flag: " << t.error()
                << "\n";
      return 2;
    }
    options.decode.now = t->seconds;
  }
  return 0;
}

std::string_view KindGroup(std::string_view kind) {
  if (kind == "Node" || kind == "Pod" || kind == "Namespace") return "";
  return "resource.k8s.io";
}

}  // namespace dra::cli

// dra snapshot -o DIR: a live cluster's DRA-relevant state as manifests that
// dra simulate, explain, allocate and get read (docs/SNAPSHOT.md).
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/kube_flags.h"
#include "cli/live_cluster.h"
#include "cli/snapshot_writer.h"

namespace dra::cli {
namespace {

struct SnapshotFlags {
  std::string dir;
  kube::ConfigFlags kube;
};

int Run(const SnapshotFlags& flags) {
  Result<LiveCluster> live = LoadLiveCluster(flags.kube);
  if (!live.ok()) {
    std::cerr << live.error() << "\n";
    return 1;
  }
  scheduler::Cluster& c = live->cluster;
  // Finished pods hold nothing any more.
  std::erase_if(c.pods, [](const api::Pod& p) {
    return p.status.phase == "Succeeded" || p.status.phase == "Failed";
  });
  Result<std::string> written = WriteSnapshot(flags.dir, c, live->namespaces);
  if (!written.ok()) {
    std::cerr << "error: " << written.error() << "\n";
    return 1;
  }
  std::cerr << "snapshot of " << live->server << " in " << flags.dir << ": " << *written << "\n";
  return 0;
}

}  // namespace

void AddSnapshotCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<SnapshotFlags>();
  CLI::App* cmd = app.add_subcommand(
      "snapshot",
      "Write a live cluster's DRA-relevant state (Namespaces, Nodes, DeviceClasses, "
      "ResourceSlices, DeviceTaintRules, ResourceClaimTemplates, ResourceClaims, Pods; never "
      "Secrets or ConfigMaps) to a directory that dra simulate, explain, allocate and get read");
  cmd->add_option("-o,--output-dir", flags->dir, "Directory to write (created if missing)")
      ->required();
  RegisterKubeFlags(*cmd, flags->kube);
  cmd->callback([flags, &exit_code] { exit_code = Run(*flags); });
}

}  // namespace dra::cli

// dra snapshot -o DIR: a live cluster's DRA-relevant state as manifests that
// dra simulate, explain, allocate and get read (docs/SNAPSHOT.md).
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "cli/commands.h"
#include "cli/kube_flags.h"
#include "cli/live_cluster.h"
#include "dra/api/codec.h"

namespace dra::cli {
namespace {

namespace fs = std::filesystem;

struct SnapshotFlags {
  std::string dir;
  kube::ConfigFlags kube;
};

// One kind as a core/v1 List, one item per line (compact JSON: the files of
// a large cluster load several times faster than YAML).
template <class T>
Result<std::string> ListJson(const std::vector<T>& objects) {
  std::string out = "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[";
  for (std::size_t i = 0; i < objects.size(); ++i) {
    Result<std::string> item = api::EncodeObject(api::Object(objects[i]), api::ApiVersion::kV1);
    if (!item.ok()) return Error{item.error()};
    out += i == 0 ? "\n" : ",\n";
    out += *item;
  }
  out += "\n]}\n";
  return out;
}

// Writes through a temporary file and a rename, so a reader never sees half
// a file and an old snapshot stays whole when writing fails.
Status WriteFile(const fs::path& path, const std::string& text) {
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return Error{"cannot write " + tmp.string() + ": " + std::strerror(errno)};
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
    f.flush();
    if (!f) return Error{"cannot write " + tmp.string() + ": " + std::strerror(errno)};
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return Error{"cannot write " + path.string() + ": " + ec.message()};
  }
  return {};
}

int Run(const SnapshotFlags& flags) {
  std::error_code ec;
  fs::create_directories(flags.dir, ec);
  if (ec || !fs::is_directory(flags.dir)) {
    std::cerr << "error: cannot create directory " << flags.dir << ": "
              << (ec ? ec.message() : "not a directory") << "\n";
    return 2;
  }
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
  struct File {
    const char* name;
    Result<std::string> text;
    std::size_t count;
  };
  std::vector<File> files;
  files.push_back({"namespaces.json", ListJson(live->namespaces), live->namespaces.size()});
  files.push_back({"nodes.json", ListJson(c.nodes), c.nodes.size()});
  files.push_back({"deviceclasses.json", ListJson(c.classes), c.classes.size()});
  files.push_back({"resourceslices.json", ListJson(c.slices), c.slices.size()});
  files.push_back({"devicetaintrules.json", ListJson(c.taint_rules), c.taint_rules.size()});
  files.push_back({"resourceclaimtemplates.json", ListJson(c.templates), c.templates.size()});
  files.push_back({"resourceclaims.json", ListJson(c.claims), c.claims.size()});
  files.push_back({"pods.json", ListJson(c.pods), c.pods.size()});
  for (File& f : files) {
    if (!f.text.ok()) {
      std::cerr << "error: " << f.name << ": " << f.text.error() << "\n";
      return 1;
    }
    if (Status s = WriteFile(fs::path(flags.dir) / f.name, *f.text); !s.ok()) {
      std::cerr << "error: " << s.error() << "\n";
      return 1;
    }
  }
  std::cerr << "snapshot of " << live->server << " in " << flags.dir << ": ";
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::string kind = files[i].name;
    kind.resize(kind.size() - 5);  // ".json"
    std::cerr << (i == 0 ? "" : ", ") << files[i].count << " " << kind;
  }
  std::cerr << "\n";
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

// dra get devices|pools|claims: who holds which device, per device, pool and
// claim, from manifests (-f) or a live cluster (kubectl's connection flags).
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/get/claim_rows.h"
#include "cli/get/cluster_objects.h"
#include "cli/get/device_rows.h"
#include "cli/get/live_source.h"
#include "cli/get/pool_rows.h"
#include "cli/get/printers.h"
#include "cli/manifest_flags.h"
#include "dra/api/manifest.h"
#include "dra/json/value.h"

namespace dra::cli {
namespace {

enum class Resource { kDevices, kPools, kClaims };

struct GetFlags {
  std::string resource;
  std::vector<std::string> files;
  bool recursive = false;
  std::string namespace_;
  bool namespace_set = false;
  bool all_namespaces = false;
  std::string node, driver, device_class;
  std::string output;
  get::LiveSourceOptions live;
};

Result<Resource> ParseResource(const std::string& name) {
  if (name == "devices" || name == "device") return Resource::kDevices;
  if (name == "pools" || name == "pool") return Resource::kPools;
  if (name == "claims" || name == "claim" || name == "resourceclaims" || name == "resourceclaim") {
    return Resource::kClaims;
  }
  return Error{"the server doesn't have a resource type \"" + name +
               "\" (dra get shows devices, pools or claims)"};
}

// Reads -f; prints every problem and returns nullopt when any.
std::optional<get::ClusterObjects> FromManifests(const GetFlags& flags) {
  ManifestFlags manifest_flags;
  manifest_flags.files = flags.files;
  manifest_flags.recursive = flags.recursive;
  api::ManifestOptions options;
  api::FeatureGates gates;
  if (manifest_flags.Prepare(options, gates) != 0) return std::nullopt;
  api::ManifestSet set = api::ReadManifests(flags.files, options);
  get::ManifestObjects read = get::ObjectsFromManifests(
      set, flags.namespace_.empty() ? std::string("default") : flags.namespace_);
  for (const std::string& w : read.warnings) std::cerr << "Warning: " << w << "\n";
  for (const std::string& e : read.errors) std::cerr << "error: " << e << "\n";
  if (!read.errors.empty()) return std::nullopt;
  return std::move(read.objects);
}

get::GetFilters FiltersFor(const GetFlags& flags) {
  get::GetFilters filters;
  filters.node = flags.node;
  filters.driver = flags.driver;
  filters.device_class = flags.device_class;
  filters.all_namespaces = flags.all_namespaces;
  filters.namespace_ = flags.namespace_.empty() ? "default" : flags.namespace_;
  return filters;
}

// Reads the cluster of the kubeconfig; prints the error and returns nullopt
// when that fails.
std::optional<get::ClusterObjects> FromLiveCluster(const GetFlags& flags, Resource resource) {
  get::LiveSourceOptions live = flags.live;
  live.namespace_ = flags.namespace_;
  // Devices and pools are held by claims of every namespace.
  live.all_namespaces = flags.all_namespaces || resource != Resource::kClaims;
  live.with_node = flags.node;
  Result<get::ClusterObjects> loaded = get::LoadLiveObjects(live);
  if (!loaded.ok()) {
    // Configuration and server errors, as kubectl prints them and with its status.
    std::cerr << loaded.error() << "\n";
    return std::nullopt;
  }
  return std::move(*loaded);
}

void PrintList(const json::Value& list, const std::string& output) {
  if (output == "json") {
    std::cout << json::ToIndentedJson(list) << "\n";
  } else {
    std::cout << json::ToYaml(list);
  }
}

// Exit status: 0 shown (nothing found included), 1 --class names no class,
// 2 bad flags or input that cannot be read.
int Run(const GetFlags& flags) {
  Result<Resource> resource = ParseResource(flags.resource);
  if (!resource.ok()) {
    std::cerr << "error: " << resource.error() << "\n";
    return 2;
  }
  get::GetFilters filters = FiltersFor(flags);

  get::ClusterObjects objects;
  if (!flags.files.empty()) {
    std::optional<get::ClusterObjects> read = FromManifests(flags);
    if (!read) return 2;
    objects = std::move(*read);
  } else {
    std::optional<get::ClusterObjects> loaded = FromLiveCluster(flags, *resource);
    if (!loaded) return 1;
    objects = std::move(*loaded);
    // The claims listed are those of the context's namespace already.
    if (!flags.namespace_set) filters.all_namespaces = true;
  }

  const bool wide = flags.output == "wide";
  const bool table = flags.output.empty() || wide;
  std::size_t count = 0;
  switch (*resource) {
    case Resource::kDevices: {
      Result<std::vector<get::DeviceRow>> rows = get::DeviceRows(objects, filters);
      if (!rows.ok()) {
        std::cerr << "error: " << rows.error() << "\n";
        return 1;
      }
      count = rows->size();
      if (!table) {
        PrintList(get::DeviceListJson(*rows), flags.output);
      } else if (count > 0) {
        std::cout << get::DeviceTable(*rows, wide);
      }
      break;
    }
    case Resource::kPools: {
      Result<std::vector<get::PoolRow>> rows = get::PoolRows(objects, filters);
      if (!rows.ok()) {
        std::cerr << "error: " << rows.error() << "\n";
        return 1;
      }
      count = rows->size();
      if (!table) {
        PrintList(get::PoolListJson(*rows), flags.output);
      } else if (count > 0) {
        std::cout << get::PoolTable(*rows, wide);
      }
      break;
    }
    case Resource::kClaims: {
      std::vector<get::ClaimRow> rows = get::ClaimRows(objects, filters);
      count = rows.size();
      if (!table) {
        PrintList(get::ClaimListJson(rows), flags.output);
      } else if (count > 0) {
        std::cout << get::ClaimTable(rows, wide, flags.all_namespaces);
      }
      break;
    }
  }
  if (table && count == 0) {
    if (*resource == Resource::kClaims && !flags.all_namespaces) {
      std::cerr << "No resources found in " << filters.namespace_ << " namespace.\n";
    } else {
      std::cerr << "No resources found\n";
    }
  }
  return 0;
}

}  // namespace

void AddGetCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<GetFlags>();
  CLI::App* cmd = app.add_subcommand(
      "get",
      "Show devices (with the claims and pods holding them), pools or claims, from manifests "
      "(-f) or a live cluster");
  cmd->add_option("resource", flags->resource, "devices, pools or claims")->required();
  cmd->add_option("-f,--filename", flags->files,
                  "Manifest files or directories (.yaml, .yml, .json); - reads standard input. "
                  "Without -f, the cluster of the kubeconfig is read");
  cmd->add_flag("-R,--recursive", flags->recursive, "Process directories recursively");
  CLI::Option* ns = cmd->add_option(
      "-n,--namespace", flags->namespace_,
      "Namespace of the claims shown (get claims), and of manifests' objects that name none");
  cmd->add_flag("-A,--all-namespaces", flags->all_namespaces, "Claims of every namespace");
  cmd->add_option("--node", flags->node,
                  "Only devices available on (claims allocated for) this node");
  cmd->add_option("--driver", flags->driver, "Only devices (claims) of this driver");
  cmd->add_option("--class", flags->device_class,
                  "Only devices the DeviceClass's selectors match (claims requesting the class)");
  cmd->add_option("-o,--output", flags->output, "Output format: wide, json or yaml")
      ->check(CLI::IsMember({"wide", "json", "yaml"}));
  cmd->add_option("--kubeconfig", flags->live.kubeconfig, "Path to the kubeconfig file");
  cmd->add_option("--context", flags->live.context, "The kubeconfig context to use");
  cmd->add_option("--cluster", flags->live.cluster, "The kubeconfig cluster to use");
  cmd->add_option("--user", flags->live.user, "The kubeconfig user to use");
  cmd->add_option("-s,--server", flags->live.server, "The address of the Kubernetes API server");
  cmd->add_option("--token", flags->live.token, "Bearer token for the API server");
  cmd->add_option("--request-timeout", flags->live.request_timeout,
                  "How long to wait for the API server (e.g. 30s); 0 waits forever");
  cmd->callback([flags, ns, &exit_code] {
    flags->namespace_set = ns->count() > 0;
    exit_code = Run(*flags);
  });
}

}  // namespace dra::cli

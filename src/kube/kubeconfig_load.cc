// Which kubeconfig files are read and how they merge (client-go
// tools/clientcmd/loader.go and merge.go at v0.37.2).
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dra/kube/kubeconfig.h"
#include "kube/kubeconfig_internal.h"

namespace dra::kube {
namespace {

void ResolvePath(std::string& path, const std::string& base) {
  if (path.empty() || path[0] == '/') return;
  path = internal::JoinPath(base, path);
}

}  // namespace

Result<Kubeconfig> LoadKubeconfigFile(const std::string& path) {
  Result<std::string> text = internal::ReadFileBounded(path, kMaxConfigFileBytes);
  if (!text.ok()) return text.failure();
  Result<Kubeconfig> parsed = ParseKubeconfig(*text);
  if (!parsed.ok()) return parsed;
  Kubeconfig config = std::move(parsed).value();
  const std::string base = internal::DirName(internal::AbsPath(path));
  for (auto& [name, cluster] : config.clusters) {
    cluster.location_of_origin = path;
    ResolvePath(cluster.certificate_authority, base);
  }
  for (auto& [name, user] : config.users) {
    user.location_of_origin = path;
    ResolvePath(user.client_certificate, base);
    ResolvePath(user.client_key, base);
    ResolvePath(user.token_file, base);
    if (user.exec && user.exec->command.find('/') != std::string::npos) {
      ResolvePath(user.exec->command, base);
    }
  }
  for (auto& [name, context] : config.contexts) context.location_of_origin = path;
  return config;
}

Kubeconfig MergeKubeconfigs(const std::vector<Kubeconfig>& files) {
  Kubeconfig merged;
  for (const Kubeconfig& file : files) {
    // map::emplace keeps the entry already there: the first file wins.
    for (const auto& [name, c] : file.clusters) merged.clusters.emplace(name, c);
    for (const auto& [name, u] : file.users) merged.users.emplace(name, u);
    for (const auto& [name, c] : file.contexts) merged.contexts.emplace(name, c);
    if (merged.current_context.empty()) merged.current_context = file.current_context;
  }
  return merged;
}

namespace internal {

std::vector<std::string> KubeconfigPrecedence(const ConfigFlags& flags, const Environment& env) {
  if (flags.kubeconfig && !flags.kubeconfig->empty()) return {*flags.kubeconfig};
  std::vector<std::string> files;
  if (env.kubeconfig && !env.kubeconfig->empty()) {
    std::set<std::string> seen;
    std::string_view list = *env.kubeconfig;
    std::size_t i = 0;
    while (i <= list.size()) {
      std::size_t j = list.find(':', i);
      if (j == std::string_view::npos) j = list.size();
      std::string entry(list.substr(i, j - i));
      i = j + 1;
      if (entry.empty() || !seen.insert(entry).second) continue;
      files.push_back(std::move(entry));
    }
    return files;
  }
  return {JoinPath(env.home, ".kube/config")};
}

Result<Kubeconfig> LoadMergedKubeconfig(const ConfigFlags& flags, const Environment& env) {
  const bool explicit_file = flags.kubeconfig && !flags.kubeconfig->empty();
  if (explicit_file) {
    bool exists = true;
    std::string err = StatError(*flags.kubeconfig, &exists);
    if (!exists) return Error{"error: " + err};
  }
  std::vector<Kubeconfig> loaded;
  std::vector<std::string> errors;
  for (const std::string& path : KubeconfigPrecedence(flags, env)) {
    bool exists = true;
    (void)StatError(path, &exists);
    if (!exists) continue;  // missing files are skipped silently
    Result<Kubeconfig> config = LoadKubeconfigFile(path);
    if (!config.ok()) {
      errors.push_back("error loading config file \"" + path + "\": " + config.error());
      continue;
    }
    loaded.push_back(std::move(config).value());
  }
  if (errors.size() == 1) return Error{"error: " + errors[0]};
  if (!errors.empty()) {
    // kubectl prints an aggregate one error per line, without a prefix.
    std::string text;
    for (const std::string& e : errors) {
      if (!text.empty()) text += '\n';
      text += e;
    }
    return Error{text};
  }
  return MergeKubeconfigs(loaded);
}

}  // namespace internal
}  // namespace dra::kube

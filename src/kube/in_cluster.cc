#include "dra/kube/in_cluster.h"

#include <sys/stat.h>

#include <utility>

#include "dra/kube/token_file.h"
#include "kube/kubeconfig_internal.h"

namespace dra::kube {
namespace {

std::string TokenPath(const Environment& env) {
  return internal::JoinPath(env.service_account_dir, "token");
}

}  // namespace

bool InClusterPossible(const Environment& env) {
  if (env.kubernetes_service_host.empty() || env.kubernetes_service_port.empty()) return false;
  struct stat st;
  return ::stat(TokenPath(env).c_str(), &st) == 0 && !S_ISDIR(st.st_mode);
}

std::string InClusterNamespace(const Environment& env) {
  if (!env.pod_namespace.empty()) return env.pod_namespace;
  Result<std::string> text = internal::ReadFileBounded(
      internal::JoinPath(env.service_account_dir, "namespace"), kMaxConfigFileBytes);
  if (text.ok()) {
    std::string ns(internal::TrimSpace(*text));
    if (!ns.empty()) return ns;
  }
  return "default";
}

Result<RestConfig> InClusterConfig(const Environment& env) {
  const std::string& host = env.kubernetes_service_host;
  const std::string& port = env.kubernetes_service_port;
  if (host.empty() || port.empty()) {
    return Error{
        "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
        "KUBERNETES_SERVICE_PORT must be defined"};
  }
  const std::string token_path = TokenPath(env);
  Result<std::string> token = internal::ReadFileBounded(token_path, kMaxConfigFileBytes);
  if (!token.ok()) return token.failure();

  RestConfig config;
  // net.JoinHostPort: a host containing ':' is an IPv6 literal.
  config.server =
      "https://" + (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
  config.bearer_token = std::string(internal::TrimSpace(*token));
  Result<std::shared_ptr<TokenFileProvider>> provider =
      TokenFileProvider::Create(token_path, config.bearer_token);
  if (!provider.ok()) return provider.failure();
  config.credentials = std::move(provider).value();

  const std::string ca_path = internal::JoinPath(env.service_account_dir, "ca.crt");
  Result<std::string> ca = internal::ReadFileBounded(ca_path, kMaxConfigFileBytes);
  if (ca.ok() && ca->find("-----BEGIN CERTIFICATE-----") != std::string::npos) {
    config.tls.ca_pem = std::move(ca).value();
    config.tls.ca_file = ca_path;
  }
  config.namespace_ = InClusterNamespace(env);
  config.namespace_explicit = false;
  return config;
}

}  // namespace dra::kube

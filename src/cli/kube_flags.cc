#include "cli/kube_flags.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dra::cli {
namespace {

void StringFlag(CLI::App& cmd, const std::string& names, std::optional<std::string>& target,
                const std::string& help) {
  cmd.add_option_function<std::string>(
      names, [&target](const std::string& v) { target = v; }, help);
}

void BoolFlag(CLI::App& cmd, const std::string& names, std::optional<bool>& target,
              const std::string& help) {
  // "--flag" and "--flag=true|false", as pflag's boolean flags.
  cmd.add_flag_function(
      names, [&target](std::int64_t count) { target = count > 0; }, help);
}

}  // namespace

void RegisterKubeFlags(CLI::App& cmd, kube::ConfigFlags& flags) {
  const std::string group = "Kubernetes connection";
  auto* g = cmd.add_option_group(group);
  CLI::App& c = *g;
  StringFlag(c, "--kubeconfig", flags.kubeconfig,
             "Path to the kubeconfig file to use for CLI requests.");
  StringFlag(c, "--cache-dir", flags.cache_dir, "Default cache directory");
  StringFlag(c, "--client-certificate", flags.client_certificate,
             "Path to a client certificate file for TLS");
  StringFlag(c, "--client-key", flags.client_key, "Path to a client key file for TLS");
  StringFlag(c, "--token", flags.token, "Bearer token for authentication to the API server");
  StringFlag(c, "--as", flags.as,
             "Username to impersonate for the operation. User could be a regular user or a "
             "service account in a namespace.");
  StringFlag(c, "--as-uid", flags.as_uid, "UID to impersonate for the operation.");
  c.add_option("--as-group", flags.as_groups,
               "Group to impersonate for the operation, this flag can be repeated to specify "
               "multiple groups.")
      ->allow_extra_args(false);
  c.add_option("--as-user-extra", flags.as_user_extra,
               "User extras to impersonate for the operation, this flag can be repeated to "
               "specify multiple values for the same key.")
      ->allow_extra_args(false);
  StringFlag(c, "--username", flags.username,
             "Username for basic authentication to the API server");
  StringFlag(c, "--password", flags.password,
             "Password for basic authentication to the API server");
  StringFlag(c, "--cluster", flags.cluster, "The name of the kubeconfig cluster to use");
  StringFlag(c, "--user", flags.user, "The name of the kubeconfig user to use");
  StringFlag(c, "-n,--namespace", flags.namespace_,
             "If present, the namespace scope for this CLI request");
  StringFlag(c, "--context", flags.context, "The name of the kubeconfig context to use");
  StringFlag(c, "-s,--server", flags.server, "The address and port of the Kubernetes API server");
  StringFlag(c, "--tls-server-name", flags.tls_server_name,
             "Server name to use for server certificate validation. If it is not provided, the "
             "hostname used to contact the server is used");
  BoolFlag(c, "--insecure-skip-tls-verify", flags.insecure_skip_tls_verify,
           "If true, the server's certificate will not be checked for validity. This will make "
           "your HTTPS connections insecure");
  StringFlag(c, "--certificate-authority", flags.certificate_authority,
             "Path to a cert file for the certificate authority");
  StringFlag(c, "--request-timeout", flags.request_timeout,
             "The length of time to wait before giving up on a single server request. Non-zero "
             "values should contain a corresponding time unit (e.g. 1s, 2m, 3h). A value of zero "
             "means don't timeout requests.");
  BoolFlag(c, "--disable-compression", flags.disable_compression,
           "If true, opt-out of response compression for all requests to the server");
  StringFlag(c, "--proxy-url", flags.proxy_url, "Proxy URL to use for requests to the API server");
}

}  // namespace dra::cli

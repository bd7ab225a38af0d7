// kubeconfig files, kubectl's connection flags and the process environment,
// turned into a RestConfig the way kubectl (client-go tools/clientcmd and
// cli-runtime genericclioptions at v0.37.2) does: which files are read and how
// they merge, which context, cluster and user are chosen, how flags override
// them, how the result is validated, and when in-cluster configuration is used
// instead. docs/KUBECONFIG.md lists what is supported and what differs.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dra/json/value.h"
#include "dra/kube/rest_config.h"
#include "dra/util/result.h"

namespace dra::kube {

// ---------------------------------------------------------------------------
// The kubeconfig model (clientcmd/api v1 after decoding; the named lists are
// maps keyed by name, as in client-go's internal form).

struct KubeconfigCluster {
  std::string server;
  std::string tls_server_name;
  bool insecure_skip_tls_verify = false;
  std::string certificate_authority;       // path (absolute once loaded from a file)
  std::string certificate_authority_data;  // decoded PEM bytes
  std::string proxy_url;
  bool disable_compression = false;
  std::map<std::string, json::Value> extensions;  // name -> extension (opaque)
  std::string location_of_origin;                 // the file it came from
};

struct ExecEnvVar {
  std::string name;
  std::string value;
};

// users[].user.exec: a client.authentication.k8s.io credential plugin.
struct ExecConfig {
  std::string command;
  std::vector<std::string> args;
  std::vector<ExecEnvVar> env;
  std::string api_version;
  std::string install_hint;
  bool provide_cluster_info = false;
  // "Never", "IfAvailable" or "Always"; defaulted to "IfAvailable" for
  // v1beta1 when absent, as client-go's defaulting does.
  std::string interactive_mode;
};

struct AuthProviderConfig {
  std::string name;
  std::map<std::string, std::string> config;
};

struct KubeconfigUser {
  std::string client_certificate;       // path
  std::string client_certificate_data;  // decoded PEM
  std::string client_key;               // path
  std::string client_key_data;          // decoded PEM
  std::string token;
  std::string token_file;
  std::string as;
  std::string as_uid;
  std::vector<std::string> as_groups;
  std::map<std::string, std::vector<std::string>> as_user_extra;
  std::string username;
  std::string password;
  std::optional<AuthProviderConfig> auth_provider;
  std::optional<ExecConfig> exec;
  std::string location_of_origin;
};

struct KubeconfigContext {
  std::string cluster;
  std::string user;
  std::string namespace_;
  std::string location_of_origin;
};

struct Kubeconfig {
  std::map<std::string, KubeconfigCluster> clusters;
  std::map<std::string, KubeconfigUser> users;
  std::map<std::string, KubeconfigContext> contexts;
  std::string current_context;

  // No clusters, users, contexts or current-context.
  bool empty() const {
    return clusters.empty() && users.empty() && contexts.empty() && current_context.empty();
  }
};

// Files larger than this are refused (kubeconfig, certificates, keys, tokens).
inline constexpr std::size_t kMaxConfigFileBytes = 16u << 20;

// Decodes one kubeconfig document (YAML or JSON; an empty text is an empty
// config). Leniency as client-go's: unknown keys are ignored, a missing
// apiVersion/kind is read as v1/Config, null is an absent value. Wrong types,
// bad base64 in *-data fields and duplicate names are errors naming the field
// ("users[0].user.client-key-data: illegal base64 data at input byte 4").
// Relative paths are left as written.
Result<Kubeconfig> ParseKubeconfig(std::string_view text);

// Reads and parses one file, records it as every entry's location of origin
// and resolves relative certificate-authority, client-certificate, client-key,
// tokenFile and (when it contains '/') exec.command against the file's
// directory. Errors are the cause alone ("open /x: permission denied", a
// parse error, "file is larger than 16 MiB"); the caller names the file.
Result<Kubeconfig> LoadKubeconfigFile(const std::string& path);

// Merges files in precedence order (client-go loader.go): for clusters, users
// and contexts the first file defining a name wins the whole entry;
// current-context comes from the first file where it is non-empty.
Kubeconfig MergeKubeconfigs(const std::vector<Kubeconfig>& files);

// ---------------------------------------------------------------------------
// Inputs.

// kubectl's connection flags (cli-runtime ConfigFlags). Unset is
// std::nullopt; as in kubectl, an empty string behaves as unset.
struct ConfigFlags {
  std::optional<std::string> kubeconfig;
  std::optional<std::string> context;
  std::optional<std::string> cluster;
  std::optional<std::string> user;
  std::optional<std::string> namespace_;
  std::optional<std::string> server;
  std::optional<std::string> tls_server_name;
  std::optional<std::string> certificate_authority;
  std::optional<std::string> client_certificate;
  std::optional<std::string> client_key;
  std::optional<std::string> token;
  std::optional<std::string> as;
  std::optional<std::string> as_uid;
  std::optional<std::string> username;
  std::optional<std::string> password;
  std::optional<std::string> proxy_url;
  std::optional<std::string> request_timeout;
  std::optional<std::string> cache_dir;  // accepted, unused here
  std::vector<std::string> as_groups;
  std::vector<std::string> as_user_extra;  // "key=value"; entries without '=' are ignored
  std::optional<bool> insecure_skip_tls_verify;
  std::optional<bool> disable_compression;
};

// What configuration reads from the process. Tests build one by hand.
struct Environment {
  std::optional<std::string> kubeconfig;  // $KUBECONFIG (unset: nullopt)
  std::string home;                       // $HOME
  std::string kubernetes_master;          // $KUBERNETES_MASTER
  std::string kubernetes_service_host;    // $KUBERNETES_SERVICE_HOST
  std::string kubernetes_service_port;    // $KUBERNETES_SERVICE_PORT
  std::string pod_namespace;              // $POD_NAMESPACE
  std::string service_account_dir = "/var/run/secrets/kubernetes.io/serviceaccount";

  static Environment FromProcess();
};

// Which defaults apply when the kubeconfig leaves the server unset.
enum class ConfigDefaults {
  // kubectl's: the cluster defaults to server http://localhost:8080
  // ($KUBERNETES_MASTER when set), and a result equal to that default falls
  // back to in-cluster configuration when possible.
  kKubectl,
  // client-go's library loader (what controllers use): no default server;
  // "no server found for cluster" and the empty-configuration error apply,
  // and only an empty configuration falls back to in-cluster.
  kClientGo,
};

// Loads, merges, selects, overrides and validates as kubectl does, falling
// back to in-cluster configuration as kubectl does (in_cluster.h).
//
// The error text is what kubectl prints on standard error for the same
// failure, without the final newline, e.g.
//   error: stat /x: no such file or directory
//   error: error loading config file "/x": line 3, column 1: ...
//   error: context "x" does not exist            (--context with -n)
//   Error in configuration: context was not found for specified context: x
//   Error in configuration: \n* <message>\n* <message>   (several problems)
//   error: Invalid timeout value. Timeout must be ...
// Several unreadable KUBECONFIG files give one "error loading config file"
// line each (no "error: " prefix, as kubectl prints aggregates). The
// namespace is resolved before the rest, as kubectl commands do, so
// "--context missing" without -n reports the Error in configuration form.
//
// Credentials, client certificates and CA settings are applied only when the
// server is https (client-go's rule): for an http server they are left empty.
// An exec plugin becomes `credentials` (exec_credential.h); a tokenFile
// becomes a rotating TokenFileProvider (token_file.h) whose fallback is the
// static token.
Result<RestConfig> LoadRestConfig(const ConfigFlags& flags, const Environment& env,
                                  ConfigDefaults defaults = ConfigDefaults::kKubectl);

// kubectl's --request-timeout: a non-negative integer is seconds, else a Go
// duration ("1.5s", "2m", "3h", "500ms"; rounded up to whole milliseconds).
// Error: "Invalid timeout value. Timeout must be a single integer in seconds,
// or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)".
Result<std::chrono::milliseconds> ParseRequestTimeout(std::string_view text);

}  // namespace dra::kube

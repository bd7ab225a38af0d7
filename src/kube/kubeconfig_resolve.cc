// From the merged kubeconfig and kubectl's flags to a RestConfig: selection of
// context, cluster and user, command-line overrides, validation, in-cluster
// fallback and the namespace (client-go tools/clientcmd client_config.go,
// merged_client_builder.go, validation.go and cli-runtime config_flags.go at
// v0.37.2).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <utility>

#include "dra/api/field_error.h"
#include "dra/kube/exec_credential.h"
#include "dra/kube/in_cluster.h"
#include "dra/kube/kubeconfig.h"
#include "dra/kube/token_file.h"
#include "kube/kubeconfig_internal.h"

namespace dra::kube {
namespace {

constexpr std::string_view kExecClusterExtension = "client.authentication.k8s.io/exec";
constexpr std::string_view kEmptyConfig =
    "no configuration has been provided, try setting KUBERNETES_MASTER environment variable";
constexpr std::string_view kEmptyCluster = "cluster has no server defined";

std::string OrEmpty(const std::optional<std::string>& s) { return s ? *s : std::string(); }

// clientcmd.ConfigOverrides as cli-runtime fills it from the flags.
struct Overrides {
  KubeconfigUser user;
  KubeconfigCluster cluster;
  std::string current_context;
  std::string context_cluster;
  std::string context_user;
  std::string namespace_;
  std::string timeout;
};

Overrides FromFlags(const ConfigFlags& f) {
  Overrides o;
  o.user.client_certificate = OrEmpty(f.client_certificate);
  o.user.client_key = OrEmpty(f.client_key);
  o.user.token = OrEmpty(f.token);
  o.user.as = OrEmpty(f.as);
  o.user.as_uid = OrEmpty(f.as_uid);
  o.user.as_groups = f.as_groups;
  for (const std::string& extra : f.as_user_extra) {
    std::size_t eq = extra.find('=');
    if (eq == std::string::npos) continue;
    o.user.as_user_extra[extra.substr(0, eq)].push_back(extra.substr(eq + 1));
  }
  o.user.username = OrEmpty(f.username);
  o.user.password = OrEmpty(f.password);
  o.cluster.server = OrEmpty(f.server);
  o.cluster.tls_server_name = OrEmpty(f.tls_server_name);
  o.cluster.certificate_authority = OrEmpty(f.certificate_authority);
  o.cluster.insecure_skip_tls_verify = f.insecure_skip_tls_verify.value_or(false);
  o.cluster.disable_compression = f.disable_compression.value_or(false);
  o.cluster.proxy_url = OrEmpty(f.proxy_url);
  o.current_context = OrEmpty(f.context);
  o.context_cluster = OrEmpty(f.cluster);
  o.context_user = OrEmpty(f.user);
  o.namespace_ = OrEmpty(f.namespace_);
  o.timeout = OrEmpty(f.request_timeout);
  return o;
}

// client-go's merge: non-empty scalars of src replace dst, non-empty lists
// replace, maps merge key by key.
void Set(std::string& dst, const std::string& src) {
  if (!src.empty()) dst = src;
}
void Set(bool& dst, bool src) {
  if (src) dst = true;
}
template <class T>
void Set(std::vector<T>& dst, const std::vector<T>& src) {
  if (!src.empty()) dst = src;
}
template <class K, class V>
void Set(std::map<K, V>& dst, const std::map<K, V>& src) {
  for (const auto& [k, v] : src) dst[k] = v;
}
template <class T>
void Set(std::optional<T>& dst, const std::optional<T>& src) {
  if (src) dst = src;
}

void Merge(KubeconfigCluster& dst, const KubeconfigCluster& src) {
  Set(dst.server, src.server);
  Set(dst.tls_server_name, src.tls_server_name);
  Set(dst.insecure_skip_tls_verify, src.insecure_skip_tls_verify);
  Set(dst.certificate_authority, src.certificate_authority);
  Set(dst.certificate_authority_data, src.certificate_authority_data);
  Set(dst.proxy_url, src.proxy_url);
  Set(dst.disable_compression, src.disable_compression);
  Set(dst.extensions, src.extensions);
  Set(dst.location_of_origin, src.location_of_origin);
}

void Merge(KubeconfigUser& dst, const KubeconfigUser& src) {
  Set(dst.client_certificate, src.client_certificate);
  Set(dst.client_certificate_data, src.client_certificate_data);
  Set(dst.client_key, src.client_key);
  Set(dst.client_key_data, src.client_key_data);
  Set(dst.token, src.token);
  Set(dst.token_file, src.token_file);
  Set(dst.as, src.as);
  Set(dst.as_uid, src.as_uid);
  Set(dst.as_groups, src.as_groups);
  Set(dst.as_user_extra, src.as_user_extra);
  Set(dst.username, src.username);
  Set(dst.password, src.password);
  Set(dst.auth_provider, src.auth_provider);
  Set(dst.exec, src.exec);
  Set(dst.location_of_origin, src.location_of_origin);
}

bool IsEmptyCluster(const KubeconfigCluster& c) {
  return c.server.empty() && c.tls_server_name.empty() && !c.insecure_skip_tls_verify &&
         c.certificate_authority.empty() && c.certificate_authority_data.empty() &&
         c.proxy_url.empty() && !c.disable_compression && c.extensions.empty() &&
         c.location_of_origin.empty();
}

// The scheme url.Parse would find, or an error when it would fail.
Result<std::string> ProxyScheme(std::string_view u) {
  for (unsigned char c : u) {
    if (c < 0x20 || c == 0x7f) return Error{"could not parse"};
  }
  if (!u.empty() && u[0] == ':') return Error{"could not parse"};
  std::string scheme;
  for (std::size_t i = 0; i < u.size(); ++i) {
    char c = u[i];
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool other = (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
    if (letter || (other && i > 0)) continue;
    if (c == ':' && i > 0) {
      scheme.assign(u.substr(0, i));
      for (char& ch : scheme) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return scheme;
    }
    break;
  }
  // No scheme: a colon in the first path segment is a parse error.
  std::string_view first = u.substr(0, u.find('/'));
  if (first.find(':') != std::string_view::npos) return Error{"could not parse"};
  return std::string();
}

// os.Open's error, or "" (a directory opens fine, as in Go).
std::string OpenError(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "open " + path + ": " + internal::ErrnoText(errno);
  ::close(fd);
  return "";
}

std::vector<std::string> ValidateCluster(const std::string& name, const KubeconfigCluster& c) {
  if (IsEmptyCluster(c)) return {std::string(kEmptyCluster)};
  std::vector<std::string> errs;
  if (c.server.empty()) {
    errs.push_back(name.empty() ? "default cluster has no server defined"
                                : "no server found for cluster " + api::GoQuote(name));
  }
  if (!c.proxy_url.empty()) {
    Result<std::string> scheme = ProxyScheme(c.proxy_url);
    std::string prefix = "invalid 'proxy-url' " + api::GoQuote(c.proxy_url) + " for cluster " +
                         api::GoQuote(name) + ": ";
    if (!scheme.ok()) {
      errs.push_back(prefix + "could not parse: " + c.proxy_url);
    } else if (*scheme != "http" && *scheme != "https" && *scheme != "socks5") {
      errs.push_back(prefix + "unsupported scheme " + api::GoQuote(*scheme) +
                     ", must be http, https, or socks5");
    }
  }
  if (!c.certificate_authority.empty() && !c.certificate_authority_data.empty()) {
    errs.push_back("certificate-authority-data and certificate-authority are both specified for " +
                   name + ". certificate-authority-data will override.");
  }
  if (!c.certificate_authority.empty()) {
    if (std::string e = OpenError(c.certificate_authority); !e.empty()) {
      errs.push_back("unable to read certificate-authority " + c.certificate_authority + " for " +
                     name + " due to " + e);
    }
  }
  return errs;
}

std::vector<std::string> ValidateUser(const std::string& name, const KubeconfigUser& u) {
  std::vector<std::string> errs;
  std::vector<std::string> methods;
  if (!u.token.empty()) methods.emplace_back("token");
  if (!u.username.empty() || !u.password.empty()) methods.emplace_back("basicAuth");
  if (!u.client_certificate.empty() || !u.client_certificate_data.empty()) {
    if (!u.client_certificate.empty() && !u.client_certificate_data.empty()) {
      errs.push_back("client-cert-data and client-cert are both specified for " + name +
                     ". client-cert-data will override.");
    }
    if (!u.client_key.empty() && !u.client_key_data.empty()) {
      errs.push_back("client-key-data and client-key are both specified for " + name +
                     "; client-key-data will override");
    }
    if (u.client_key.empty() && u.client_key_data.empty()) {
      errs.push_back("client-key-data or client-key must be specified for " + name +
                     " to use the clientCert authentication method.");
    }
    if (!u.client_certificate.empty()) {
      if (std::string e = OpenError(u.client_certificate); !e.empty()) {
        errs.push_back("unable to read client-cert " + u.client_certificate + " for " + name +
                       " due to " + e);
      }
    }
    if (!u.client_key.empty()) {
      if (std::string e = OpenError(u.client_key); !e.empty()) {
        errs.push_back("unable to read client-key " + u.client_key + " for " + name + " due to " +
                       e);
      }
    }
  }
  if (u.exec) {
    if (u.auth_provider) {
      errs.push_back("authProvider cannot be provided in combination with an exec plugin for " +
                     name);
    }
    if (u.exec->command.empty()) {
      errs.push_back("command must be specified for " + name +
                     " to use exec authentication plugin");
    }
    if (u.exec->api_version.empty()) {
      errs.push_back("apiVersion must be specified for " + name +
                     " to use exec authentication plugin");
    }
    for (const ExecEnvVar& v : u.exec->env) {
      if (v.name.empty()) {
        errs.push_back("env variable name must be specified for " + name +
                       " to use exec authentication plugin");
      }
    }
    const std::string& mode = u.exec->interactive_mode;
    if (mode.empty()) {
      errs.push_back("interactiveMode must be specified for " + name +
                     " to use exec authentication plugin");
    } else if (mode != "Never" && mode != "IfAvailable" && mode != "Always") {
      errs.push_back("invalid interactiveMode for " + name + ": " + api::GoQuote(mode));
    }
  }
  if (methods.size() > 1) {
    std::string list = "[";
    for (std::size_t i = 0; i < methods.size(); ++i) list += (i ? " " : "") + methods[i];
    errs.push_back("more than one authentication method found for " + name + "; found " + list +
                   "], only one is allowed");
  }
  if ((!u.as_uid.empty() || !u.as_groups.empty() || !u.as_user_extra.empty()) && u.as.empty()) {
    errs.push_back("requesting uid, groups or user-extra for " + name +
                   " without impersonating a user");
  }
  return errs;
}

// kubectl's rendering of a configuration-invalid error.
std::string ConfigurationError(const std::vector<std::string>& errs) {
  if (errs.size() == 1) return "Error in configuration: " + errs[0];
  std::string text = "Error in configuration: \n";
  for (std::size_t i = 0; i < errs.size(); ++i) {
    if (i > 0) text += '\n';
    text += "* " + errs[i];
  }
  return text;
}

// Replaces what is neither a letter, mark, number, punctuation, symbol,
// separator nor \t..\r with its "U+XXXX" form, as client-go does for
// installHint (ASCII and C1 controls here; other code points are kept).
std::string CleanAnsiEscapes(std::string_view s) {
  std::string out;
  static constexpr char kHex[] = "0123456789ABCDEF";
  auto code = [&](unsigned v) {
    out += "U+";
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(v >> shift) & 15];
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && !(c >= 0x09 && c <= 0x0d)) || c == 0x7f) {
      code(c);
    } else if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(s[i + 1]) <= 0x9f) {
      code(static_cast<unsigned char>(s[i + 1]));
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// A ClientConfig failure: kubectl's text, and whether it is the
// empty-configuration error (which allows the in-cluster fallback).
struct Failure {
  std::string text;
  bool empty_config = false;
};

// clientcmd.DirectClientConfig over the merged kubeconfig.
class DirectConfig {
 public:
  DirectConfig(const Kubeconfig& config, const Overrides& o, KubeconfigCluster defaults)
      : config_(config), o_(o), defaults_(std::move(defaults)) {}

  std::string ContextName(bool* required = nullptr) const {
    if (required) *required = !o_.current_context.empty();
    return o_.current_context.empty() ? config_.current_context : o_.current_context;
  }

  Result<KubeconfigContext> Context() const {
    bool required = false;
    std::string name = ContextName(&required);
    KubeconfigContext merged;
    if (auto it = config_.contexts.find(name); it != config_.contexts.end()) {
      merged = it->second;
    } else if (required) {
      return Error{"context " + api::GoQuote(name) + " does not exist"};
    }
    Set(merged.cluster, o_.context_cluster);
    Set(merged.user, o_.context_user);
    Set(merged.namespace_, o_.namespace_);
    return merged;
  }

  std::string UserName(bool* required = nullptr) const {
    if (required) *required = !o_.context_user.empty();
    if (!o_.context_user.empty()) return o_.context_user;
    Result<KubeconfigContext> c = Context();
    return c.ok() ? c->user : std::string();
  }

  Result<KubeconfigUser> User() const {
    bool required = false;
    std::string name = UserName(&required);
    KubeconfigUser merged;
    if (auto it = config_.users.find(name); it != config_.users.end()) {
      merged = it->second;
    } else if (required) {
      return Error{"auth info " + api::GoQuote(name) + " does not exist"};
    }
    Merge(merged, o_.user);
    if (!o_.user.client_key.empty()) {
      merged.client_key = o_.user.client_key;
      merged.client_key_data.clear();
    }
    if (!o_.user.client_certificate.empty()) {
      merged.client_certificate = o_.user.client_certificate;
      merged.client_certificate_data.clear();
    }
    return merged;
  }

  std::string ClusterName(bool* required = nullptr) const {
    if (required) *required = !o_.context_cluster.empty();
    if (!o_.context_cluster.empty()) return o_.context_cluster;
    Result<KubeconfigContext> c = Context();
    return c.ok() ? c->cluster : std::string();
  }

  Result<KubeconfigCluster> Cluster() const {
    bool required = false;
    std::string name = ClusterName(&required);
    KubeconfigCluster merged = defaults_;
    if (auto it = config_.clusters.find(name); it != config_.clusters.end()) {
      Merge(merged, it->second);
    } else if (required) {
      return Error{"cluster " + api::GoQuote(name) + " does not exist"};
    }
    Merge(merged, o_.cluster);
    if (o_.cluster.insecure_skip_tls_verify || !o_.cluster.certificate_authority.empty()) {
      merged.insecure_skip_tls_verify = o_.cluster.insecure_skip_tls_verify;
      merged.certificate_authority = o_.cluster.certificate_authority;
      merged.certificate_authority_data.clear();
    }
    if (!o_.cluster.tls_server_name.empty() || !o_.cluster.server.empty()) {
      merged.tls_server_name = o_.cluster.tls_server_name;
    }
    return merged;
  }

  // ConfirmUsable: nullopt when usable.
  std::optional<Failure> ConfirmUsable() const {
    std::vector<std::string> errs;
    std::string context_name = ContextName();
    if (!context_name.empty() && config_.contexts.count(context_name) == 0) {
      errs.push_back("context was not found for specified context: " + context_name);
    }
    Result<KubeconfigUser> user = User();
    std::vector<std::string> user_errs =
        ValidateUser(UserName(), user.ok() ? *user : KubeconfigUser{});
    errs.insert(errs.end(), user_errs.begin(), user_errs.end());
    Result<KubeconfigCluster> cluster = Cluster();
    std::vector<std::string> cluster_errs =
        ValidateCluster(ClusterName(), cluster.ok() ? *cluster : KubeconfigCluster{});
    errs.insert(errs.end(), cluster_errs.begin(), cluster_errs.end());
    if (errs.empty()) return std::nullopt;
    if (errs.size() == 1 && errs[0] == kEmptyCluster) {
      return Failure{ConfigurationError({std::string(kEmptyConfig)}), true};
    }
    return Failure{ConfigurationError(errs), false};
  }

  // DirectClientConfig.Namespace: (namespace, overridden by -n).
  Result<std::pair<std::string, bool>> Namespace(bool* empty_config) const {
    *empty_config = false;
    if (!o_.namespace_.empty()) return std::make_pair(o_.namespace_, true);
    if (std::optional<Failure> f = ConfirmUsable()) {
      *empty_config = f->empty_config;
      return Error{f->text};
    }
    Result<KubeconfigContext> context = Context();
    if (!context.ok()) return context.failure().WithPrefix("error: ");
    if (context->namespace_.empty()) return std::make_pair(std::string("default"), false);
    return std::make_pair(context->namespace_, false);
  }

  // The context's own namespace (not -n), for the in-cluster namespace rule.
  bool ContextHasNamespace() const {
    auto it = config_.contexts.find(ContextName());
    return it != config_.contexts.end() && !it->second.namespace_.empty();
  }

  Result<RestConfig> ClientConfig(Failure* failure) const;

 private:
  const Kubeconfig& config_;
  const Overrides& o_;
  const KubeconfigCluster defaults_;
};

bool IsHttps(std::string_view server) {
  if (server.size() < 8) return false;
  std::string scheme(server.substr(0, 8));
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return scheme == "https://";
}

// The server as client-go uses it: query and fragment dropped, a scheme-less
// host:port read as http (no TLS settings are applied to it), no trailing '/'.
std::string NormalizeServer(std::string server) {
  if (server.find("://") == std::string::npos) server = "http://" + server;
  std::size_t cut = server.find_first_of("?#");
  if (cut != std::string::npos) server.resize(cut);
  while (server.size() > 1 && server.back() == '/' && server.find("://") + 3 < server.size()) {
    server.pop_back();
  }
  return server;
}

Result<std::string> ReadPem(const std::string& path) {
  Result<std::string> text = internal::ReadFileBounded(path, kMaxConfigFileBytes);
  if (!text.ok()) return text.failure().WithPrefix("error: ");
  return text;
}

// The helpers of ClientConfig below set part of `rc` and return the text of
// the error that stops it, if any.

// Server identification: TLS settings and the certificate authority.
std::optional<std::string> SetServerIdentity(const KubeconfigCluster& cluster, RestConfig& rc) {
  rc.tls.insecure = cluster.insecure_skip_tls_verify;
  rc.tls.server_name = cluster.tls_server_name;
  if (!cluster.certificate_authority_data.empty()) {
    rc.tls.ca_pem = cluster.certificate_authority_data;
  } else if (!cluster.certificate_authority.empty()) {
    Result<std::string> ca = ReadPem(cluster.certificate_authority);
    if (!ca.ok()) return ca.error();
    rc.tls.ca_pem = std::move(ca).value();
    rc.tls.ca_file = cluster.certificate_authority;
  }
  if (rc.tls.insecure && !rc.tls.ca_pem.empty()) {
    return "error: specifying a root certificates file with the insecure flag is not allowed";
  }
  return std::nullopt;
}

// A bearer token, from the kubeconfig or its tokenFile.
std::optional<std::string> SetToken(const KubeconfigUser& user, RestConfig& rc, bool& static_auth) {
  if (!user.token.empty()) {
    rc.bearer_token = user.token;
    static_auth = true;
    if (!user.token_file.empty()) {
      // A readable tokenFile wins over the token at request time.
      Result<std::shared_ptr<TokenFileProvider>> p =
          TokenFileProvider::Create(user.token_file, user.token);
      if (!p.ok()) return "error: " + p.error();
      rc.credentials = std::move(p).value();
    }
  } else if (!user.token_file.empty()) {
    Result<std::string> token = internal::ReadFileBounded(user.token_file, kMaxConfigFileBytes);
    if (!token.ok()) return "error: " + token.error();
    rc.bearer_token = std::string(internal::TrimSpace(*token));
    Result<std::shared_ptr<TokenFileProvider>> p =
        TokenFileProvider::Create(user.token_file, rc.bearer_token);
    if (!p.ok()) return "error: " + p.error();
    rc.credentials = std::move(p).value();
    static_auth = true;
  }
  return std::nullopt;
}

// A client certificate and key, inline or from files.
std::optional<std::string> SetClientCertificate(const KubeconfigUser& user, RestConfig& rc,
                                                bool& static_auth) {
  if (user.client_certificate.empty() && user.client_certificate_data.empty()) {
    return std::nullopt;
  }
  static_auth = true;
  if (!user.client_certificate_data.empty()) {
    rc.tls.cert_pem = user.client_certificate_data;
  } else {
    Result<std::string> cert = ReadPem(user.client_certificate);
    if (!cert.ok()) return cert.error();
    rc.tls.cert_pem = std::move(cert).value();
    rc.tls.cert_file = user.client_certificate;
  }
  if (!user.client_key_data.empty()) {
    rc.tls.key_pem = user.client_key_data;
  } else if (!user.client_key.empty()) {
    Result<std::string> key = ReadPem(user.client_key);
    if (!key.ok()) return key.error();
    rc.tls.key_pem = std::move(key).value();
    rc.tls.key_file = user.client_key;
  }
  return std::nullopt;
}

// Every auth provider is an error: removed from client-go, or not supported.
std::string AuthProviderError(const std::string& name) {
  if (name == "gcp") {
    return "error: The gcp auth plugin has been removed.\n"
           "Please use the \"gke-gcloud-auth-plugin\" kubectl/client-go credential plugin "
           "instead.\n"
           "See https://cloud.google.com/blog/products/containers-kubernetes/"
           "kubectl-auth-changes-in-gke for further details";
  }
  if (name == "azure") {
    return "error: The azure auth plugin has been removed.\n"
           "Please use the https://github.com/Azure/kubelogin kubectl/client-go credential plugin "
           "instead.\n"
           "See https://kubernetes.io/docs/reference/access-authn-authz/authentication/"
           "#client-go-credential-plugins for further details";
  }
  if (name == "oidc") {
    return "error: the oidc auth provider is not supported by dra; use an exec credential plugin "
           "(e.g. kubelogin) instead";
  }
  return "error: no Auth Provider found for name " + api::GoQuote(name);
}

// An exec credential plugin, given the cluster's connection when it asks for it.
std::optional<std::string> SetExecCredentials(ExecConfig exec, const KubeconfigCluster& cluster,
                                              bool static_auth, RestConfig& rc) {
  exec.install_hint = CleanAnsiEscapes(exec.install_hint);
  std::optional<ExecClusterInfo> info;
  if (exec.provide_cluster_info) {
    ExecClusterInfo c;
    c.server = rc.server;
    c.tls_server_name = rc.tls.server_name;
    c.insecure_skip_tls_verify = rc.tls.insecure;
    c.certificate_authority_data = rc.tls.ca_pem;
    c.proxy_url = rc.proxy_url;
    c.disable_compression = rc.disable_compression;
    if (auto it = cluster.extensions.find(std::string(kExecClusterExtension));
        it != cluster.extensions.end()) {
      c.config = it->second;
    }
    info = std::move(c);
  }
  Result<std::shared_ptr<ExecCredentialProvider>> p =
      ExecCredentialProvider::Create(std::move(exec), std::move(info));
  if (!p.ok()) return "error: " + p.error();
  // client-go ignores the plugin when the user has static credentials.
  if (!static_auth) rc.credentials = std::move(p).value();
  return std::nullopt;
}

Result<RestConfig> DirectConfig::ClientConfig(Failure* failure) const {
  auto fail = [&](std::string text, bool empty = false) {
    *failure = Failure{std::move(text), empty};
    return Error{failure->text};
  };
  Result<KubeconfigUser> user_r = User();
  if (!user_r.ok()) return fail("error: " + user_r.error());
  Result<KubeconfigContext> context_r = Context();
  if (!context_r.ok()) return fail("error: " + context_r.error());
  Result<KubeconfigCluster> cluster_r = Cluster();
  if (!cluster_r.ok()) return fail("error: " + cluster_r.error());
  if (std::optional<Failure> f = ConfirmUsable()) return fail(f->text, f->empty_config);
  const KubeconfigUser& user = *user_r;
  const KubeconfigCluster& cluster = *cluster_r;

  RestConfig rc;
  rc.server = NormalizeServer(cluster.server);
  rc.proxy_url = cluster.proxy_url;
  rc.disable_compression = cluster.disable_compression;
  if (!o_.timeout.empty()) {
    Result<std::chrono::milliseconds> t = ParseRequestTimeout(o_.timeout);
    if (!t.ok()) return fail("error: " + t.error());
    rc.timeout = t->count() > 0 ? *t : std::chrono::milliseconds(0);
  }
  if (!user.as.empty()) {
    rc.impersonate_user = user.as;
    rc.impersonate_uid = user.as_uid;
    rc.impersonate_groups = user.as_groups;
    rc.impersonate_extra = user.as_user_extra;
  }
  rc.context_name = ContextName();
  rc.cluster_name = ClusterName();
  rc.user_name = UserName();
  // Scheme-less servers are http to client-go at this point: neither
  // credentials nor TLS settings apply.
  if (!IsHttps(cluster.server)) return rc;

  if (std::optional<std::string> e = SetServerIdentity(cluster, rc)) return fail(*e);

  // User identification.
  bool static_auth = false;
  if (std::optional<std::string> e = SetToken(user, rc, static_auth)) return fail(*e);
  if (std::optional<std::string> e = SetClientCertificate(user, rc, static_auth)) return fail(*e);
  if (!user.username.empty() || !user.password.empty()) {
    rc.username = user.username;
    rc.password = user.password;
    static_auth = true;
  }
  if (user.auth_provider) return fail(AuthProviderError(user.auth_provider->name));
  if (user.exec) {
    if (std::optional<std::string> e = SetExecCredentials(*user.exec, cluster, static_auth, rc)) {
      return fail(*e);
    }
  }
  return rc;
}

// rest.Config equality as far as IsDefaultConfig can see it.
bool SameConnection(const RestConfig& a, const RestConfig& b) {
  return a.server == b.server && a.tls.insecure == b.tls.insecure &&
         a.tls.server_name == b.tls.server_name && a.tls.ca_pem == b.tls.ca_pem &&
         a.tls.cert_pem == b.tls.cert_pem && a.tls.key_pem == b.tls.key_pem &&
         a.bearer_token == b.bearer_token && a.username == b.username && a.password == b.password &&
         a.credentials == b.credentials && a.impersonate_user == b.impersonate_user &&
         a.impersonate_uid == b.impersonate_uid && a.impersonate_groups == b.impersonate_groups &&
         a.impersonate_extra == b.impersonate_extra && a.proxy_url == b.proxy_url &&
         a.disable_compression == b.disable_compression && a.timeout == b.timeout;
}

// clientcmd's inClusterClientConfig.ClientConfig with kubectl's overrides.
Result<RestConfig> InClusterWithOverrides(const Environment& env, const Overrides& o) {
  Result<RestConfig> r = InClusterConfig(env);
  if (!r.ok()) return r.failure().WithPrefix("error: ");
  RestConfig rc = std::move(r).value();
  if (!o.cluster.server.empty()) rc.server = o.cluster.server;
  if (!o.user.token.empty()) {
    rc.bearer_token = o.user.token;
    rc.credentials.reset();
  }
  if (!o.cluster.certificate_authority.empty()) {
    Result<std::string> ca = ReadPem(o.cluster.certificate_authority);
    if (!ca.ok()) return ca.failure();
    rc.tls.ca_pem = std::move(ca).value();
    rc.tls.ca_file = o.cluster.certificate_authority;
  }
  return rc;
}

}  // namespace

Environment Environment::FromProcess() {
  auto get = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v != nullptr ? v : "";
  };
  Environment env;
  if (const char* k = std::getenv("KUBECONFIG"); k != nullptr) env.kubeconfig = k;
  env.home = get("HOME");
  env.kubernetes_master = get("KUBERNETES_MASTER");
  env.kubernetes_service_host = get("KUBERNETES_SERVICE_HOST");
  env.kubernetes_service_port = get("KUBERNETES_SERVICE_PORT");
  env.pod_namespace = get("POD_NAMESPACE");
  return env;
}

Result<RestConfig> LoadRestConfig(const ConfigFlags& flags, const Environment& env,
                                  ConfigDefaults defaults) {
  Result<Kubeconfig> merged = internal::LoadMergedKubeconfig(flags, env);
  if (!merged.ok()) return merged.failure();
  const Overrides overrides = FromFlags(flags);
  KubeconfigCluster cluster_defaults;
  if (defaults == ConfigDefaults::kKubectl) {
    cluster_defaults.server =
        env.kubernetes_master.empty() ? "http://localhost:8080" : env.kubernetes_master;
  }
  const DirectConfig direct(*merged, overrides, cluster_defaults);
  const bool in_cluster_possible = InClusterPossible(env);

  // The namespace first, as kubectl commands resolve it before the client.
  bool empty_config = false;
  Result<std::pair<std::string, bool>> ns = direct.Namespace(&empty_config);
  std::string namespace_;
  bool namespace_explicit = false;
  if (ns.ok()) {
    namespace_ = ns->first;
    namespace_explicit = ns->second || direct.ContextHasNamespace();
    if (!ns->second && in_cluster_possible && namespace_ == "default" &&
        !direct.ContextHasNamespace()) {
      namespace_ = InClusterNamespace(env);
    }
  } else if (!(empty_config && in_cluster_possible)) {
    return ns.failure();
  } else {
    namespace_ = InClusterNamespace(env);
  }

  Failure failure;
  Result<RestConfig> rc = direct.ClientConfig(&failure);
  bool use_in_cluster = false;
  if (!rc.ok()) {
    if (!failure.empty_config || !in_cluster_possible) return Error{failure.text};
    use_in_cluster = true;
  } else if (defaults == ConfigDefaults::kKubectl && in_cluster_possible) {
    static const Kubeconfig kEmpty;
    static const Overrides kNoOverrides;
    Failure ignored;
    Result<RestConfig> default_rc =
        DirectConfig(kEmpty, kNoOverrides, cluster_defaults).ClientConfig(&ignored);
    use_in_cluster = default_rc.ok() && SameConnection(*rc, *default_rc);
  }
  if (use_in_cluster) {
    rc = InClusterWithOverrides(env, overrides);
    if (!rc.ok()) return rc;
  }
  rc->namespace_ = namespace_;
  rc->namespace_explicit = namespace_explicit;
  return rc;
}

namespace {

// Drops a leading '+' or '-'; true for '-'.
bool TakeSign(std::string_view& s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  return negative;
}

// strconv.ParseInt(text, 10, 64) with a non-negative result; nullopt when
// it fails or the result is negative.
std::optional<std::uint64_t> ParseNonNegativeInt(std::string_view s) {
  bool negative = TakeSign(s);
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9' || v > (UINT64_MAX - 9) / 10) return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (v > static_cast<std::uint64_t>(INT64_MAX) || (negative && v != 0)) return std::nullopt;
  return v;
}

// Nanoseconds per unit of time.ParseDuration; nullopt for an unknown unit.
std::optional<long double> NanosecondsPer(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xc2\xb5s" || unit == "\xce\xbcs") return 1e3L;
  if (unit == "ms") return 1e6L;
  if (unit == "s") return 1e9L;
  if (unit == "m") return 60e9L;
  if (unit == "h") return 3600e9L;
  return std::nullopt;
}

// time.ParseDuration's sequence of number-unit pairs (sign, "0" and the
// empty string taken care of), in nanoseconds; nullopt when it is invalid or
// over int64.
std::optional<long double> ParseDurationNanoseconds(std::string_view s) {
  // Total in nanoseconds as a double-checked 128-bit-free accumulation.
  long double total_ns = 0;
  while (!s.empty()) {
    std::size_t i = 0;
    std::uint64_t whole = 0;
    bool any = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (whole > (UINT64_MAX - 9) / 10) return std::nullopt;
      whole = whole * 10 + static_cast<std::uint64_t>(s[i] - '0');
      ++i;
      any = true;
    }
    long double frac = 0;
    if (i < s.size() && s[i] == '.') {
      ++i;
      long double scale = 0.1L;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        frac += scale * (s[i] - '0');
        scale /= 10;
        ++i;
        any = true;
      }
    }
    if (!any) return std::nullopt;
    std::size_t u = i;
    while (u < s.size() && !(s[u] == '.' || (s[u] >= '0' && s[u] <= '9'))) ++u;
    std::optional<long double> per = NanosecondsPer(s.substr(i, u - i));
    if (!per) return std::nullopt;
    total_ns += (static_cast<long double>(whole) + frac) * *per;
    if (total_ns > 9223372036854775807.0L) return std::nullopt;
    s.remove_prefix(u);
  }
  return total_ns;
}

}  // namespace

Result<std::chrono::milliseconds> ParseRequestTimeout(std::string_view text) {
  const Error invalid{
      "Invalid timeout value. Timeout must be a single integer in seconds, or an integer "
      "followed by a corresponding time unit (e.g. 1s | 2m | 3h)"};
  using std::chrono::milliseconds;
  // An integer: seconds.
  if (std::optional<std::uint64_t> v = ParseNonNegativeInt(text)) {
    // time.Duration(i) * time.Second; beyond ~292 years Go overflows, we refuse.
    if (*v > static_cast<std::uint64_t>(INT64_MAX) / 1'000'000'000) return invalid;
    return milliseconds(static_cast<std::int64_t>(*v) * 1000);
  }
  // time.ParseDuration.
  std::string_view s = text;
  bool negative = TakeSign(s);
  if (s == "0") return milliseconds(0);
  if (s.empty()) return invalid;
  std::optional<long double> total_ns = ParseDurationNanoseconds(s);
  if (!total_ns) return invalid;
  // Whole milliseconds, rounding a non-zero remainder up so that "500us"
  // still limits the request.
  auto ms = static_cast<std::int64_t>(*total_ns / 1e6L);
  if (static_cast<long double>(ms) * 1e6L < *total_ns) ++ms;
  return milliseconds(negative ? -ms : ms);
}

}  // namespace dra::kube

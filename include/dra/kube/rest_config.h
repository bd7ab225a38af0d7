// How to reach one Kubernetes API server and who to be there: the resolved
// form of a kubeconfig context (or of in-cluster configuration) after
// kubectl's command-line overrides, as client-go's rest.Config is.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dra/util/result.h"

namespace dra::kube {

// What a request authenticates with, as of now.
struct Credentials {
  std::string bearer_token;  // sent as "Authorization: Bearer <token>"
  std::string cert_pem;      // TLS client certificate (PEM), with key_pem
  std::string key_pem;
  bool operator==(const Credentials&) const = default;
};

// Credentials that change over a client's life: exec credential plugins
// (client.authentication.k8s.io) and rotating token files.
//
// Thread-safety: implementations are called concurrently by every request of
// every thread of the clients sharing them, and must be safe for that.
class CredentialProvider {
 public:
  virtual ~CredentialProvider() = default;
  // The credentials to use now (cached; refreshed when they have expired).
  // May block while a plugin runs; the implementation bounds that time.
  virtual Result<Credentials> Get() = 0;
  // The server answered 401 to a request sent with `used`: when they are still
  // the cached ones, drop them so that the next Get() obtains fresh ones.
  virtual void Invalidate(const Credentials& used) = 0;
};

struct TlsConfig {
  bool insecure = false;    // insecure-skip-tls-verify
  std::string server_name;  // tls-server-name: SNI and the name checked
  std::string ca_pem;       // certificate-authority-data (decoded), or the file read
  std::string ca_file;      // for messages: where ca_pem came from
  std::string cert_pem;     // client certificate (static)
  std::string key_pem;
  std::string cert_file;  // for messages
  std::string key_file;
};

struct RestConfig {
  // "https://host:port[/prefix]" with no trailing '/'; the prefix is kept as
  // the API path prefix.
  std::string server;
  TlsConfig tls;
  // Static credentials. Attached only when the server is https (client-go's
  // rule); the provider, when set, supplies them instead.
  std::string bearer_token;
  std::string username;  // basic auth
  std::string password;
  std::shared_ptr<CredentialProvider> credentials;
  // Impersonation headers (Impersonate-User, -Uid, -Group, -Extra-<key>).
  std::string impersonate_user;
  std::string impersonate_uid;
  std::vector<std::string> impersonate_groups;
  std::map<std::string, std::vector<std::string>> impersonate_extra;
  std::string proxy_url;  // empty: the environment's HTTPS_PROXY/NO_PROXY apply
  bool disable_compression = false;
  // kubectl --request-timeout: the whole-request limit, also sent as the
  // `timeout` query parameter. Zero: none.
  std::chrono::milliseconds timeout{0};
  // Client-side rate limit (token bucket); qps < 0 disables it. client-go's
  // defaults: 5 and 10.
  double qps = 5;
  int burst = 10;
  std::string user_agent;  // empty: "dra/<version> (linux/amd64)"
  // The kubeconfig names this came from, for messages ("" in-cluster).
  std::string context_name;
  std::string cluster_name;
  std::string user_name;
  // The namespace commands default to: -n, else the context's, else the
  // in-cluster service account's, else "default".
  std::string namespace_ = "default";
  bool namespace_explicit = false;  // -n given or set by the context
};

}  // namespace dra::kube

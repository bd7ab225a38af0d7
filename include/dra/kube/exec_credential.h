// Exec credential plugins (client.authentication.k8s.io/v1 and v1beta1), as
// client-go plugin/pkg/client/auth/exec/exec.go at v0.37.2 runs them: the
// command is started directly (no shell) with its args, the process
// environment plus the kubeconfig's env entries and KUBERNETES_EXEC_INFO; its
// standard output must be an ExecCredential of the configured apiVersion.
// Credentials are cached until their expirationTimestamp (forever without
// one) or until Invalidate.
//
// Unlike client-go, a run is bounded: a plugin that has not exited after
// `timeout` or writes more than `max_output_bytes` is killed (SIGKILL, with
// its process group when it is not interactive) and reported.
//
// Thread-safety: Get, Invalidate and ExecInfo may be called from any thread.
// One mutex serialises Get and Invalidate; at most one plugin runs at a time
// and callers of Get wait for it (client-go does the same).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "dra/json/value.h"
#include "dra/kube/kubeconfig.h"
#include "dra/kube/rest_config.h"
#include "dra/util/mutex.h"
#include "dra/util/result.h"

namespace dra::kube {

// spec.cluster of KUBERNETES_EXEC_INFO (exec.provideClusterInfo: true).
struct ExecClusterInfo {
  std::string server;
  std::string tls_server_name;
  bool insecure_skip_tls_verify = false;
  std::string certificate_authority_data;  // PEM bytes; base64-encoded in the JSON
  std::string proxy_url;
  bool disable_compression = false;
  // The cluster's extension named "client.authentication.k8s.io/exec";
  // written as null when absent, as client-go does.
  std::optional<json::Value> config;
};

struct ExecPluginOptions {
  std::chrono::milliseconds timeout{60'000};
  std::size_t max_output_bytes = 1u << 20;
  // Whether standard input is a terminal; nullopt: isatty(0).
  std::optional<bool> stdin_is_terminal;
  // Wall clock for expirationTimestamp; null: system_clock::now.
  std::function<std::chrono::system_clock::time_point()> now;
};

class ExecCredentialProvider : public CredentialProvider {
 public:
  // Error: "exec plugin: invalid apiVersion \"X\"" unless apiVersion is
  // client.authentication.k8s.io/v1 or /v1beta1. `cluster` is sent only when
  // config.provide_cluster_info.
  static Result<std::shared_ptr<ExecCredentialProvider>> Create(
      ExecConfig config, std::optional<ExecClusterInfo> cluster, ExecPluginOptions options = {});

  // Cached credentials, running the plugin when there are none or they have
  // expired. Errors are client-go's texts (without its "getting credentials: "
  // prefix, which a transport adds), e.g.
  //   exec: executable <cmd> not found  (+ help paragraph and installHint)
  //   exec: executable <cmd> failed with exit code <n>
  //   exec plugin is configured to use API version X, plugin returned version Y
  //   exec plugin didn't return a status field
  //   exec plugin didn't return a token or cert/key pair
  //   exec plugin returned only certificate or key, not both
  //   exec plugin cannot support interactive mode: standard input is not a terminal
  // and, for the bounds, "exec: executable <cmd> did not exit within <t>; it
  // was killed" and "exec: executable <cmd> wrote more than <n> bytes to
  // standard output; it was killed".
  Result<Credentials> Get() override;
  // When `used` are the cached credentials, drops them: the next Get() runs
  // the plugin again.
  void Invalidate(const Credentials& used) override;

  // The KUBERNETES_EXEC_INFO value (JSON followed by a newline, as client-go's
  // encoder writes it).
  std::string ExecInfo(bool interactive) const;

  ExecCredentialProvider(ExecConfig config, std::optional<ExecClusterInfo> cluster,
                         ExecPluginOptions options);

 private:
  Result<Credentials> RunLocked() DRA_REQUIRES(mu_);

  const ExecConfig config_;
  const std::string command_;  // cleaned, as client-go names it in messages
  const std::optional<ExecClusterInfo> cluster_;
  const ExecPluginOptions options_;

  Mutex mu_;
  std::optional<Credentials> cached_ DRA_GUARDED_BY(mu_);
  std::optional<std::chrono::system_clock::time_point> expiry_ DRA_GUARDED_BY(mu_);
  int install_hints_shown_ DRA_GUARDED_BY(mu_) = 0;
  std::chrono::steady_clock::time_point hint_window_ DRA_GUARDED_BY(mu_);
};

}  // namespace dra::kube

// In-cluster configuration (client-go rest.InClusterConfig and clientcmd's
// inClusterClientConfig at v0.37.2): the API server from
// KUBERNETES_SERVICE_HOST/PORT, the pod's service-account token (re-read as
// the kubelet rotates it), CA and namespace.
#pragma once

#include <string>

#include "dra/kube/kubeconfig.h"
#include "dra/kube/rest_config.h"
#include "dra/util/result.h"

namespace dra::kube {

// Both variables set and <service_account_dir>/token is a regular file: what
// kubectl checks before falling back to in-cluster configuration.
bool InClusterPossible(const Environment& env);

// server "https://<host>:<port>" (an IPv6 host in brackets); `credentials` a
// TokenFileProvider on <dir>/token, read once now (errors: client-go's
// "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and
// KUBERNETES_SERVICE_PORT must be defined", or the read error such as
// "open <dir>/token: no such file or directory"); tls.ca_pem from <dir>/ca.crt
// when it holds a PEM certificate (otherwise the system roots, as client-go);
// namespace_ from InClusterNamespace. Messages have no "error: " prefix.
Result<RestConfig> InClusterConfig(const Environment& env);

// $POD_NAMESPACE, else the trimmed contents of <dir>/namespace, else "default".
std::string InClusterNamespace(const Environment& env);

}  // namespace dra::kube

// kubectl's connection flags (cli-runtime genericclioptions.ConfigFlags, with
// the deprecated --username/--password that kubectl enables) registered on a
// CLI11 command, filling a dra::kube::ConfigFlags.
#pragma once

#include <CLI/CLI.hpp>

#include "dra/kube/kubeconfig.h"

namespace dra::cli {

// Registers --kubeconfig, --context, --cluster, --user, -n/--namespace,
// -s/--server, --tls-server-name, --insecure-skip-tls-verify,
// --certificate-authority, --client-certificate, --client-key, --token, --as,
// --as-uid, --as-group (repeatable), --as-user-extra (repeatable),
// --username, --password, --request-timeout, --proxy-url,
// --disable-compression and --cache-dir. A flag given sets its member (an
// explicit empty value included); `flags` must outlive parsing.
void RegisterKubeFlags(CLI::App& cmd, kube::ConfigFlags& flags);

}  // namespace dra::cli

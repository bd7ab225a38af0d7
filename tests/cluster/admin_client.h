// A kube::Client with the test cluster's admin kubeconfig and no client-side
// rate limit, for tests that drive kube-apiserver directly.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "dra/kube/client.h"
#include "dra/kube/kubeconfig.h"
#include "kube/test_cluster.h"

namespace dra::kube::testing {

// Null (with a test failure recorded) when the kubeconfig does not load.
inline std::shared_ptr<Client> AdminClient(const testing_cluster::TestCluster& cluster) {
  ConfigFlags flags;
  flags.kubeconfig = cluster.admin_kubeconfig();
  Environment env;
  env.home = "/nonexistent";  // nothing from the user's own configuration
  Result<RestConfig> config = LoadRestConfig(flags, env);
  EXPECT_TRUE(config.ok()) << config.error();
  if (!config.ok()) return nullptr;
  config->qps = -1;
  Result<std::shared_ptr<Client>> client = Client::New(*config);
  EXPECT_TRUE(client.ok()) << client.error();
  return client.ok() ? *client : nullptr;
}

}  // namespace dra::kube::testing

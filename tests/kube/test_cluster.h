// A real Kubernetes control plane for one test (docs/CLUSTER.md).
//
// TestCluster runs interop/cluster's testcluster supervisor, which starts
// etcd and kube-apiserver (and, if asked, kube-scheduler,
// kube-controller-manager and hollow kubelets with the real kubelet DRA
// manager) of Kubernetes v1.37.2 on 127.0.0.1, in a fresh temporary
// directory. The binaries come from tests/cluster/build.sh; ctest passes their
// directory in DRA_CLUSTER_BIN.
//
//   if (auto why = TestCluster::SkipReason(); !why.empty()) GTEST_SKIP() << why;
//   std::string error;
//   auto cluster = TestCluster::Start({.components = {"scheduler"}}, &error);
//   ASSERT_TRUE(cluster) << error;
//   auto r = cluster->Kubectl({"get", "resourceslices"});
//
// The destructor tears the cluster down (and keeps its directory, with the
// components' logs under logs/, when the test failed or DRA_CLUSTER_KEEP is
// set). If the test process dies, the supervisor sees its stdin close and
// tears the cluster down by itself.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dra::testing_cluster {

struct ClusterOptions {
  // Besides etcd and kube-apiserver (always): "scheduler", "controller-manager".
  std::vector<std::string> components;
  // --feature-gates for every component, e.g. "DRAConsumableCapacity=false".
  std::string feature_gates;
  // kube-apiserver --runtime-config; empty: resource.k8s.io v1, v1beta1 and v1beta2.
  std::string runtime_config;
  // kube-apiserver flags replacing the defaults of the same name ("--authorization-mode=RBAC").
  std::vector<std::string> apiserver_args;
  // kube-controller-manager --controllers; empty:
  // resourceclaim-controller,garbage-collector-controller.
  std::string controllers;
  // One hollow kubelet per node name; the start waits until each Node is Ready.
  std::vector<std::string> kubelets;
  // --v for the Kubernetes components (0: their default).
  int verbosity = 0;
  // Where to create the cluster directory; empty: $TMPDIR or /tmp.
  std::string parent_dir;
};

// The outcome of a command: exit status (-1 when it could not run) and its
// standard output and error, interleaved.
struct CommandResult {
  int status = -1;
  std::string output;
  bool ok() const { return status == 0; }
};

// Runs argv[0] (a path) with argv, feeding it `input` on stdin.
CommandResult RunCommand(const std::vector<std::string>& argv, std::string_view input = {});

class TestCluster {
 public:
  // The directory with the binaries: $DRA_CLUSTER_BIN, else
  // ${XDG_CACHE_HOME:-~/.cache}/dra-interop/cluster-bin (tests/cluster/build.sh's default).
  static std::string Find();
  // Empty when a cluster can be started; else why not, for GTEST_SKIP().
  static std::string SkipReason();

  // Starts a cluster and waits until it is ready; nullptr and *error on failure.
  static std::unique_ptr<TestCluster> Start(const ClusterOptions& options, std::string* error);

  ~TestCluster();
  TestCluster(const TestCluster&) = delete;
  TestCluster& operator=(const TestCluster&) = delete;

  const std::string& dir() const { return dir_; }
  // Client certificate of group system:masters.
  std::string admin_kubeconfig() const { return dir_ + "/admin.kubeconfig"; }
  // Bearer token of user "token-admin" in group system:masters.
  std::string token_admin_kubeconfig() const { return dir_ + "/token-admin.kubeconfig"; }
  // Bearer token of user "restricted", with no RBAC rights but those a test grants.
  std::string restricted_kubeconfig() const { return dir_ + "/restricted.kubeconfig"; }
  // Bearer token of the hollow kubelet of `node` (system:node:<node>).
  std::string kubelet_kubeconfig(const std::string& node) const {
    return dir_ + "/kubelet-" + node + ".kubeconfig";
  }
  // The hollow kubelet's --root-dir; DRA plugins register in <root>/plugins_registry.
  std::string kubelet_root(const std::string& node) const { return dir_ + "/kubelets/" + node; }
  std::string ca_file() const { return dir_ + "/ca.crt"; }
  std::string log_file(const std::string& component) const {
    return dir_ + "/logs/" + component + ".log";
  }
  // The values of D/env (KUBECONFIG, DRA_CLUSTER_SERVER, DRA_CLUSTER_ETCD, ...).
  std::string env(const std::string& name) const;
  // https://127.0.0.1:PORT
  std::string server() const { return server_; }
  std::string kubectl() const { return bin_ + "/kubectl"; }
  const std::string& bin_dir() const { return bin_; }

  // kubectl --kubeconfig <kubeconfig, default admin> args...
  CommandResult Kubectl(const std::vector<std::string>& args, std::string_view input = {},
                        const std::string& kubeconfig = {}) const;

  // Supervisor commands; false and *error (if given) on "ERR ...".
  bool RestartApiserver(std::string* error = nullptr);
  bool StopApiserver(std::string* error = nullptr);
  bool StartApiserver(std::string* error = nullptr);
  // Compacts etcd at its current revision (stored in *revision if given):
  // older resourceVersions are gone (410 Gone from etcd; kube-apiserver's
  // watch cache keeps its own window until it restarts).
  bool Compact(int64_t* revision = nullptr, std::string* error = nullptr);
  // Tears the cluster down now; the destructor does it otherwise.
  void Stop();
  // Keep the directory after the destructor (it is kept anyway when the test failed).
  void KeepDir() { keep_ = true; }

 private:
  TestCluster() = default;
  bool Command(const std::string& command, std::string* reply, std::string* error, int timeout_s);
  bool ReadLine(std::string* line, int timeout_s);

  std::string dir_, bin_, server_;
  pid_t pid_ = -1;
  int fd_ = -1;  // our end of the supervisor's stdin/stdout socket
  std::string buffer_;
  bool keep_ = false;
};

}  // namespace dra::testing_cluster

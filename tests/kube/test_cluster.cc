#include "kube/test_cluster.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

extern char** environ;

namespace dra::testing_cluster {
namespace {

bool Executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

std::vector<char*> Argv(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

// Waits for pid up to timeout; true when it was reaped.
bool WaitPid(pid_t pid, std::chrono::milliseconds timeout, int* status) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    pid_t r = ::waitpid(pid, status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

bool WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::string JoinNames(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

}  // namespace

CommandResult RunCommand(const std::vector<std::string>& args, std::string_view input) {
  CommandResult result;
  int out[2], in[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return result;
  if (::pipe2(in, O_CLOEXEC) != 0) {
    ::close(out[0]);
    ::close(out[1]);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, out[1], 2);
  auto argv = Argv(args);
  pid_t pid;
  int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  if (rc != 0) {
    ::close(in[1]);
    ::close(out[0]);
    result.output = args[0] + ": " + std::strerror(rc);
    return result;
  }
  // Feed stdin from a thread so that a large input cannot deadlock with a
  // large output.
  std::thread writer([fd = in[1], input] {
    std::string_view rest = input;
    while (!rest.empty()) {
      ssize_t n = ::write(fd, rest.data(), rest.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      rest.remove_prefix(static_cast<size_t>(n));
    }
    ::close(fd);
  });
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    result.output.append(buf, static_cast<size_t>(n));
  }
  ::close(out[0]);
  writer.join();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string TestCluster::Find() {
  if (const char* bin = std::getenv("DRA_CLUSTER_BIN"); bin && *bin) return bin;
  std::string cache;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    cache = x;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    cache = std::string(home) + "/.cache";
  } else {
    return "";
  }
  return cache + "/dra-interop/cluster-bin";
}

std::string TestCluster::SkipReason() {
  std::string bin = Find();
  if (bin.empty()) return "DRA_CLUSTER_BIN is not set and there is no HOME to look in";
  for (const char* b : {"testcluster", "etcd", "kube-apiserver", "kube-scheduler",
                        "kube-controller-manager", "kubectl", "hollow-kubelet"}) {
    if (!Executable(bin + "/" + b)) {
      return "no " + std::string(b) + " in " + bin +
             " (tests/cluster/build.sh builds the cluster binaries; it needs Go: ctest -L cluster "
             "runs it)";
    }
  }
  return "";
}

std::unique_ptr<TestCluster> TestCluster::Start(const ClusterOptions& options, std::string* error) {
  auto fail = [&](std::string why) -> std::unique_ptr<TestCluster> {
    if (error) *error = std::move(why);
    return nullptr;
  };
  if (auto why = SkipReason(); !why.empty()) return fail(why);
  std::unique_ptr<TestCluster> c(new TestCluster());
  c->bin_ = Find();

  std::string parent = options.parent_dir;
  if (parent.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    parent = tmp && *tmp ? tmp : "/tmp";
  }
  // Unix sockets (the kubelet's plugin registry) need a short path.
  std::string templ = parent + "/dra-cluster-XXXXXX";
  if (!::mkdtemp(templ.data())) return fail("mkdtemp " + templ + ": " + std::strerror(errno));
  c->dir_ = templ;

  std::vector<std::string> args = {c->bin_ + "/testcluster", "--dir", c->dir_, "--bin", c->bin_};
  std::vector<std::string> components = {"apiserver"};
  components.insert(components.end(), options.components.begin(), options.components.end());
  args.push_back("--components=" + JoinNames(components));
  if (!options.feature_gates.empty()) args.push_back("--feature-gates=" + options.feature_gates);
  if (!options.runtime_config.empty()) args.push_back("--runtime-config=" + options.runtime_config);
  for (const std::string& a : options.apiserver_args) args.push_back("--apiserver-arg=" + a);
  if (!options.controllers.empty()) args.push_back("--controllers=" + options.controllers);
  if (options.verbosity > 0) args.push_back("--v=" + std::to_string(options.verbosity));
  for (const auto& node : options.kubelets) args.push_back("--kubelet=" + node);

  // One socket is the supervisor's stdin and stdout: commands go in, one
  // answer line per command comes out, and closing our end (also when this
  // process dies) makes it tear the cluster down.
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    return fail(std::string("socketpair: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, sv[1], 0);
  posix_spawn_file_actions_adddup2(&actions, sv[1], 1);
  auto argv = Argv(args);
  int rc = ::posix_spawn(&c->pid_, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(sv[1]);
  c->fd_ = sv[0];
  if (rc != 0) {
    c->pid_ = -1;
    return fail(args[0] + ": " + std::strerror(rc));
  }
  std::string line;
  if (!c->ReadLine(&line, 300)) {
    c->keep_ = true;
    return fail("the cluster did not start (no READY within 300 s); logs in " + c->dir_ + "/logs");
  }
  if (line.rfind("READY ", 0) != 0) {
    c->keep_ = true;
    return fail("the cluster did not start: " + line + "; logs in " + c->dir_ + "/logs");
  }
  c->server_ = c->env("DRA_CLUSTER_SERVER");
  return c;
}

bool TestCluster::ReadLine(std::string* line, int timeout_s) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  for (;;) {
    if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
      *line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return true;
    }
    if (fd_ < 0) return false;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    char buf[4096];
    ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffer_.append(buf, static_cast<size_t>(n));
  }
}

bool TestCluster::Command(const std::string& command, std::string* reply, std::string* error,
                          int timeout_s) {
  std::string line;
  if (fd_ < 0 || !WriteAll(fd_, command + "\n") || !ReadLine(&line, timeout_s)) {
    if (error) *error = command + ": no answer from the supervisor";
    return false;
  }
  if (line.rfind("OK", 0) == 0) {
    if (reply) *reply = line;
    return true;
  }
  if (error) *error = command + ": " + line;
  return false;
}

bool TestCluster::RestartApiserver(std::string* error) {
  return Command("restart-apiserver", nullptr, error, 300);
}
bool TestCluster::StopApiserver(std::string* error) {
  return Command("stop-apiserver", nullptr, error, 60);
}
bool TestCluster::StartApiserver(std::string* error) {
  return Command("start-apiserver", nullptr, error, 300);
}

bool TestCluster::Compact(int64_t* revision, std::string* error) {
  std::string reply;
  if (!Command("compact", &reply, error, 60)) return false;
  if (revision) {
    auto eq = reply.find("revision=");
    *revision = eq == std::string::npos ? 0 : std::strtoll(reply.c_str() + eq + 9, nullptr, 10);
  }
  return true;
}

std::string TestCluster::env(const std::string& name) const {
  std::ifstream in(dir_ + "/env");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name + "=", 0) != 0) continue;
    std::string v = line.substr(name.size() + 1);
    // The supervisor writes values as Go-quoted strings (no escapes for the
    // paths and URLs it writes).
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    return v;
  }
  return "";
}

CommandResult TestCluster::Kubectl(const std::vector<std::string>& args, std::string_view input,
                                   const std::string& kubeconfig) const {
  std::vector<std::string> argv = {kubectl(), "--kubeconfig",
                                   kubeconfig.empty() ? admin_kubeconfig() : kubeconfig};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv, input);
}

void TestCluster::Stop() {
  if (pid_ > 0) {
    std::string ignored;
    Command("stop", nullptr, &ignored, 60);
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
    }
    int status;
    // The supervisor stops everything in at most about 20 s after stdin closes.
    if (!WaitPid(pid_, std::chrono::seconds(40), &status)) {
      ::kill(pid_, SIGTERM);
      if (!WaitPid(pid_, std::chrono::seconds(25), &status)) {
        ::kill(pid_, SIGKILL);
        WaitPid(pid_, std::chrono::seconds(5), &status);
      }
    }
    pid_ = -1;
  }
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

TestCluster::~TestCluster() {
  Stop();
  if (dir_.empty()) return;
  const bool failed = ::testing::Test::HasFailure();
  if (keep_ || failed || std::getenv("DRA_CLUSTER_KEEP")) {
    std::cerr << "cluster directory (logs/ has the components' logs) kept: " << dir_ << "\n";
    return;
  }
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

}  // namespace dra::testing_cluster

#include "dra/kube/exec_credential.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <map>
#include <thread>
#include <utility>
#include <vector>

#include "api/codec/time_format.h"
#include "dra/util/mutex.h"
#include "kube/kubeconfig_internal.h"

extern char** environ;

namespace dra::kube {
namespace {

constexpr std::string_view kGroup = "client.authentication.k8s.io";
constexpr std::string_view kInstallHintHelp =
    "\n\nIt looks like you are trying to use a client-go credential plugin that is not installed.\n"
    "\n"
    "To learn more about this feature, consult the documentation available at:\n"
    "      https://kubernetes.io/docs/reference/access-authn-authz/authentication/"
    "#client-go-credential-plugins";

bool IsExecutableFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111) != 0;
}

// os/exec's lookup: a name with '/' is run as is (a failure is then a
// fork/exec error); a bare name is searched in $PATH, where only absolute
// directories count (Go refuses results relative to ".").
std::optional<std::string> LookPath(const std::string& command) {
  if (command.find('/') != std::string::npos) return command;
  const char* path_env = std::getenv("PATH");
  std::string_view path = path_env != nullptr ? path_env : "";
  std::size_t i = 0;
  while (i <= path.size()) {
    std::size_t j = path.find(':', i);
    if (j == std::string_view::npos) j = path.size();
    std::string dir(path.substr(i, j - i));
    i = j + 1;
    if (dir.empty() || dir[0] != '/') continue;
    std::string candidate = std::move(dir);
    candidate += '/';
    candidate += command;
    if (IsExecutableFile(candidate)) return candidate;
  }
  return std::nullopt;
}

std::string DurationText(std::chrono::milliseconds d) {
  if (d.count() % 1000 == 0) return std::to_string(d.count() / 1000) + "s";
  return std::to_string(d.count()) + "ms";
}

// The environment of the plugin: ours, then the kubeconfig's entries, then
// KUBERNETES_EXEC_INFO; a later value of a name replaces an earlier one.
std::vector<std::string> PluginEnvironment(const ExecConfig& config, const std::string& info) {
  std::vector<std::string> env;
  std::map<std::string, std::size_t, std::less<>> index;
  auto add = [&](std::string entry) {
    std::string name = entry.substr(0, entry.find('='));
    if (auto it = index.find(name); it != index.end()) {
      env[it->second] = std::move(entry);
    } else {
      index.emplace(std::move(name), env.size());
      env.push_back(std::move(entry));
    }
  };
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) add(*e);
  for (const ExecEnvVar& v : config.env) add(v.name + "=" + v.value);
  add("KUBERNETES_EXEC_INFO=" + info);
  return env;
}

struct RunOutput {
  std::string stdout_text;
  int wait_status = 0;
};

void KillChild(pid_t pid, bool own_group) {
  ::kill(own_group ? -pid : pid, SIGKILL);
  int status;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

// Interactive mode decides whether the plugin gets our standard input.
Result<bool> Interactive(const std::string& mode, bool tty) {
  if (mode == "Never") return false;
  if (mode == "IfAvailable") return tty;
  if (mode == "Always") {
    if (!tty) {
      return Error{"exec plugin cannot support interactive mode: standard input is not a terminal"};
    }
    return true;
  }
  return Error{"exec plugin cannot support interactive mode: unknown interactiveMode: \"" + mode +
               "\""};
}

// A started plugin: its PID and the read end of its standard output.
struct Child {
  pid_t pid = 0;
  int out = -1;
  // A non-interactive plugin gets its own process group so that a timeout
  // kills whatever it started too; an interactive one stays in the
  // terminal's foreground group.
  bool own_group = false;
};

Result<Child> Spawn(const std::string& path, std::vector<std::string> args,
                    std::vector<std::string> env, bool interactive) {
  std::vector<char*> envp;
  envp.reserve(env.size() + 1);
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0)
    return Error{"exec: pipe: " + internal::ErrnoText(errno), ErrnoCode(errno)};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!interactive) posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  Child child;
  child.own_group = !interactive;
  if (child.own_group) {
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&attr, 0);
  }
  posix_spawnattr_setflags(&attr, flags);
  int rc = ::posix_spawn(&child.pid, path.c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(out[1]);
  if (rc != 0) {
    ::close(out[0]);
    return Error{"exec: fork/exec " + path + ": " + internal::ErrnoText(rc), ErrnoCode(rc)};
  }
  child.out = out[0];
  return child;
}

// Reads the plugin's standard output until it closes, then waits for its
// exit, all within `timeout`; kills it on timeout or too much output.
Result<RunOutput> Collect(const Child& child, const std::string& command,
                          std::chrono::milliseconds timeout, std::size_t max_output_bytes) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto remaining_ms = [&] {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    return left.count() < 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 1 << 30));
  };
  auto timed_out = [&] {
    KillChild(child.pid, child.own_group);
    return Error{"exec: executable " + command + " did not exit within " + DurationText(timeout) +
                     "; it was killed",
                 ErrorCode::kDeadlineExceeded};
  };
  RunOutput result;
  char buf[16384];
  for (;;) {
    int wait_ms = remaining_ms();
    if (wait_ms == 0) {
      ::close(child.out);
      return timed_out();
    }
    pollfd p{child.out, POLLIN, 0};
    int n = ::poll(&p, 1, wait_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) continue;  // the deadline check above ends the loop
    ssize_t got = ::read(child.out, buf, sizeof buf);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) break;
    if (result.stdout_text.size() + static_cast<std::size_t>(got) > max_output_bytes) {
      ::close(child.out);
      KillChild(child.pid, child.own_group);
      return Error{"exec: executable " + command + " wrote more than " +
                   std::to_string(max_output_bytes) + " bytes to standard output; it was killed"};
    }
    result.stdout_text.append(buf, static_cast<std::size_t>(got));
  }
  ::close(child.out);
  // Standard output is closed; wait for the exit within the same deadline.
  for (;;) {
    pid_t w = ::waitpid(child.pid, &result.wait_status, WNOHANG);
    if (w == child.pid) break;
    if (w < 0 && errno != EINTR)
      return Error{"exec: wait: " + internal::ErrnoText(errno), ErrnoCode(errno)};
    if (remaining_ms() == 0) return timed_out();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!WIFEXITED(result.wait_status) || WEXITSTATUS(result.wait_status) != 0) {
    int code = WIFEXITED(result.wait_status) ? WEXITSTATUS(result.wait_status) : -1;
    return Error{"exec: executable " + command + " failed with exit code " + std::to_string(code),
                 ErrorCode::kUnavailable};
  }
  return result;
}

struct DecodedCredential {
  Credentials creds;
  std::optional<std::chrono::system_clock::time_point> expiry;
};

// The ExecCredential the plugin printed (JSON or YAML), checked as
// client-go's exec authenticator checks it.
Result<DecodedCredential> DecodeExecCredential(const std::string& text,
                                               const std::string& configured_version) {
  json::Value root;
  if (json::LooksLikeJson(text)) {
    Result<json::Value> parsed = json::ParseJson(text);
    if (!parsed.ok()) return parsed.failure().WithPrefix("decoding stdout: ");
    root = std::move(parsed).value();
  } else {
    Result<std::vector<json::YamlDocument>> docs = json::ParseYaml(text);
    if (!docs.ok()) return docs.failure().WithPrefix("decoding stdout: ");
    if (!docs->empty()) root = std::move((*docs)[0].root);
  }
  if (!root.is_object()) {
    return Error{"decoding stdout: Object 'Kind' is missing in '" + text + "'"};
  }
  auto string_field = [](const json::Value& obj, std::string_view key) -> std::string {
    const json::Value* v = obj.Find(key);
    return v != nullptr && v->is_string() ? v->text : std::string();
  };
  const std::string kind = string_field(root, "kind");
  const std::string api_version = string_field(root, "apiVersion");
  if (kind.empty()) return Error{"decoding stdout: Object 'Kind' is missing in '" + text + "'"};
  if (api_version.empty()) {
    return Error{"decoding stdout: Object 'apiVersion' is missing in '" + text + "'"};
  }
  const bool known_version =
      api_version == std::string(kGroup) + "/v1" || api_version == std::string(kGroup) + "/v1beta1";
  if (!known_version || kind != "ExecCredential") {
    return Error{"decoding stdout: no kind \"" + kind + "\" is registered for version \"" +
                 api_version + "\""};
  }
  if (api_version != configured_version) {
    return Error{"exec plugin is configured to use API version " + configured_version +
                 ", plugin returned version " + api_version};
  }
  const json::Value* status = root.Find("status");
  if (status == nullptr || status->is_null()) {
    return Error{"exec plugin didn't return a status field"};
  }
  if (!status->is_object()) return Error{"decoding stdout: status: expected an object"};
  Credentials creds;
  std::optional<std::chrono::system_clock::time_point> expiry;
  for (const auto& [key, out] :
       {std::pair<std::string_view, std::string*>{"token", &creds.bearer_token},
        {"clientCertificateData", &creds.cert_pem},
        {"clientKeyData", &creds.key_pem}}) {
    const json::Value* v = status->Find(key);
    if (v == nullptr || v->is_null()) continue;
    if (!v->is_string())
      return Error{"decoding stdout: status." + std::string(key) + ": expected a string"};
    *out = v->text;
  }
  if (const json::Value* ts = status->Find("expirationTimestamp");
      ts != nullptr && !ts->is_null()) {
    if (!ts->is_string())
      return Error{"decoding stdout: status.expirationTimestamp: expected a string"};
    Result<api::Time> t = api::codec::ParseRfc3339(ts->text);
    if (!t.ok()) return t.failure().WithPrefix("decoding stdout: status.expirationTimestamp: ");
    expiry = std::chrono::system_clock::time_point(std::chrono::seconds(t->seconds));
  }
  if (creds.bearer_token.empty() && creds.cert_pem.empty() && creds.key_pem.empty()) {
    return Error{"exec plugin didn't return a token or cert/key pair"};
  }
  if (creds.cert_pem.empty() != creds.key_pem.empty()) {
    return Error{"exec plugin returned only certificate or key, not both"};
  }
  return DecodedCredential{std::move(creds), expiry};
}

}  // namespace

ExecCredentialProvider::ExecCredentialProvider(ExecConfig config,
                                               std::optional<ExecClusterInfo> cluster,
                                               ExecPluginOptions options)
    : config_(std::move(config)),
      command_(internal::CleanPath(config_.command)),
      cluster_(std::move(cluster)),
      options_(std::move(options)) {}

Result<std::shared_ptr<ExecCredentialProvider>> ExecCredentialProvider::Create(
    ExecConfig config, std::optional<ExecClusterInfo> cluster, ExecPluginOptions options) {
  if (config.api_version != "client.authentication.k8s.io/v1" &&
      config.api_version != "client.authentication.k8s.io/v1beta1") {
    return Error{"exec plugin: invalid apiVersion \"" + config.api_version + "\""};
  }
  return std::make_shared<ExecCredentialProvider>(std::move(config), std::move(cluster),
                                                  std::move(options));
}

std::string ExecCredentialProvider::ExecInfo(bool interactive) const {
  std::string out = "{\"kind\":\"ExecCredential\",\"apiVersion\":";
  json::AppendGoJsonString(out, config_.api_version);
  out += ",\"spec\":{";
  if (config_.provide_cluster_info && cluster_) {
    const ExecClusterInfo& c = *cluster_;
    out += "\"cluster\":{\"server\":";
    json::AppendGoJsonString(out, c.server);
    if (!c.tls_server_name.empty()) {
      out += ",\"tls-server-name\":";
      json::AppendGoJsonString(out, c.tls_server_name);
    }
    if (c.insecure_skip_tls_verify) out += ",\"insecure-skip-tls-verify\":true";
    if (!c.certificate_authority_data.empty()) {
      out += ",\"certificate-authority-data\":\"" +
             internal::EncodeBase64(c.certificate_authority_data) + "\"";
    }
    if (!c.proxy_url.empty()) {
      out += ",\"proxy-url\":";
      json::AppendGoJsonString(out, c.proxy_url);
    }
    if (c.disable_compression) out += ",\"disable-compression\":true";
    out += ",\"config\":";
    if (c.config) {
      json::WriteJson(*c.config, out);
    } else {
      out += "null";
    }
    out += "},";
  }
  out += interactive ? "\"interactive\":true}}\n" : "\"interactive\":false}}\n";
  return out;
}

Result<Credentials> ExecCredentialProvider::Get() {
  MutexLock lock(mu_);
  if (cached_) {
    auto now = options_.now ? options_.now() : std::chrono::system_clock::now();
    if (!expiry_ || now <= *expiry_) return *cached_;
  }
  return RunLocked();
}

void ExecCredentialProvider::Invalidate(const Credentials& used) {
  MutexLock lock(mu_);
  if (cached_ && *cached_ == used) cached_.reset();
}

Result<Credentials> ExecCredentialProvider::RunLocked() {
  bool tty = options_.stdin_is_terminal ? *options_.stdin_is_terminal : ::isatty(0) == 1;
  Result<bool> interactive = Interactive(config_.interactive_mode, tty);
  if (!interactive.ok()) return interactive.failure();

  std::optional<std::string> resolved = LookPath(command_);
  if (!resolved) {
    std::string message = "exec: executable " + command_ + " not found";
    auto now = std::chrono::steady_clock::now();
    if (install_hints_shown_ == 0 || now - hint_window_ >= std::chrono::hours(1)) {
      hint_window_ = now;
      install_hints_shown_ = 0;
    }
    if (install_hints_shown_ < 10) {
      ++install_hints_shown_;
      message += kInstallHintHelp;
      if (!config_.install_hint.empty()) message += "\n\n" + config_.install_hint;
    }
    return Error{message};
  }

  std::vector<std::string> args{command_};
  args.insert(args.end(), config_.args.begin(), config_.args.end());
  Result<Child> child = Spawn(*resolved, std::move(args),
                              PluginEnvironment(config_, ExecInfo(*interactive)), *interactive);
  if (!child.ok()) return child.failure();
  Result<RunOutput> output = Collect(*child, command_, options_.timeout, options_.max_output_bytes);
  if (!output.ok()) return output.failure();
  Result<DecodedCredential> decoded =
      DecodeExecCredential(output->stdout_text, config_.api_version);
  if (!decoded.ok()) return decoded.failure();
  cached_ = decoded->creds;
  expiry_ = decoded->expiry;
  return decoded->creds;
}

}  // namespace dra::kube

// The driver SDK side by side with upstream's DRA e2e test driver
// (k8s.io/kubernetes v1.37.2 test/e2e/dra/test-driver, built by
// tests/cluster/build.sh) on the same real kube-apiserver, in one run
// (docs/PERFORMANCE.md, issue 13). For each driver, in alternating order
// between rounds:
//   1. start it as a child process (Kubernetes mode, --num-devices N) and
//      time process start -> all N devices visible in ResourceSlices through
//      the API; VmRSS once it is published and registered;
//   2. create --claims ResourceClaims, each allocated (status PUT as admin)
//      one distinct device of that driver;
//   3. play the kubelet (dra::driver::KubeletClient: GetInfo, registration,
//      one gRPC connection): one NodePrepareResources call per claim, all
//      issued at the same moment from their own threads, as the kubelet does
//      for that many pods; every call and claim must succeed. Latency per
//      call (p50, p99), VmRSS after the prepares; then the same for
//      NodeUnprepareResources;
//   4. delete the claims and the driver's slices, SIGTERM the driver.
// Medians over --repeat rounds, and ours/upstream ratios.
//
//   build/bench/driver_peer_bench --dra build/dra [--test-driver PATH] [--repeat 5]
//       [--claims 100] [--devices 1024] [--publish-timeout 60] [--qps 50 --burst 100]
//
// Both drivers get the same API client budget: --qps/--burst (default 50/100,
// the test driver's own defaults) are passed to both as --kube-api-qps and
// --kube-api-burst. --qps 0 passes neither: each driver's own default (ours
// 5/10, client-go's; the test driver 50/100).
// Exit status: 0 when every round of both drivers completed, 1 otherwise,
// 77 when the cluster binaries are missing.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dra/api/resource.h"
#include "dra/json/value.h"
#include "dra/kube/kubeconfig.h"
#include "dra/kube/resource_client.h"
#include "driver/kubelet_client.h"
#include "kube/test_cluster.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using dra::kube::KubectlErrorText;

const char* const kNode = "bench-node";
const char* const kNamespace = "bench";

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

double Median(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Nearest-rank percentile (p in 0..100).
double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

// A field of /proc/PID/status ("VmRSS", "RssAnon": kB -> MiB; "Threads":
// the count); NaN when unreadable.
double ProcStatus(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) {
      double v = std::atof(line.c_str() + field.size() + 1);
      return field == "Threads" ? v : v / 1024.0;
    }
  }
  return NAN;
}

double RssMiB(pid_t pid) { return ProcStatus(pid, "VmRSS"); }

// utime + stime of a process (all its threads) in seconds.
double CpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto close = text.rfind(')');
  if (close == std::string::npos) return NAN;
  std::istringstream fields(text.substr(close + 2));
  std::string f;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> f; ++i) {
    if (i == 14 || i == 15) ticks += std::atof(f.c_str());
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

std::string Tail(const std::string& path, int lines) {
  std::ifstream in(path);
  std::vector<std::string> all;
  std::string line;
  while (std::getline(in, line)) all.push_back(line);
  std::string out;
  for (std::size_t i = all.size() > static_cast<std::size_t>(lines) ? all.size() - lines : 0;
       i < all.size(); ++i) {
    out += "    | " + all[i] + "\n";
  }
  return out;
}

// The lines of a log that mention `needle` (at most `limit`, the first ones).
std::string Grep(const std::string& path, const std::string& needle, int limit) {
  std::ifstream in(path);
  std::string line, out;
  int n = 0;
  while (std::getline(in, line) && n < limit) {
    if (line.find(needle) != std::string::npos) {
      out += "    | " + (line.size() > 600 ? line.substr(0, 600) + " ..." : line) + "\n";
      ++n;
    }
  }
  return out;
}

// A driver process with stdout and stderr in `log`.
class Child {
 public:
  bool Start(const std::vector<std::string>& argv, const std::string& log, std::string* error) {
    log_ = log;
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      *error = "open " + log + ": " + std::strerror(errno);
      return false;
    }
    int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(devnull, 0);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    ::close(fd);
    ::close(devnull);
    if (pid_ < 0) {
      *error = std::string("fork: ") + std::strerror(errno);
      return false;
    }
    return true;
  }
  pid_t pid() const { return pid_; }
  const std::string& log() const { return log_; }
  // The exit status text when it has exited, else empty.
  std::string Exited() {
    if (pid_ <= 0) return "not running";
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                               : "killed by signal " + std::to_string(WTERMSIG(status));
    }
    return {};
  }
  // SIGTERM, then SIGKILL after `grace`; the exit status text.
  std::string Stop(std::chrono::seconds grace = std::chrono::seconds(15)) {
    if (pid_ <= 0) return "not running";
    ::kill(pid_, SIGTERM);
    auto deadline = Clock::now() + grace;
    int status = 0;
    while (Clock::now() < deadline) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                 : "signal " + std::to_string(WTERMSIG(status));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return "did not stop within " + std::to_string(grace.count()) + " s of SIGTERM; killed";
  }
  ~Child() {
    if (pid_ > 0) Stop(std::chrono::seconds(5));
  }

 private:
  pid_t pid_ = -1;
  std::string log_;
};

struct Bench;

struct DriverSpec {
  std::string label;        // "ours" / "upstream"
  std::string driver_name;  // spec.driver
  std::string device_prefix;
  int device_digits = 0;  // zero-padded width of the device index
  // The test driver creates only the parent of its socket directory
  // <--datadir>/<driver name> (server.go: MkdirAll(filepath.Dir(datadir)));
  // in a cluster the DaemonSet's hostPath mount provides it.
  bool precreate_datadir = false;
  // argv for one round, given its directory.
  std::vector<std::string> (*argv)(const Bench& bench, const std::string& dir);
  std::string registrar(const std::string& dir) const { return dir + "/registry"; }
  std::string Device(int i) const {
    std::string n = std::to_string(i);
    if (static_cast<int>(n.size()) < device_digits) n.insert(0, device_digits - n.size(), '0');
    return device_prefix + n;
  }
};

struct Bench {
  std::string dra = "build/dra";
  std::string test_driver;
  std::string kubeconfig;
  int repeat = 5;
  int claims = 100;
  int devices = 1024;
  int publish_timeout_s = 60;
  double qps = 50;
  int burst = 100;
  std::shared_ptr<dra::kube::Client> client;
  std::optional<dra::kube::TypedClient> typed;
};

// The first three fields of /proc/loadavg: how busy the machine was.
std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

std::string Num(double x) {
  std::ostringstream o;
  o << x;
  return o.str();
}

// The API client flags: --qps/--burst for both, or none (each driver's own
// default: ours 5/10 as client-go's, the test driver 50/100) with --qps 0.
void AddClientFlags(const Bench& b, std::vector<std::string>& argv) {
  if (b.qps == 0) return;
  argv.insert(argv.end(),
              {"--kube-api-qps", Num(b.qps), "--kube-api-burst", std::to_string(b.burst)});
}

std::vector<std::string> OursArgv(const Bench& b, const std::string& dir) {
  std::vector<std::string> argv = {b.dra,
                                   "driver",
                                   "example",
                                   "--kubeconfig",
                                   b.kubeconfig,
                                   "--node-name",
                                   kNode,
                                   "--num-devices",
                                   std::to_string(b.devices),
                                   "--cdi-root",
                                   dir + "/cdi",
                                   "--kubelet-registrar-directory-path",
                                   dir + "/registry",
                                   "--kubelet-plugins-directory-path",
                                   dir + "/plugins"};
  AddClientFlags(b, argv);
  return argv;
}

std::vector<std::string> UpstreamArgv(const Bench& b, const std::string& dir) {
  // Global flags first, then the subcommand's.
  std::vector<std::string> argv = {b.test_driver, "--kubeconfig", b.kubeconfig};
  AddClientFlags(b, argv);
  argv.insert(argv.end(),
              {"kubelet-plugin", "--node-name", kNode, "--num-devices", std::to_string(b.devices),
               "--plugin-registration-path", dir + "/registry", "--datadir", dir + "/plugins",
               "--cdi-dir", dir + "/cdi"});
  return argv;
}

struct RoundResult {
  bool ok = false;         // prepared and unprepared everything
  bool published = false;  // all devices became visible
  double publish_s = NAN;  // process start -> all devices visible
  int devices_seen = 0;
  double rss_start = NAN;  // MiB, published and registered
  double rss_prepared = NAN;
  double rss_unprepared = NAN;
  double anon_prepared = NAN, file_prepared = NAN, threads_prepared = NAN;  // RssAnon, RssFile
  double prepare_p50 = NAN, prepare_p99 = NAN, prepare_max = NAN, prepare_wall = NAN;
  double unprepare_p50 = NAN, unprepare_p99 = NAN, unprepare_max = NAN, unprepare_wall = NAN;
  double prepare_cpu = NAN;  // driver CPU seconds during the prepare batch
  std::string note;
};

// Devices of `driver` on kNode visible through the API; -1 on error.
int VisibleDevices(Bench& b, const std::string& driver) {
  dra::kube::ListOptions o;
  o.field_selector = "spec.driver=" + driver;
  auto slices = b.typed->List<dra::api::ResourceSlice>("", o);
  if (!slices.ok()) return -1;
  int n = 0;
  for (const auto& s : *slices) {
    if (s.spec.node_name == kNode) n += static_cast<int>(s.spec.devices.size());
  }
  return n;
}

bool DeleteSlices(Bench& b, const std::string& driver, std::string* error) {
  dra::kube::ListOptions o;
  o.field_selector = "spec.driver=" + driver;
  auto slices = b.typed->List<dra::api::ResourceSlice>("", o);
  if (!slices.ok()) {
    *error = KubectlErrorText(slices.error());
    return false;
  }
  for (const auto& s : *slices) {
    auto d = b.typed->Delete<dra::api::ResourceSlice>("", s.metadata.name);
    if (!d.ok() && d.error().code != 404) {
      *error = "delete slice " + s.metadata.name + ": " + KubectlErrorText(d.error());
      return false;
    }
  }
  return true;
}

struct Claim {
  std::string name, uid, device;
};

std::string Quote(const std::string& s) {
  std::string out;
  dra::json::AppendGoJsonString(out, s);
  return out;
}

// Creates the claims and allocates device i of `spec` to claim i.
bool CreateClaims(Bench& b, const DriverSpec& spec, std::vector<Claim>* claims,
                  std::string* error) {
  auto type = dra::kube::ResourceClaims(b.typed->version());
  std::string api_version = type.GroupVersion();
  for (int i = 0; i < b.claims; ++i) {
    Claim c;
    c.name = "claim-" + std::to_string(i);
    c.device = spec.Device(i);
    std::string spec_json =
        R"({"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"bench.example.com"}}]}})";
    std::string body = R"({"apiVersion":)" + Quote(api_version) +
                       R"(,"kind":"ResourceClaim","metadata":{"name":)" + Quote(c.name) +
                       R"(,"namespace":)" + Quote(kNamespace) + R"(},"spec":)" + spec_json + "}";
    auto tree = dra::json::ParseJson(body);
    if (!tree.ok()) {
      *error = "claim JSON: " + tree.error();
      return false;
    }
    auto created = b.typed->objects().Create(type, kNamespace, *tree);
    if (!created.ok()) {
      *error = "create claim " + c.name + ": " + KubectlErrorText(created.error());
      return false;
    }
    const dra::json::Value* meta = created->Find("metadata");
    c.uid = meta->Find("uid")->text;
    std::string rv = meta->Find("resourceVersion")->text;
    std::string status =
        R"({"apiVersion":)" + Quote(api_version) +
        R"(,"kind":"ResourceClaim","metadata":{"name":)" + Quote(c.name) + R"(,"namespace":)" +
        Quote(kNamespace) + R"(,"uid":)" + Quote(c.uid) + R"(,"resourceVersion":)" + Quote(rv) +
        R"(},"spec":)" + spec_json +
        R"(,"status":{"allocation":{"devices":{"results":[{"request":"gpu","driver":)" +
        Quote(spec.driver_name) + R"(,"pool":)" + Quote(kNode) + R"(,"device":)" + Quote(c.device) +
        R"(}]},"nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":[)" +
        Quote(kNode) + "]}]}]}}}}";
    auto status_tree = dra::json::ParseJson(status);
    if (!status_tree.ok()) {
      *error = "status JSON: " + status_tree.error();
      return false;
    }
    auto updated = b.typed->objects().Update(type, kNamespace, *status_tree, {}, "status");
    if (!updated.ok()) {
      *error = "allocate claim " + c.name + ": " + KubectlErrorText(updated.error());
      return false;
    }
    claims->push_back(std::move(c));
  }
  return true;
}

bool DeleteClaims(Bench& b, const std::vector<Claim>& claims, std::string* error) {
  auto type = dra::kube::ResourceClaims(b.typed->version());
  for (const auto& c : claims) {
    auto d = b.typed->objects().Delete(type, kNamespace, c.name);
    if (!d.ok() && d.error().code != 404) {
      *error = "delete claim " + c.name + ": " + KubectlErrorText(d.error());
      return false;
    }
  }
  return true;
}

// Runs `call(i)` for i in [0, n) on n threads released at the same moment;
// latencies in ms, and the wall time of the whole batch in *wall_ms.
template <class Call>
std::vector<double> Concurrently(int n, Call call, double* wall_ms) {
  std::vector<double> latency(n, NAN);
  std::mutex mu;
  std::condition_variable cv;
  int ready = 0;
  bool go = false;
  std::vector<std::thread> threads;
  threads.reserve(n);
  Clock::time_point start;
  std::vector<Clock::time_point> ends(n);
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      {
        std::unique_lock lock(mu);
        ++ready;
        cv.notify_all();
        cv.wait(lock, [&] { return go; });
      }
      auto t0 = Clock::now();
      call(i);
      ends[i] = Clock::now();
      latency[i] = std::chrono::duration<double, std::milli>(ends[i] - t0).count();
    });
  }
  {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return ready == n; });
    start = Clock::now();
    go = true;
  }
  cv.notify_all();
  for (auto& t : threads) t.join();
  *wall_ms =
      std::chrono::duration<double, std::milli>(*std::max_element(ends.begin(), ends.end()) - start)
          .count();
  return latency;
}

RoundResult RunDriver(Bench& b, const DriverSpec& spec, const std::string& dir) {
  RoundResult r;
  std::string error;
  fs::create_directories(dir + "/registry");
  fs::create_directories(dir + "/plugins");
  if (spec.precreate_datadir) fs::create_directories(dir + "/plugins/" + spec.driver_name);
  fs::create_directories(dir + "/cdi");
  if (!DeleteSlices(b, spec.driver_name, &error) || VisibleDevices(b, spec.driver_name) != 0) {
    r.note = "could not clear old slices: " + error;
    return r;
  }

  Child child;
  auto argv = spec.argv(b, dir);
  auto t0 = Clock::now();
  if (!child.Start(argv, dir + "/driver.log", &error)) {
    r.note = error;
    return r;
  }
  auto fail = [&](const std::string& what) {
    r.note = what;
    std::string how = child.Stop();
    std::cerr << "  " << spec.label << ": " << what << " (driver " << how << "); log "
              << child.log() << ":\n"
              << Tail(child.log(), 15);
    return r;
  };
  auto exited = [&](const std::string& phase) -> std::optional<RoundResult> {
    if (std::string e = child.Exited(); !e.empty()) {
      r.note = "driver " + e + " " + phase;
      std::cerr << "  " << spec.label << ": " << r.note << "; log " << child.log() << ":\n"
                << Tail(child.log(), 15);
      return r;
    }
    return std::nullopt;
  };

  // (3) Process start -> every device visible through the API.
  auto deadline = t0 + std::chrono::seconds(b.publish_timeout_s);
  while (true) {
    int n = VisibleDevices(b, spec.driver_name);
    if (n >= b.devices) {
      r.publish_s = Seconds(Clock::now() - t0);
      r.devices_seen = n;
      r.published = true;
      break;
    }
    r.devices_seen = std::max(r.devices_seen, n);
    if (auto e = exited("while publishing")) return *e;
    if (Clock::now() > deadline) {
      std::cerr << "  " << spec.label << ": NOT PUBLISHED: " << r.devices_seen << " of "
                << b.devices << " devices visible after " << b.publish_timeout_s
                << " s; the driver's log about it:\n"
                << Grep(child.log(), "esourceSlice", 3) << Grep(child.log(), "publish", 3);
      r.note = "not published (" + std::to_string(r.devices_seen) + " of " +
               std::to_string(b.devices) + " devices visible after " +
               std::to_string(b.publish_timeout_s) + " s)";
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }

  // The kubelet's registration.
  std::string socket;
  auto reg_deadline = Clock::now() + std::chrono::seconds(30);
  while (true) {
    dra::driver::KubeletClientOptions quick;
    quick.dial_timeout = std::chrono::milliseconds(200);
    auto found = dra::driver::FindRegistrationSocket(spec.registrar(dir), spec.driver_name, quick);
    if (found.ok()) {
      socket = *found;
      break;
    }
    if (auto e = exited("before registering")) return *e;
    if (Clock::now() > reg_deadline) return fail("no registration socket: " + found.error());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  dra::driver::KubeletClient kubelet(socket);
  if (auto s = kubelet.Register(); !s.ok()) return fail("registration: " + s.error());
  r.rss_start = RssMiB(child.pid());

  std::vector<Claim> claims;
  if (!CreateClaims(b, spec, &claims, &error)) {
    DeleteClaims(b, claims, &error);
    return fail(error);
  }

  // (1) Prepare: one call per claim, all at once.
  std::vector<std::string> errors(claims.size());
  double cpu0 = CpuSeconds(child.pid());
  auto lat = Concurrently(
      static_cast<int>(claims.size()),
      [&](int i) {
        const Claim& c = claims[i];
        auto res = kubelet.NodePrepareResources({{kNamespace, c.name, c.uid}});
        if (!res.ok()) {
          errors[i] = res.error();
          return;
        }
        auto it = res->find(c.uid);
        if (it == res->end()) {
          errors[i] = "no answer for the claim";
        } else if (!it->second.error.empty()) {
          errors[i] = "claim error: " + it->second.error;
        } else if (it->second.devices.size() != 1 || it->second.devices[0].device != c.device ||
                   it->second.devices[0].pool != kNode ||
                   it->second.devices[0].cdi_device_ids.empty()) {
          errors[i] = "unexpected devices in the answer (" +
                      std::to_string(it->second.devices.size()) + ", first " +
                      (it->second.devices.empty()
                           ? std::string("-")
                           : it->second.devices[0].pool + "/" + it->second.devices[0].device) +
                      ")";
        }
      },
      &r.prepare_wall);
  r.prepare_cpu = CpuSeconds(child.pid()) - cpu0;
  r.rss_prepared = RssMiB(child.pid());
  r.anon_prepared = ProcStatus(child.pid(), "RssAnon");
  r.file_prepared = ProcStatus(child.pid(), "RssFile");
  r.threads_prepared = ProcStatus(child.pid(), "Threads");
  r.prepare_p50 = Percentile(lat, 50);
  r.prepare_p99 = Percentile(lat, 99);
  r.prepare_max = Percentile(lat, 100);
  int failed = 0;
  for (std::size_t i = 0; i < errors.size(); ++i) {
    if (errors[i].empty()) continue;
    if (failed++ < 5) {
      std::cerr << "  " << spec.label << ": NodePrepareResources " << kNamespace << "/"
                << claims[i].name << ": " << errors[i] << "\n";
    }
  }

  // Unprepare, all at once.
  std::vector<std::string> unerrors(claims.size());
  auto unlat = Concurrently(
      static_cast<int>(claims.size()),
      [&](int i) {
        const Claim& c = claims[i];
        auto res = kubelet.NodeUnprepareResources({{kNamespace, c.name, c.uid}});
        if (!res.ok()) {
          unerrors[i] = res.error();
          return;
        }
        auto it = res->find(c.uid);
        if (it == res->end()) {
          unerrors[i] = "no answer for the claim";
        } else if (!it->second.empty()) {
          unerrors[i] = "claim error: " + it->second;
        }
      },
      &r.unprepare_wall);
  r.rss_unprepared = RssMiB(child.pid());
  r.unprepare_p50 = Percentile(unlat, 50);
  r.unprepare_p99 = Percentile(unlat, 99);
  r.unprepare_max = Percentile(unlat, 100);
  int unfailed = 0;
  for (std::size_t i = 0; i < unerrors.size(); ++i) {
    if (unerrors[i].empty()) continue;
    if (unfailed++ < 5) {
      std::cerr << "  " << spec.label << ": NodeUnprepareResources " << kNamespace << "/"
                << claims[i].name << ": " << unerrors[i] << "\n";
    }
  }
  std::size_t cdi_left = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir + "/cdi")) ++cdi_left;

  if (!DeleteClaims(b, claims, &error)) std::cerr << "  " << error << "\n";
  if (auto e = exited("during the prepares")) return *e;
  std::string how = child.Stop();
  if (how != "exit 0") std::cerr << "  " << spec.label << ": stopped with " << how << "\n";
  if (!DeleteSlices(b, spec.driver_name, &error)) std::cerr << "  " << error << "\n";

  if (failed > 0 || unfailed > 0) {
    r.note += (r.note.empty() ? "" : "; ") + std::to_string(failed) + " prepare and " +
              std::to_string(unfailed) + " unprepare calls failed";
  } else {
    r.ok = true;
  }
  if (cdi_left > 0) {
    r.note += (r.note.empty() ? "" : "; ") + std::to_string(cdi_left) +
              " files left in the CDI directory after unprepare";
  }
  return r;
}

std::string Fmt(double x, const char* format) {
  if (std::isnan(x)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

void PrintRows(const std::vector<std::pair<std::string, const RoundResult*>>& rows) {
  std::printf(
      "| driver | start -> devices published (s) | RSS started (MiB) | prepare p50 / p99 / max "
      "(ms) | prepare batch (ms) | driver CPU for prepares (s) | RSS after prepares (MiB) | "
      "unprepare p50 / p99 / max (ms) | unprepare batch (ms) | RSS after unprepares (MiB) | "
      "after prepares: RssAnon / RssFile (MiB), threads |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& [label, r] : rows) {
    std::printf(
        "| %s | %s | %s | %s / %s / %s | %s | %s | %s | %s / %s / %s | %s | %s | %s / %s, %s |\n",
        label.c_str(), Fmt(r->publish_s, "%.3f").c_str(), Fmt(r->rss_start, "%.1f").c_str(),
        Fmt(r->prepare_p50, "%.1f").c_str(), Fmt(r->prepare_p99, "%.1f").c_str(),
        Fmt(r->prepare_max, "%.1f").c_str(), Fmt(r->prepare_wall, "%.1f").c_str(),
        Fmt(r->prepare_cpu, "%.2f").c_str(), Fmt(r->rss_prepared, "%.1f").c_str(),
        Fmt(r->unprepare_p50, "%.1f").c_str(), Fmt(r->unprepare_p99, "%.1f").c_str(),
        Fmt(r->unprepare_max, "%.1f").c_str(), Fmt(r->unprepare_wall, "%.1f").c_str(),
        Fmt(r->rss_unprepared, "%.1f").c_str(), Fmt(r->anon_prepared, "%.1f").c_str(),
        Fmt(r->file_prepared, "%.1f").c_str(), Fmt(r->threads_prepared, "%.0f").c_str());
  }
}

std::string DefaultTestDriver() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  std::string cache = xdg != nullptr && *xdg != '\0'
                          ? std::string(xdg)
                          : std::string(home != nullptr ? home : "") + "/.cache";
  std::string bin = cache + "/dra-interop/cluster-bin/";
  // `go build -o DIR/ .../test-driver` names the binary after the package
  // directory; accept that name when dra-test-driver is not there.
  if (::access((bin + "dra-test-driver").c_str(), X_OK) != 0 &&
      ::access((bin + "test-driver").c_str(), X_OK) == 0) {
    return bin + "test-driver";
  }
  return bin + "dra-test-driver";
}

}  // namespace

int main(int argc, char** argv) {
  Bench b;
  b.test_driver = DefaultTestDriver();
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc) {
      std::cerr << "flag " << flag << " needs a value\n";
      return 2;
    }
    std::string value = argv[++i];
    if (flag == "--dra") {
      b.dra = value;
    } else if (flag == "--test-driver") {
      b.test_driver = value;
    } else if (flag == "--repeat") {
      b.repeat = std::atoi(value.c_str());
    } else if (flag == "--claims") {
      b.claims = std::atoi(value.c_str());
    } else if (flag == "--devices") {
      b.devices = std::atoi(value.c_str());
    } else if (flag == "--publish-timeout") {
      b.publish_timeout_s = std::atoi(value.c_str());
    } else if (flag == "--qps") {
      b.qps = std::atof(value.c_str());
    } else if (flag == "--burst") {
      b.burst = std::atoi(value.c_str());
    } else {
      std::cerr << "unknown flag " << flag << "\n";
      return 2;
    }
  }
  if (b.claims < 1 || b.claims > b.devices || b.repeat < 1) {
    std::cerr << "need 1 <= --claims <= --devices and --repeat >= 1\n";
    return 2;
  }
  b.dra = fs::absolute(b.dra).string();
  for (const std::string& p : {b.dra, b.test_driver}) {
    if (::access(p.c_str(), X_OK) != 0) {
      std::cerr << "driver_peer_bench: " << p << " is not an executable (--dra, --test-driver; "
                << "tests/cluster/build.sh builds the test driver)\n";
      return 77;
    }
  }
  using dra::testing_cluster::TestCluster;
  if (std::string why = TestCluster::SkipReason(); !why.empty()) {
    std::cerr << "driver_peer_bench: " << why << "\n";
    return 77;
  }
  std::string error;
  auto cluster = TestCluster::Start({}, &error);
  if (!cluster) {
    std::cerr << "driver_peer_bench: " << error << "\n";
    return 1;
  }
  b.kubeconfig = cluster->admin_kubeconfig();
  dra::kube::ConfigFlags flags;
  flags.kubeconfig = b.kubeconfig;
  auto config = dra::kube::LoadRestConfig(flags, dra::kube::Environment::FromProcess());
  if (!config.ok()) {
    std::cerr << config.error() << "\n";
    return 1;
  }
  config->qps = -1;
  auto client = dra::kube::Client::New(*config);
  if (!client.ok()) {
    std::cerr << client.error() << "\n";
    return 1;
  }
  b.client = *client;
  auto typed = dra::kube::TypedClient::New(b.client);
  if (!typed.ok()) {
    std::cerr << KubectlErrorText(typed.error()) << "\n";
    return 1;
  }
  b.typed.emplace(*typed);

  // The Node both drivers look up, and the claims' namespace.
  for (auto [type, body] :
       {std::pair{dra::kube::Nodes(),
                  std::string(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")") + kNode +
                      R"("}})"},
        std::pair{dra::kube::Namespaces(),
                  std::string(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")") +
                      kNamespace + R"("}})"}}) {
    auto created = b.typed->objects().Create(type, "", *dra::json::ParseJson(body));
    if (!created.ok()) {
      std::cerr << "create " << type.kind << ": " << KubectlErrorText(created.error()) << "\n";
      return 1;
    }
  }

  const DriverSpec ours{"ours", "gpu.example.com", "gpu-", 0, false, OursArgv};
  const DriverSpec upstream{"upstream", "test-driver.cdi.k8s.io", "device-", 2, true, UpstreamArgv};

  char tmpl[] = "/tmp/driver-peer-bench-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) {
    std::perror("mkdtemp");
    return 1;
  }
  std::string root = tmpl;
  std::printf("kube-apiserver v1.37.2 at %s; %d claims, %d devices, drivers' API client %s\n",
              cluster->server().c_str(), b.claims, b.devices,
              b.qps == 0 ? "at each one's default (ours qps 5 burst 10, upstream qps 50 burst 100)"
                         : ("qps " + Num(b.qps) + " burst " + std::to_string(b.burst)).c_str());
  std::printf("ours:     %s\nupstream: %s\n", b.dra.c_str(), b.test_driver.c_str());
  std::fflush(stdout);

  std::vector<RoundResult> ours_r, up_r;
  bool all_ok = true;
  for (int round = 0; round < b.repeat; ++round) {
    std::vector<const DriverSpec*> order = {&ours, &upstream};
    if (round % 2 == 1) std::swap(order[0], order[1]);
    RoundResult results[2];
    for (int k = 0; k < 2; ++k) {
      const DriverSpec& spec = *order[k];
      std::string dir = root + "/r" + std::to_string(round + 1) + "-" + spec.label;
      results[k] = RunDriver(b, spec, dir);
      (spec.label == "ours" ? ours_r : up_r).push_back(results[k]);
      if (!results[k].ok || !results[k].published) all_ok = false;
    }
    std::printf("\nround %d of %d (%s first; load average after it %s)\n\n", round + 1, b.repeat,
                order[0]->label.c_str(), LoadAverage().c_str());
    PrintRows({{order[0]->label, &results[0]}, {order[1]->label, &results[1]}});
    for (int k = 0; k < 2; ++k) {
      if (!results[k].note.empty()) {
        std::printf("\n%s: %s\n", order[k]->label.c_str(), results[k].note.c_str());
      }
    }
    std::fflush(stdout);
  }

  auto med = [](const std::vector<RoundResult>& v, double RoundResult::*field) {
    std::vector<double> x;
    for (const auto& r : v) x.push_back(r.*field);
    return Median(x);
  };
  RoundResult mo, mu, ratio;
  for (double RoundResult::*f :
       {&RoundResult::publish_s, &RoundResult::rss_start, &RoundResult::rss_prepared,
        &RoundResult::rss_unprepared, &RoundResult::prepare_p50, &RoundResult::prepare_p99,
        &RoundResult::prepare_max, &RoundResult::prepare_wall, &RoundResult::prepare_cpu,
        &RoundResult::unprepare_p50, &RoundResult::unprepare_p99, &RoundResult::unprepare_max,
        &RoundResult::unprepare_wall, &RoundResult::anon_prepared, &RoundResult::file_prepared,
        &RoundResult::threads_prepared}) {
    mo.*f = med(ours_r, f);
    mu.*f = med(up_r, f);
    ratio.*f = mo.*f / mu.*f;
  }
  std::printf("\nmedians of %d rounds\n\n", b.repeat);
  PrintRows({{"ours (dra driver example)", &mo}, {"upstream (test-driver)", &mu}});
  std::printf(
      "| ratio ours / upstream | %s | %s | %s / %s / %s | %s | %s | %s | %s / %s / %s | %s | %s | "
      "%s / %s, %s |\n",
      Fmt(ratio.publish_s, "%.2f").c_str(), Fmt(ratio.rss_start, "%.2f").c_str(),
      Fmt(ratio.prepare_p50, "%.2f").c_str(), Fmt(ratio.prepare_p99, "%.2f").c_str(),
      Fmt(ratio.prepare_max, "%.2f").c_str(), Fmt(ratio.prepare_wall, "%.2f").c_str(),
      Fmt(ratio.prepare_cpu, "%.2f").c_str(), Fmt(ratio.rss_prepared, "%.2f").c_str(),
      Fmt(ratio.unprepare_p50, "%.2f").c_str(), Fmt(ratio.unprepare_p99, "%.2f").c_str(),
      Fmt(ratio.unprepare_max, "%.2f").c_str(), Fmt(ratio.unprepare_wall, "%.2f").c_str(),
      Fmt(ratio.rss_unprepared, "%.2f").c_str(), Fmt(ratio.anon_prepared, "%.2f").c_str(),
      Fmt(ratio.file_prepared, "%.2f").c_str(), Fmt(ratio.threads_prepared, "%.2f").c_str());
  auto goal = [](double ratio) {
    return std::isnan(ratio) ? "not measured" : ratio <= 0.5 ? "met" : "NOT met";
  };
  std::printf(
      "\nissue 13 goal (ours at most half of upstream): prepare p50 %s, prepare p99 %s, "
      "RSS after prepares %s, RSS started %s\n",
      goal(ratio.prepare_p50), goal(ratio.prepare_p99), goal(ratio.rss_prepared),
      goal(ratio.rss_start));
  if (all_ok) {
    fs::remove_all(root);
  } else {
    std::printf("\nsome rounds failed; driver logs kept in %s\n", root.c_str());
  }
  return all_ok ? 0 : 1;
}

// dra serve on a large cluster in a real kube-apiserver v1.37.2
// (docs/PERFORMANCE.md): N nodes x D devices, C claims (most allocated, most
// of those reserved by bound pods), and a few pods no device can serve.
// Measured on the real program (`dra serve --kubeconfig`), medians of
// --repeat runs:
//   1. initial sync: process start until /api/summary shows every device,
//      beside `kubectl get` of the same kinds (the cost of reading them);
//   2. a scrape of /metrics, and the page's reads (/api/summary, a node's
//      devices);
//   3. a change (one more claim allocated through the API) until the state
//      served shows it;
//   4. memory: the process's resident set per device after the changes (and
//      its anonymous and file-backed parts), and its peak.
// Needs the cluster binaries (tests/cluster/build.sh) in DRA_CLUSTER_BIN or
// the default cache.
//
//   build/bench/serve_live_bench --dra build/dra [--nodes 5000] [--devices 8]
//                                [--claims 20000] [--repeat 5] [--hold]
// --hold populates the cluster, prints its kubeconfig and keeps it up until
// standard input ends, for looking at dra serve by hand.
#include <arpa/inet.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "dra/api/core.h"
#include "dra/api/resource.h"
#include "dra/kube/kubeconfig.h"
#include "dra/kube/resource_client.h"
#include "kube/test_cluster.h"

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// `v` with `digits` decimals.
std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// One GET on loopback, with an Accept-Encoding header unless `accept` is
// empty; the body as sent (coded or not), or "" on any failure.
std::string HttpGet(int port, const std::string& path, const std::string& accept = "") {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return {};
  }
  std::string request = "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n";
  if (!accept.empty()) request += "Accept-Encoding: " + accept + "\r\n";
  request += "\r\n";
  (void)!write(fd, request.data(), request.size());
  std::string out;
  char buf[65536];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fd);
  if (out.rfind("HTTP/1.1 200", 0) != 0) return {};
  auto body = out.find("\r\n\r\n");
  return body == std::string::npos ? std::string() : out.substr(body + 4);
}

double JsonDouble(const std::string& text, const std::string& key) {
  auto at = text.find("\"" + key + "\":");
  if (at == std::string::npos) return -1;
  return std::strtod(text.c_str() + at + key.size() + 3, nullptr);
}

// An open event stream (GET /api/events); -1 when it could not connect.
int OpenEvents(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  std::string request = "GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n";
  (void)!write(fd, request.data(), request.size());
  return fd;
}

// Reads the stream until `count` more "event: state" lines have arrived
// (what the page waits for before it fetches the state); false on EOF.
bool NextStates(int fd, std::string& pending, int count) {
  char buf[4096];
  while (count > 0) {
    std::size_t at = pending.find("event: state");
    if (at != std::string::npos) {
      pending.erase(0, at + 12);
      --count;
      continue;
    }
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) return false;
    pending.append(buf, static_cast<size_t>(n));
  }
  return true;
}

// The number after "key": in a JSON text (first occurrence), or -1.
long JsonNumber(const std::string& text, const std::string& key) {
  auto at = text.find("\"" + key + "\":");
  if (at == std::string::npos) return -1;
  return std::atol(text.c_str() + at + key.size() + 3);
}

struct Served {
  pid_t pid = -1;
  int port = 0;
};

// Starts dra serve on `port`; waits for nothing.
Served StartServe(const std::string& dra, const std::string& kubeconfig, int port) {
  Served s;
  s.port = port;
  s.pid = fork();
  if (s.pid == 0) {
    std::string listen = "127.0.0.1:" + std::to_string(port);
    std::freopen("/dev/null", "w", stderr);
    execl(dra.c_str(), dra.c_str(), "serve", "--kubeconfig", kubeconfig.c_str(), "--listen",
          listen.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return s;
}

void StopServe(const Served& s) {
  kill(s.pid, SIGTERM);
  int status = 0;
  waitpid(s.pid, &status, 0);
}

// A field of /proc/PID/status (VmRSS, VmHWM, RssAnon, RssFile), in bytes.
long ProcessMemory(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind(field + ":", 0) == 0) return std::atol(line.c_str() + field.size() + 1) * 1024;
  }
  return -1;
}

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

std::string NodeName(int i) { return "node-" + std::to_string(i); }

dra::api::ResourceSlice NodeSlice(int node, int devices) {
  dra::api::ResourceSlice s;
  s.metadata.name = NodeName(node) + "-gpu.example.com";
  s.spec.driver = "gpu.example.com";
  s.spec.node_name = NodeName(node);
  s.spec.pool.name = NodeName(node);
  s.spec.pool.generation = 1;
  s.spec.pool.resource_slice_count = 1;
  for (int d = 0; d < devices; ++d) {
    dra::api::Device dev;
    dev.name = "gpu-" + std::to_string(d);
    dev.attributes["gpu.example.com/model"].string_value = "H100";
    dev.attributes["gpu.example.com/uuid"].string_value =
        "GPU-" + std::to_string(node) + "-" + std::to_string(d) + "-8c1e6b0a";
    dev.attributes["gpu.example.com/index"].int_value = d;
    dev.capacity["gpu.example.com/memory"].value = dra::api::Quantity::MustParse("80Gi");
    s.spec.devices.push_back(dev);
  }
  return s;
}

dra::api::DeviceClass Class(const std::string& name, const std::string& expression) {
  dra::api::DeviceClass c;
  c.metadata.name = name;
  dra::api::DeviceSelector sel;
  sel.cel = dra::api::CELDeviceSelector{expression};
  c.spec.selectors.push_back(sel);
  return c;
}

dra::api::ResourceClaim Claim(int i, const std::string& device_class) {
  dra::api::ResourceClaim c;
  c.metadata.name = "claim-" + std::to_string(i);
  c.metadata.namespace_ = "default";
  dra::api::DeviceRequest r;
  r.name = "gpu";
  r.exactly.emplace();
  r.exactly->device_class_name = device_class;
  c.spec.devices.requests.push_back(r);
  return c;
}

// Allocates device `device` of `node` to the claim (as the scheduler
// writes it), reserved for `pod` when not empty.
void Allocate(dra::api::ResourceClaim& c, int node, int device, const std::string& pod) {
  dra::api::AllocationResult a;
  dra::api::DeviceRequestAllocationResult r;
  r.request = "gpu";
  r.driver = "gpu.example.com";
  r.pool = NodeName(node);
  r.device = "gpu-" + std::to_string(device);
  a.devices.results.push_back(r);
  c.status.allocation = a;
  if (!pod.empty()) {
    dra::api::ResourceClaimConsumerReference ref;
    ref.resource = "pods";
    ref.name = pod;
    ref.uid = "uid-" + pod;
    c.status.reserved_for.push_back(ref);
  }
}

// Runs `work(i)` for i in [0, n) on 8 threads; false when any failed.
bool Parallel(int n, const std::function<bool(int)>& work) {
  std::atomic<int> next{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = next++; i < n; i = next++) {
        if (!work(i)) ++failed;
      }
    });
  }
  for (auto& t : threads) t.join();
  return failed == 0;
}

}  // namespace

int main(int argc, char** argv) {
  int nodes = 5000, devices = 8, claims = 20000, repeat = 5;
  std::string dra_program = "build/dra";
  bool hold = false;
  for (int i = 1; i < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--hold") {
      hold = true;
      --i;
      continue;
    }
    if (i + 1 >= argc) {
      std::cerr << "flag " << flag << " needs a value\n";
      return 2;
    }
    if (flag == "--nodes") {
      nodes = std::atoi(argv[i + 1]);
    } else if (flag == "--devices") {
      devices = std::atoi(argv[i + 1]);
    } else if (flag == "--claims") {
      claims = std::atoi(argv[i + 1]);
    } else if (flag == "--repeat") {
      repeat = std::atoi(argv[i + 1]);
    } else if (flag == "--dra") {
      dra_program = argv[i + 1];
    } else {
      std::cerr << "unknown flag " << flag << "\n";
      return 2;
    }
  }
  const int total_devices = nodes * devices;
  // 80% of the claims allocated (at most half the devices), three quarters
  // of those reserved by a bound pod; 20 pods wait for a class nothing has.
  const int allocated = std::min(claims * 4 / 5, total_devices / 2);
  const int reserved = allocated * 3 / 4;
  const int waiting = 20;
  using dra::testing_cluster::TestCluster;
  if (std::string why = TestCluster::SkipReason(); !why.empty()) {
    std::cerr << "serve_live_bench: " << why << "\n";
    return 77;
  }
  std::string error;
  auto cluster = TestCluster::Start({}, &error);
  if (!cluster) {
    std::cerr << "serve_live_bench: " << error << "\n";
    return 1;
  }
  dra::kube::ConfigFlags flags;
  flags.kubeconfig = cluster->admin_kubeconfig();
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
  auto typed = dra::kube::TypedClient::New(*client);
  if (!typed.ok()) return 1;

  // The program's own size: dra serve on the empty cluster, settled.
  double empty_rss = 0;
  {
    const int port = FreePort();
    Served served = StartServe(dra_program, cluster->admin_kubeconfig(), port);
    auto s = Clock::now();
    while (Seconds(Clock::now() - s) < 60 &&
           HttpGet(port, "/api/summary").find("\"synced\":true") == std::string::npos) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::this_thread::sleep_for(std::chrono::seconds(6));
    empty_rss = static_cast<double>(ProcessMemory(served.pid, "VmRSS"));
    StopServe(served);
  }

  auto t0 = Clock::now();
  bool ok =
      typed->Create(Class("gpu.example.com", "device.driver == \"gpu.example.com\"")).ok() &&
      typed->Create(Class("b200", "device.attributes[\"gpu.example.com\"].model == \"B200\"")).ok();
  ok = ok && Parallel(nodes, [&](int i) {
         dra::api::Node n;
         n.metadata.name = NodeName(i);
         n.metadata.labels["kubernetes.io/hostname"] = NodeName(i);
         return typed->Create(n).ok() && typed->Create(NodeSlice(i, devices)).ok();
       });
  ok = ok && Parallel(claims + waiting, [&](int i) {
         auto created = typed->Create(Claim(i, i < claims ? "gpu.example.com" : "b200"));
         if (!created.ok()) return false;
         if (i >= allocated) return true;
         std::string pod = i < reserved ? "pod-" + std::to_string(i) : "";
         Allocate(*created, i % nodes, i / nodes, pod);
         return typed->UpdateStatus(*created).ok();
       });
  ok = ok && Parallel(reserved + waiting, [&](int i) {
         const bool pending = i >= reserved;
         const int claim = pending ? claims + (i - reserved) : i;
         dra::api::Pod p;
         p.metadata.name =
             pending ? "waiting-" + std::to_string(i - reserved) : "pod-" + std::to_string(i);
         p.metadata.namespace_ = "default";
         if (!pending) p.spec.node_name = NodeName(i % nodes);
         dra::api::Container c;
         c.name = "c";
         c.image = "registry.k8s.io/pause:3.10";
         p.spec.containers.push_back(c);
         dra::api::PodResourceClaim rc;
         rc.name = "gpu";
         rc.resource_claim_name = "claim-" + std::to_string(claim);
         p.spec.resource_claims.push_back(rc);
         return typed->Create(p).ok();
       });
  if (!ok) {
    std::cerr << "serve_live_bench: populating the cluster failed\n";
    return 1;
  }
  std::printf(
      "populated %d nodes, %d devices, %d claims (%d allocated, %d reserved), %d pods in "
      "%.1f s\n",
      nodes, total_devices, claims + waiting, allocated, reserved, reserved + waiting,
      Seconds(Clock::now() - t0));

  const std::string kubeconfig = cluster->admin_kubeconfig();
  if (hold) {
    // For looking at dra serve by hand: the populated cluster stays up until
    // standard input ends.
    std::printf("holding the cluster: --kubeconfig %s (end standard input to stop)\n",
                kubeconfig.c_str());
    std::fflush(stdout);
    while (std::getchar() != EOF) {
    }
    return 0;
  }
  const std::string kubectl_get =
      cluster->kubectl() + " --kubeconfig " + kubeconfig +
      " get nodes,pods,resourceclaims,resourceclaimtemplates,deviceclasses,resourceslices,"
      "devicetaintrules -A -o json > /dev/null";
  std::vector<double> sync, kubectl, first_scrape, scrape, summary, node_devices, gzip_scrape,
      gzip_summary, change, compute, rss, anon, file, hwm, sync_hwm, scraped_hwm;
  std::size_t metrics_bytes = 0, summary_bytes = 0, gzip_metrics_bytes = 0, gzip_summary_bytes = 0;
  int next_claim = allocated;  // pending claims to allocate, one per change
  for (int r = 0; r < repeat; ++r) {
    if (r % 2 == 1) {
      auto s = Clock::now();
      if (std::system(kubectl_get.c_str()) != 0) return 1;
      kubectl.push_back(Seconds(Clock::now() - s));
    }
    const int port = FreePort();
    auto s = Clock::now();
    Served served = StartServe(dra_program, kubeconfig, port);
    long seen = -1;
    while (Seconds(Clock::now() - s) < 120) {
      std::string body = HttpGet(port, "/api/summary");
      long free = JsonNumber(body, "free"), used = JsonNumber(body, "allocated"),
           tainted = JsonNumber(body, "tainted");
      seen = free + used + tainted;
      if (!body.empty() && seen == total_devices) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    sync.push_back(Seconds(Clock::now() - s));
    // The peak so far: the informers' first sync and the first state (the
    // explanation of the waiting pods begins then).
    sync_hwm.push_back(static_cast<double>(ProcessMemory(served.pid, "VmHWM")));
    if (seen != total_devices) {
      std::cerr << "serve_live_bench: dra serve never showed every device\n";
      StopServe(served);
      return 1;
    }
    if (r % 2 == 0) {
      auto k = Clock::now();
      if (std::system(kubectl_get.c_str()) != 0) return 1;
      kubectl.push_back(Seconds(Clock::now() - k));
    }
    for (int q = 0; q < 10; ++q) {
      auto a = Clock::now();
      metrics_bytes = HttpGet(port, "/metrics").size();
      (q == 0 ? first_scrape : scrape).push_back(Seconds(Clock::now() - a));
      // As Prometheus asks for it (Accept-Encoding: gzip).
      a = Clock::now();
      gzip_metrics_bytes = HttpGet(port, "/metrics", "gzip").size();
      gzip_scrape.push_back(Seconds(Clock::now() - a));
      a = Clock::now();
      summary_bytes = HttpGet(port, "/api/summary").size();
      summary.push_back(Seconds(Clock::now() - a));
      // As a browser asks for it.
      a = Clock::now();
      gzip_summary_bytes = HttpGet(port, "/api/summary", "gzip, deflate, br, zstd").size();
      gzip_summary.push_back(Seconds(Clock::now() - a));
      a = Clock::now();
      HttpGet(port, "/api/devices?node=node-1");
      node_devices.push_back(Seconds(Clock::now() - a));
    }
    // The peak so far: the scrapes, beside the first explanation when this
    // run's server started after kubectl.
    scraped_hwm.push_back(static_cast<double>(ProcessMemory(served.pid, "VmHWM")));
    // A change: one more claim allocated through the API, until the page
    // would show it: a state event on the stream, then the summary read.
    const int events = OpenEvents(port);
    std::string stream;
    if (events < 0 || !NextStates(events, stream, 1)) return 1;
    for (int c = 0; c < 3; ++c) {
      long before = JsonNumber(HttpGet(port, "/api/summary"), "allocated");
      auto got =
          typed->Get<dra::api::ResourceClaim>("default", "claim-" + std::to_string(next_claim));
      if (!got.ok()) return 1;
      const int device = total_devices / 2 + next_claim;  // devices past the allocated half
      Allocate(*got, device % nodes, device / nodes, "");
      ++next_claim;
      if (!typed->UpdateStatus(*got).ok()) return 1;
      auto a = Clock::now();
      while (Seconds(Clock::now() - a) < 30) {
        if (!NextStates(events, stream, 1)) return 1;
        if (JsonNumber(HttpGet(port, "/api/summary"), "allocated") != before) break;
      }
      change.push_back(Seconds(Clock::now() - a));
      compute.push_back(JsonDouble(HttpGet(port, "/api/summary"), "computeSeconds"));
    }
    close(events);
    // Settled: dra serve gives freed memory back after each state and every
    // few seconds between states.
    std::this_thread::sleep_for(std::chrono::seconds(6));
    rss.push_back(static_cast<double>(ProcessMemory(served.pid, "VmRSS")));
    anon.push_back(static_cast<double>(ProcessMemory(served.pid, "RssAnon")));
    file.push_back(static_cast<double>(ProcessMemory(served.pid, "RssFile")));
    hwm.push_back(static_cast<double>(ProcessMemory(served.pid, "VmHWM")));
    StopServe(served);
  }
  std::printf(
      "\n| dra serve, %d nodes x %d devices, %d claims (median of %d) | value |\n"
      "|---|---|\n",
      nodes, devices, claims + waiting, repeat);
  std::printf("| initial sync: start to every device served | %.2f s |\n", Median(sync));
  std::printf("| kubectl get of the same kinds -A -o json | %.2f s |\n", Median(kubectl));
  std::printf("| ratio sync / kubectl get | %.2f |\n", Median(sync) / Median(kubectl));
  std::printf("| first scrape of /metrics after a new state (%zu bytes, written) | %.1f ms |\n",
              metrics_bytes, 1000 * Median(first_scrape));
  std::printf("| later scrapes of the same state | %.1f ms |\n", 1000 * Median(scrape));
  std::printf("| scrape with Accept-Encoding: gzip, as Prometheus's (%zu bytes sent) | %.1f ms |\n",
              gzip_metrics_bytes, 1000 * Median(gzip_scrape));
  std::printf("| GET /api/summary (%zu bytes) | %.1f ms |\n", summary_bytes,
              1000 * Median(summary));
  std::printf("| GET /api/summary with a browser's Accept-Encoding (%zu bytes sent) | %.1f ms |\n",
              gzip_summary_bytes, 1000 * Median(gzip_summary));
  std::printf("| GET /api/devices?node=node-1 | %.1f ms |\n", 1000 * Median(node_devices));
  std::printf(
      "| a claim allocated through the API until the page has it (state event, then "
      "/api/summary read; max %.3f s) | %.3f s |\n",
      *std::max_element(change.begin(), change.end()), Median(change));
  std::printf("| of which computing the state (computeSeconds) | %.3f s |\n", Median(compute));
  std::printf("| resident memory after the changes | %.1f MiB (%.0f bytes per device) |\n",
              Median(rss) / (1 << 20), Median(rss) / total_devices);
  std::printf(
      "| of which the process's own memory (RssAnon) | %.1f MiB (%.0f bytes per device) |\n",
      Median(anon) / (1 << 20), Median(anon) / total_devices);
  std::printf(
      "| of which pages of the program and its libraries (RssFile) | %.1f MiB (%.0f bytes per "
      "device) |\n",
      Median(file) / (1 << 20), Median(file) / total_devices);
  std::printf("| resident memory on the empty cluster (the program itself) | %.1f MiB |\n",
              empty_rss / (1 << 20));
  std::printf("| resident memory the cluster adds, per device | %.0f bytes |\n",
              (Median(rss) - empty_rss) / total_devices);
  // Each run's figure too: the run that starts after kubectl scrapes during
  // its first explanation.
  auto runs = [](const std::vector<double>& v) {
    std::string out;
    for (double x : v) out += (out.empty() ? "" : ", ") + Fixed(x / (1 << 20), 1);
    return out;
  };
  std::printf("| peak resident memory until synced | %.1f MiB (runs: %s MiB) |\n",
              Median(sync_hwm) / (1 << 20), runs(sync_hwm).c_str());
  std::printf("| peak resident memory until the scrapes were done | %.1f MiB (runs: %s MiB) |\n",
              Median(scraped_hwm) / (1 << 20), runs(scraped_hwm).c_str());
  std::printf("| peak resident memory | %.1f MiB (%.0f bytes per device; runs: %s MiB) |\n",
              Median(hwm) / (1 << 20), Median(hwm) / total_devices, runs(hwm).c_str());
  // The goal, at most 1 KiB of memory per device, read as what the
  // cluster adds to the program at the peak.
  std::printf("| peak resident memory the cluster adds, per device | %.0f bytes |\n",
              (Median(hwm) - empty_rss) / total_devices);
  return 0;
}

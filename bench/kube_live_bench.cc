// The kube layer against a real kube-apiserver v1.37.2, side by side with
// the real kubectl in the same run (docs/PERFORMANCE.md):
//   1. list and decode every ResourceSlice of an N-node x D-device cluster:
//      dra's TypedClient in-process, `dra get devices -o json`, and
//      `kubectl get resourceslices -o json`;
//   2. `dra get pools` on that cluster;
//   3. watch throughput: events/s an informer receives while slices are
//      rewritten;
//   4. memory per cached device in an informer holding typed slices.
// Medians of --repeat runs. Needs the cluster binaries (tests/cluster/build.sh)
// in DRA_CLUSTER_BIN or the default cache, and the dra program (--dra).
//
//   build/bench/kube_live_bench --dra build/dra [--nodes 5000] [--devices 8] [--repeat 5]
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "dra/api/resource.h"
#include "dra/kube/informer.h"
#include "dra/kube/kubeconfig.h"
#include "dra/kube/resource_client.h"
#include "dra/kube/stored_object.h"
#include "dra/kube/watch.h"
#include "kube/test_cluster.h"

namespace {

using dra::kube::ApiResult;
using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

dra::api::ResourceSlice NodeSlice(int node, int devices) {
  dra::api::ResourceSlice s;
  std::string n = "node-" + std::to_string(node);
  s.metadata.name = n + "-gpu.example.com";
  s.spec.driver = "gpu.example.com";
  s.spec.node_name = n;
  s.spec.pool.name = n;
  s.spec.pool.generation = 1;
  s.spec.pool.resource_slice_count = 1;
  for (int d = 0; d < devices; ++d) {
    dra::api::Device dev;
    dev.name = "gpu-" + std::to_string(d);
    dev.attributes["gpu.example.com/model"].string_value = "H100";
    dev.attributes["gpu.example.com/uuid"].string_value =
        "GPU-" + std::to_string(node) + "-" + std::to_string(d) + "-8c1e6b0a";
    dev.attributes["gpu.example.com/index"].int_value = d;
    dev.attributes["gpu.example.com/driverVersion"].version_value = "560.35.3";
    dev.capacity["gpu.example.com/memory"].value = dra::api::Quantity::MustParse("80Gi");
    s.spec.devices.push_back(dev);
  }
  return s;
}

std::size_t HeapInUse() {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

}  // namespace

int main(int argc, char** argv) {
  int nodes = 5000;
  int devices = 8;
  int repeat = 5;
  std::string dra_program = "build/dra";
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--nodes")
      nodes = std::atoi(argv[i + 1]);
    else if (flag == "--devices")
      devices = std::atoi(argv[i + 1]);
    else if (flag == "--repeat")
      repeat = std::atoi(argv[i + 1]);
    else if (flag == "--dra")
      dra_program = argv[i + 1];
    else {
      std::cerr << "unknown flag " << flag << "\n";
      return 2;
    }
  }
  using dra::testing_cluster::TestCluster;
  if (std::string why = TestCluster::SkipReason(); !why.empty()) {
    std::cerr << "kube_live_bench: " << why << "\n";
    return 77;
  }
  std::string error;
  auto cluster = TestCluster::Start({}, &error);
  if (!cluster) {
    std::cerr << "kube_live_bench: " << error << "\n";
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
  if (!typed.ok()) {
    std::cerr << dra::kube::KubectlErrorText(typed.error()) << "\n";
    return 1;
  }

  // Populate: 8 writer threads, unthrottled.
  auto t0 = Clock::now();
  std::atomic<int> next{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 8; ++t) {
    writers.emplace_back([&] {
      for (int i = next++; i < nodes; i = next++) {
        if (!typed->Create(NodeSlice(i, devices)).ok()) ++failed;
      }
    });
  }
  for (auto& w : writers) w.join();
  if (failed > 0) {
    std::cerr << failed << " creates failed\n";
    return 1;
  }
  std::printf("populated %d slices (%d devices) in %.1f s\n", nodes, nodes * devices,
              Seconds(Clock::now() - t0));

  // 1. List and decode.
  std::vector<double> in_process, dra_proc, kubectl_proc, pools_proc;
  std::size_t listed = 0;
  for (int r = 0; r < repeat; ++r) {
    auto s = Clock::now();
    auto all = typed->List<dra::api::ResourceSlice>("");
    in_process.push_back(Seconds(Clock::now() - s));
    if (!all.ok()) {
      std::cerr << dra::kube::KubectlErrorText(all.error()) << "\n";
      return 1;
    }
    listed = all->size();
    std::string kubeconfig = cluster->admin_kubeconfig();
    s = Clock::now();
    int rc = std::system((cluster->kubectl() + " --kubeconfig " + kubeconfig +
                          " get resourceslices -o json > /dev/null")
                             .c_str());
    kubectl_proc.push_back(Seconds(Clock::now() - s));
    if (rc != 0) return 1;
    s = Clock::now();
    rc = std::system(
        (dra_program + " get devices -o json --kubeconfig " + kubeconfig + " > /dev/null").c_str());
    dra_proc.push_back(Seconds(Clock::now() - s));
    if (rc != 0) return 1;
    s = Clock::now();
    rc = std::system(
        (dra_program + " get pools --kubeconfig " + kubeconfig + " > /dev/null").c_str());
    pools_proc.push_back(Seconds(Clock::now() - s));
    if (rc != 0) return 1;
  }
  std::printf("\n| measurement (%d nodes x %d devices, median of %d) | seconds |\n|---|---|\n",
              nodes, devices, repeat);
  std::printf("| dra TypedClient::List<ResourceSlice> (in process, %zu slices) | %.3f |\n", listed,
              Median(in_process));
  std::printf("| dra get devices -o json (process) | %.3f |\n", Median(dra_proc));
  std::printf("| kubectl get resourceslices -o json (process) | %.3f |\n", Median(kubectl_proc));
  std::printf("| dra get pools (process) | %.3f |\n", Median(pools_proc));
  std::printf("| ratio kubectl / dra list+decode in process | %.1fx |\n",
              Median(kubectl_proc) / Median(in_process));
  std::printf("| ratio kubectl / dra get devices -o json | %.1fx |\n",
              Median(kubectl_proc) / Median(dra_proc));

  // 4. Memory per cached device: an informer holding typed slices, synced
  // by a watch-list (the default) and, for comparison, by a list.
  dra::kube::TypedClient decoder = *typed;
  auto typed_informer = [&](bool watch_list) {
    dra::kube::InformerOptions options;
    options.watch_list = watch_list;
    return std::make_unique<dra::kube::Informer<dra::api::ResourceSlice>>(
        std::shared_ptr<dra::kube::ListerWatcher>(dra::kube::NewApiListerWatcher(
            dra::kube::ObjectClient(*client), dra::kube::ResourceSlices(typed->version()), "")),
        [decoder](
            dra::json::Value&& tree) -> ApiResult<std::shared_ptr<const dra::api::ResourceSlice>> {
          auto o = decoder.Decode(tree);
          if (!o.ok()) return o.error();
          return std::make_shared<const dra::api::ResourceSlice>(
              std::move(std::get<dra::api::ResourceSlice>(o.value())));
        },
        dra::kube::InformerHandlers<dra::api::ResourceSlice>{}, options);
  };
  // Seconds from Start until synced; negative when it did not sync.
  auto time_sync = [](auto& informer) {
    auto start = Clock::now();
    informer.Start();
    if (!informer.WaitForSync(std::chrono::minutes(5))) {
      std::cerr << "informer did not sync\n";
      return -1.0;
    }
    return Seconds(Clock::now() - start);
  };
  const double list_sync_s = time_sync(*typed_informer(false));
  if (list_sync_s < 0) return 1;
  malloc_trim(0);
  std::size_t heap_before = HeapInUse();
  auto informer = typed_informer(true);
  const double sync_s = time_sync(*informer);
  if (sync_s < 0) return 1;
  malloc_trim(0);
  std::size_t heap_after = HeapInUse();
  double per_device = static_cast<double>(heap_after - heap_before) / (nodes * devices);
  std::printf("| informer initial sync by watch-list, typed slices (%d slices) | %.3f |\n", nodes,
              sync_s);
  std::printf("| informer initial sync by list, typed slices | %.3f |\n", list_sync_s);
  std::printf("| informer cache of typed slices: bytes per device | %.0f |\n", per_device);
  {
    // The same cache keeping each slice as its compact JSON (stored_object.h).
    malloc_trim(0);
    std::size_t before = HeapInUse();
    dra::kube::Informer<dra::kube::StoredObject> stored(
        std::shared_ptr<dra::kube::ListerWatcher>(dra::kube::NewApiListerWatcher(
            dra::kube::ObjectClient(*client), dra::kube::ResourceSlices(typed->version()), "")),
        dra::kube::StoreObject);
    auto s0 = Clock::now();
    stored.Start();
    if (!stored.WaitForSync(std::chrono::minutes(5))) return 1;
    double stored_sync = Seconds(Clock::now() - s0);
    malloc_trim(0);
    double stored_per_device =
        static_cast<double>(HeapInUse() - before) / (static_cast<double>(nodes) * devices);
    auto d0 = Clock::now();
    std::size_t decoded = 0;
    for (const auto& o : stored.Snapshot()) {
      if (dra::kube::DecodeStored(*o, dra::kube::ResourceSlices(typed->version())).ok()) {
        ++decoded;
      }
    }
    double decode_all = Seconds(Clock::now() - d0);
    stored.Stop();
    std::printf("| informer initial sync, stored slices | %.3f |\n", stored_sync);
    std::printf("| informer cache of stored (compact JSON) slices: bytes per device | %.0f |\n",
                stored_per_device);
    std::printf("| decoding every stored slice (%zu) into typed slices | %.3f |\n", decoded,
                decode_all);
  }

  // 3. Watch throughput: rewrite slices with 8 writers; the informer counts.
  // Then the same events replayed to a fresh watch from the resourceVersion
  // before the writes: how fast a client takes in a stream the server has
  // ready (the writers' rate bounds the first figure).
  const int updates = std::min(nodes, 4000);
  std::string rv_before;
  if (!typed->List<dra::api::ResourceSlice>("", {}, &rv_before).ok()) return 1;
  std::atomic<std::uint64_t> seen{0};
  auto events_before = informer->Stats().events;
  next = 0;
  auto w0 = Clock::now();
  writers.clear();
  for (int t = 0; t < 8; ++t) {
    writers.emplace_back([&] {
      for (int i = next++; i < updates; i = next++) {
        auto patched = decoder.objects().Patch(dra::kube::ResourceSlices(decoder.version()), "",
                                               "node-" + std::to_string(i) + "-gpu.example.com",
                                               dra::kube::PatchType::kMerge,
                                               R"({"metadata":{"labels":{"rewritten":"yes"}}})");
        if (!patched.ok()) ++failed;
      }
    });
  }
  for (auto& w : writers) w.join();
  double write_s = Seconds(Clock::now() - w0);
  auto deadline = Clock::now() + std::chrono::seconds(60);
  while (informer->Stats().events - events_before < static_cast<std::uint64_t>(updates) &&
         Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  double total_s = Seconds(Clock::now() - w0);
  seen = informer->Stats().events - events_before;
  std::printf(
      "| watch: %d updates written in %.2f s; events received | %llu in %.2f s = %.0f events/s |\n",
      updates, write_s, static_cast<unsigned long long>(seen.load()), total_s,
      seen.load() / total_s);
  informer->Stop();

  dra::kube::ObjectClient watcher(*client);
  dra::kube::ListOptions from;
  from.resource_version = rv_before;
  from.timeout_seconds = 60;
  std::uint64_t replayed = 0;
  auto r0 = Clock::now();
  auto status = dra::kube::Watch(watcher, dra::kube::ResourceSlices(typed->version()), "", from,
                                 [&](dra::kube::WatchEvent&& e) {
                                   if (e.type == "MODIFIED") ++replayed;
                                   return replayed < static_cast<std::uint64_t>(updates);
                                 });
  double replay_s = Seconds(Clock::now() - r0);
  if (!status.ok()) {
    std::cerr << dra::kube::KubectlErrorText(status.error()) << "\n";
    return 1;
  }
  std::printf(
      "| watch replay: %llu MODIFIED events of %d-device slices decoded | %.3f s = %.0f events/s "
      "|\n",
      static_cast<unsigned long long>(replayed), devices, replay_s, replayed / replay_s);
  return failed > 0 ? 1 : 0;
}

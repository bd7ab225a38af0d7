// The scheduler_perf DRA workloads (k8s.io/kubernetes
// test/integration/scheduler_perf/dra/performance-config.yaml) at upstream's
// scale, 500 nodes and 5,000 scheduled pods, through the whole scheduler:
// claims from templates, PreFilter, Filter on a thread pool, Score,
// Reserve/PreBind, and, for steady-state workloads, pod deletion with
// deallocation. Reports pods/s (counter "pods_per_second") and the memory the
// scheduler holds per published device ("bytes_per_device").
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dra/scheduler/scheduler.h"
#include "scheduler/workloads.h"

namespace {

using dra::scheduler::Cluster;
using dra::scheduler::Scheduler;

constexpr int kNodes = 500;
constexpr int kPods = 5000;
// Steady-state workloads keep this many pods pending (upstream: 10).
constexpr int kPending = 10;

Cluster ParseCluster(const std::string& yaml) {
  dra::api::ManifestSet set;
  dra::api::ParseManifestText("workload", yaml, dra::api::ManifestOptions{}, set);
  dra::Result<Cluster> c = dra::scheduler::ClusterFromManifests(set, "default");
  if (!c.ok()) {
    std::fprintf(stderr, "workload: %s\n", c.error().c_str());
    std::abort();
  }
  return std::move(*c);
}

std::size_t HeapInUse() { return mallinfo2().uordblks; }

std::size_t DeviceCount(const Cluster& c) {
  std::size_t n = 0;
  for (const auto& s : c.slices) n += s.spec.devices.size();
  return n;
}

dra::scheduler::SchedulerOptions Options(bool memo) {
  dra::scheduler::SchedulerOptions o;
  o.filter_memo = memo;
  o.features = dra::allocator::Features::FromGates(dra::api::FeatureGates{});
  o.features.consumable_capacity = true;
  o.features.partitionable_devices = true;
  o.explain = false;
  return o;
}

void BM_Workload(benchmark::State& state, const std::string& name, bool memo) {
  const dra::scheduler::WorkloadInfo* info = nullptr;
  for (const auto& w : dra::scheduler::Workloads()) {
    if (w.name == name) info = &w;
  }
  // Burst workloads schedule their measured pods; steady-state ones replace
  // each bound pod until kPods have been scheduled.
  int measured = info->steady_state ? kPending : kPods / 2;
  dra::Result<dra::scheduler::WorkloadManifests> w =
      dra::scheduler::MakeWorkload(name, kNodes, measured);
  Cluster base = ParseCluster(w->cluster);
  Cluster pods = ParseCluster(w->pods);
  std::vector<dra::api::Pod> stream;
  if (info->steady_state) {
    std::string y;
    for (int i = kPending; i < kPods; ++i) {
      y += dra::scheduler::WorkloadPod(name, "pod-" + std::to_string(i), i);
    }
    stream = ParseCluster(y).pods;
  }
  // What the scheduler holds per published device: its allocator index,
  // allocated state and node data, measured on the inventory alone.
  const std::size_t devices = DeviceCount(base);
  double bytes_per_device = 0;
  {
    // Measured from before the copy of the objects handed over: what the
    // scheduler frees of them is not counted, what it keeps is.
    std::size_t heap_before = HeapInUse();
    Cluster inventory = base;
    inventory.pods.clear();
    Scheduler s(std::move(inventory), Options(memo));
    bytes_per_device = (static_cast<double>(HeapInUse()) - static_cast<double>(heap_before)) /
                       static_cast<double>(devices);
  }
  std::int64_t scheduled = 0;
  double calls_per_pod = 0;
  double hits_per_pod = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto sched = std::make_unique<Scheduler>(Cluster(base), Options(memo));
    sched->Run();  // the init pods, not measured
    const dra::scheduler::SchedulerStats before = sched->stats();
    state.ResumeTiming();

    for (const auto& claim : pods.claims) (void)sched->AddClaim(claim);
    for (const auto& pod : pods.pods) (void)sched->AddPod(pod);
    sched->Run();
    if (info->steady_state) {
      // Record indices are stable (deleted pods keep theirs), so only the
      // measured pods not yet seen bound are looked at after each round.
      std::vector<std::size_t> waiting;
      for (std::size_t i = 0; i < sched->pods().size(); ++i) {
        const dra::scheduler::PodRecord& rec = sched->pods()[i];
        if (!rec.deleted && rec.pod.metadata.name.rfind("pod-", 0) == 0) waiting.push_back(i);
      }
      std::size_t next = 0;
      std::vector<std::size_t> still;
      while (next < stream.size()) {
        still.clear();
        bool any_bound = false;
        for (std::size_t i : waiting) {
          if (sched->pods()[i].state != dra::scheduler::PodState::kBound) {
            still.push_back(i);
            continue;
          }
          any_bound = true;
          if (next >= stream.size()) break;
          const std::string name = sched->pods()[i].pod.metadata.name;
          (void)sched->DeletePod("default", name);
          still.push_back(sched->pods().size());
          (void)sched->AddPod(stream[next++]);
        }
        if (!any_bound) break;  // nothing fits any more
        waiting.swap(still);
        sched->Run();
      }
    }
    const dra::scheduler::SchedulerStats& after = sched->stats();
    scheduled = static_cast<std::int64_t>(after.bound - before.bound);
    calls_per_pod = static_cast<double>(after.allocate_calls - before.allocate_calls) /
                    static_cast<double>(std::max<std::int64_t>(scheduled, 1));
    hits_per_pod = static_cast<double>(after.filter_memo_hits - before.filter_memo_hits) /
                   static_cast<double>(std::max<std::int64_t>(scheduled, 1));
    state.PauseTiming();
    sched.reset();
    state.ResumeTiming();
  }
  state.counters["pods"] = static_cast<double>(scheduled);
  state.counters["pods_per_second"] =
      benchmark::Counter(static_cast<double>(scheduled) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["bytes_per_device"] = bytes_per_device;
  // Allocator calls and Filter verdicts reused per scheduled pod.
  state.counters["allocate_calls_per_pod"] = calls_per_pod;
  state.counters["memo_hits_per_pod"] = hits_per_pod;
}

void RegisterAll() {
  // "/no-memo": Filter without its equivalence cache, every node's verdict
  // computed by the allocator (what the cache saves).
  for (bool memo : {true, false}) {
    for (const auto& w : dra::scheduler::Workloads()) {
      benchmark::RegisterBenchmark(
          ("BM_Scheduler/" + w.name + (memo ? "" : "/no-memo")).c_str(),
          [name = w.name, memo](benchmark::State& s) { BM_Workload(s, name, memo); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime()
          ->Iterations(1);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  RegisterAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

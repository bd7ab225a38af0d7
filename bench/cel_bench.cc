// Compile time and per-evaluation time of a typical DRA selector.
#include <benchmark/benchmark.h>

#include <string>

#include "dra/cel/compile_cache.h"
#include "dra/cel/device_view.h"
#include "dra/cel/program.h"

namespace {

constexpr const char* kSelector =
    R"(device.attributes["gpu.example.com"].model == "H100" && )"
    R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("16Gi")) >= 0)";

// A device shaped like a real GPU: a dozen attributes, a few capacities.
std::unique_ptr<dra::cel::SimpleDevice> Gpu() {
  auto d = std::make_unique<dra::cel::SimpleDevice>("gpu.example.com");
  d->AddString("productName", "NVIDIA H100 80GB HBM3")
      .AddString("architecture", "Hopper")
      .AddString("brand", "Nvidia")
      .AddInt("index", 3)
      .AddString("uuid", "GPU-8d4a5cbb-9c3e-4b8a-a1b3-2f6f8d5e1c42")
      .AddVersion("driverVersion", "550.54.15")
      .AddVersion("cudaDriverVersion", "12.4.0")
      .AddBool("healthy", true)
      .AddInt("numa.example.com/node", 1)
      .AddString("model", "H100")
      .AddCapacity("memory", dra::api::Quantity::MustParse("80Gi"))
      .AddCapacity("multiprocessors", dra::api::Quantity::MustParse("132"));
  return d;
}

void BM_Compile(benchmark::State& state) {
  for (auto _ : state) {
    dra::cel::Compilation c = dra::cel::Compile(kSelector);
    benchmark::DoNotOptimize(c.program);
  }
}
BENCHMARK(BM_Compile);

void BM_CompileCacheHit(benchmark::State& state) {
  dra::cel::CompileCache cache;
  cache.GetOrCompile(kSelector);
  for (auto _ : state) benchmark::DoNotOptimize(cache.GetOrCompile(kSelector).program);
}
BENCHMARK(BM_CompileCacheHit);

void BM_Evaluate(benchmark::State& state) {
  dra::cel::Compilation c = dra::cel::Compile(kSelector);
  if (!c.ok()) {
    state.SkipWithError(c.error.detail.c_str());
    return;
  }
  auto device = Gpu();
  for (auto _ : state) {
    dra::Result<bool> r = c.program->Evaluate(*device);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Evaluate);

void BM_EvaluateNoMatch(benchmark::State& state) {
  dra::cel::Compilation c = dra::cel::Compile(kSelector);
  auto device = std::make_unique<dra::cel::SimpleDevice>("gpu.example.com");
  device->AddString("model", "A100").AddCapacity("memory", dra::api::Quantity::MustParse("40Gi"));
  for (auto _ : state) benchmark::DoNotOptimize(c.program->Evaluate(*device));
}
BENCHMARK(BM_EvaluateNoMatch);

void BM_EvaluateComprehension(benchmark::State& state) {
  dra::cel::Compilation c =
      dra::cel::Compile(R"(device.attributes["gpu.example.com"].exists(k, k.startsWith("cuda")))");
  auto device = Gpu();
  for (auto _ : state) benchmark::DoNotOptimize(c.program->Evaluate(*device));
}
BENCHMARK(BM_EvaluateComprehension);

}  // namespace

BENCHMARK_MAIN();

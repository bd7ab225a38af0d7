// Parser and writer throughput on a ResourceSlice-shaped document: an array
// of devices with attributes and capacity, the bulk of a large slice.
#include <benchmark/benchmark.h>

#include <string>

#include "dra/json/value.h"

namespace {

std::string SliceJson(int devices) {
  std::string s = R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice",)"
                  R"("metadata":{"name":"node-1-gpu"},"spec":{"driver":"gpu.example.com",)"
                  R"("pool":{"name":"node-1","generation":1,"resourceSliceCount":1},)"
                  R"("nodeName":"node-1","devices":[)";
  for (int i = 0; i < devices; ++i) {
    if (i > 0) s += ',';
    s += R"({"name":"gpu-)" + std::to_string(i) +
         R"(","attributes":{"model":{"string":"H100-80GB-HBM3"},"index":{"int":)" +
         std::to_string(i % 8) +
         R"(},"driverVersion":{"version":"1.2.3"}},"capacity":{"memory":{"value":"80Gi"},)"
         R"("cores":{"value":"132"}}})";
  }
  s += "]}}";
  return s;
}

void BM_ParseJson(benchmark::State& state) {
  const std::string text = SliceJson(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    dra::Result<dra::json::Value> v = dra::json::ParseJson(text);
    benchmark::DoNotOptimize(v);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseJson)->Arg(128)->Arg(10000);

void BM_WriteJson(benchmark::State& state) {
  const std::string text = SliceJson(static_cast<int>(state.range(0)));
  const dra::json::Value v = *dra::json::ParseJson(text);
  for (auto _ : state) {
    std::string out;
    out.reserve(text.size());
    dra::json::WriteJson(v, out);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_WriteJson)->Arg(10000);

void BM_ParseYaml(benchmark::State& state) {
  const std::string yaml =
      dra::json::ToYaml(*dra::json::ParseJson(SliceJson(static_cast<int>(state.range(0)))));
  for (auto _ : state) {
    auto docs = dra::json::ParseYaml(yaml);
    benchmark::DoNotOptimize(docs);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * yaml.size()));
}
BENCHMARK(BM_ParseYaml)->Arg(128)->Arg(10000);

void BM_ToYaml(benchmark::State& state) {
  const dra::json::Value v = *dra::json::ParseJson(SliceJson(static_cast<int>(state.range(0))));
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string out = dra::json::ToYaml(v);
    bytes = out.size();
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_ToYaml)->Arg(10000);

}  // namespace

BENCHMARK_MAIN();

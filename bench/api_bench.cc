// Decoding and validation throughput for a 10,000-device ResourceSlice set
// (79 slices of up to 128 devices, each device with typical GPU attributes
// and capacity), as JSON and as YAML.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "dra/api/codec.h"
#include "dra/api/manifest.h"
#include "dra/api/validation.h"
#include "dra/json/value.h"

namespace {

constexpr int kDevices = 10000;
constexpr int kPerSlice = 128;

std::string SliceJson(int slice, int first, int count) {
  std::string s =
      R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"node-)" +
      std::to_string(slice) +
      R"(-gpu.example.com"},"spec":{"driver":"gpu.example.com","pool":{"name":"node-)" +
      std::to_string(slice) + R"(","generation":1,"resourceSliceCount":1},"nodeName":"node-)" +
      std::to_string(slice) + R"(","devices":[)";
  for (int i = 0; i < count; ++i) {
    if (i) s += ',';
    int d = first + i;
    s += R"({"name":"gpu-)" + std::to_string(d) +
         R"(","attributes":{"model":{"string":"H100"},"uuid":{"string":"GPU-)" +
         std::to_string(1000000 + d) + R"("},"index":{"int":)" + std::to_string(i) +
         R"(},"driverVersion":{"version":"550.54.15"},"pcieRoot":{"string":"pci0000:)" +
         std::to_string(i % 8) +
         R"(0"}},"capacity":{"memory":{"value":"80Gi"},"multiprocessors":{"value":"132"}}})";
  }
  s += "]}}";
  return s;
}

struct Fixture {
  std::vector<std::string> json_docs;
  std::string yaml_stream;
  std::size_t json_bytes = 0;
};

const Fixture& Data() {
  static const Fixture f = [] {
    Fixture f;
    int slice = 0;
    for (int first = 0; first < kDevices; first += kPerSlice, ++slice) {
      int count = std::min(kPerSlice, kDevices - first);
      f.json_docs.push_back(SliceJson(slice, first, count));
      f.json_bytes += f.json_docs.back().size();
      // JSON is YAML; convert through the tree to block YAML for a realistic stream.
      auto tree = dra::json::ParseJson(f.json_docs.back());
      f.yaml_stream += "---\n" + dra::json::ToYaml(*tree);
    }
    return f;
  }();
  return f;
}

// The fixture's slices as typed objects.
std::vector<dra::api::Object> DecodedObjects(const Fixture& f) {
  std::vector<dra::api::Object> objects;
  for (const std::string& doc : f.json_docs) {
    auto tree = dra::json::ParseJson(doc);
    dra::api::DecodeOptions options;
    options.json_source = doc;
    for (auto& o : dra::api::DecodeDocument(*tree, options).objects)
      objects.push_back(std::move(o.object));
  }
  return objects;
}

void BM_DecodeJson(benchmark::State& state) {
  const Fixture& f = Data();
  std::size_t objects = 0;
  for (auto _ : state) {
    for (const std::string& doc : f.json_docs) {
      auto tree = dra::json::ParseJson(doc);
      dra::api::DecodeOptions options;
      options.json_source = doc;
      auto out = dra::api::DecodeDocument(*tree, options);
      objects += out.objects.size();
      benchmark::DoNotOptimize(out);
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * f.json_bytes));
  state.counters["objects/s"] =
      benchmark::Counter(static_cast<double>(objects), benchmark::Counter::kIsRate);
  state.counters["devices/s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * kDevices, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DecodeJson)->Unit(benchmark::kMillisecond);

void BM_DecodeYaml(benchmark::State& state) {
  const Fixture& f = Data();
  std::size_t objects = 0;
  for (auto _ : state) {
    dra::api::ManifestSet set;
    dra::api::ParseManifestText("bench.yaml", f.yaml_stream, {}, set);
    for (const auto& d : set.documents) objects += d.decoded.objects.size();
    benchmark::DoNotOptimize(set);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * f.yaml_stream.size()));
  state.counters["objects/s"] =
      benchmark::Counter(static_cast<double>(objects), benchmark::Counter::kIsRate);
  state.counters["devices/s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * kDevices, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DecodeYaml)->Unit(benchmark::kMillisecond);

void BM_Validate(benchmark::State& state) {
  const Fixture& f = Data();
  const std::vector<dra::api::Object> objects = DecodedObjects(f);
  dra::api::ValidationOptions options;
  std::size_t errors = 0;
  for (auto _ : state) {
    for (const auto& o : objects) errors += dra::api::ValidateForCreate(o, options).size();
  }
  if (errors != 0) state.SkipWithError("fixture is invalid");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * f.json_bytes));
  state.counters["objects/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * objects.size()), benchmark::Counter::kIsRate);
  state.counters["devices/s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * kDevices, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Validate)->Unit(benchmark::kMillisecond);

void BM_EncodeJson(benchmark::State& state) {
  const Fixture& f = Data();
  const std::vector<dra::api::Object> objects = DecodedObjects(f);
  for (auto _ : state) {
    for (const auto& o : objects) {
      auto s = dra::api::EncodeObject(o, dra::api::ApiVersion::kV1);
      benchmark::DoNotOptimize(s);
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * f.json_bytes));
  state.counters["objects/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * objects.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EncodeJson)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

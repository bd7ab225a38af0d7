// Parse and String for the quantity texts that dominate real objects.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "dra/api/quantity.h"

namespace {

using dra::api::Quantity;

const std::vector<std::string>& TypicalTexts() {
  static const std::vector<std::string> texts = {"16Gi", "40Gi", "1500m", "1.5", "1",
                                                 "0",    "80Gi", "100m",  "2k",  "1Ki"};
  return texts;
}

void BM_Parse(benchmark::State& state) {
  const std::string& text = TypicalTexts()[state.range(0)];
  for (auto _ : state) {
    auto q = Quantity::Parse(text);
    benchmark::DoNotOptimize(q);
  }
  state.SetLabel(text);
}
BENCHMARK(BM_Parse)->DenseRange(0, 9);

void BM_ParseAndString(benchmark::State& state) {
  const std::string& text = TypicalTexts()[state.range(0)];
  for (auto _ : state) {
    std::string s = Quantity::MustParse(text).String();
    benchmark::DoNotOptimize(s);
  }
  state.SetLabel(text);
}
BENCHMARK(BM_ParseAndString)->DenseRange(0, 9);

void BM_CanonicalString(benchmark::State& state) {
  const Quantity q = Quantity::MustParse(TypicalTexts()[state.range(0)]);
  for (auto _ : state) {
    std::string s = q.CanonicalString();
    benchmark::DoNotOptimize(s);
  }
  state.SetLabel(TypicalTexts()[state.range(0)]);
}
BENCHMARK(BM_CanonicalString)->DenseRange(0, 3);

void BM_CopyCompareAdd(benchmark::State& state) {
  const Quantity a = Quantity::MustParse("16Gi");
  const Quantity b = Quantity::MustParse("1500m");
  for (auto _ : state) {
    Quantity copy = a;
    benchmark::DoNotOptimize(copy.Compare(b));
    Quantity sum = copy.Add(b);
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_CopyCompareAdd);

void BM_ParseBig(benchmark::State& state) {
  for (auto _ : state) {
    auto q = Quantity::Parse("123456789012345678901234567890.123456789");
    benchmark::DoNotOptimize(q);
  }
}
BENCHMARK(BM_ParseBig);

}  // namespace

BENCHMARK_MAIN();

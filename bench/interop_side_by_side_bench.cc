// dra's half of the side-by-side benchmark against upstream Kubernetes
// (bench/interop_side_by_side.sh runs it next to interop/cmd/bench on the
// same inputs). A plain timing loop, so that both sides measure the same
// thing the same way:
//
//   interop_side_by_side_bench --scenarios DIR --iterations N
//       [--cel-slice FILE --cel-exprs FILE]
//
// prints one JSON line per scenario file {"case", "nsPerAllocate",
// "nsPerNewAllocator", "outcome"}, one for CEL {"cel": pairs, "nsPerEval"},
// and {"maxRssKiB"} at the end.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "allocator/scenario.h"
#include "dra/allocator/allocator.h"
#include "dra/api/feature_gates.h"
#include "dra/api/manifest.h"
#include "dra/cel/api_device_view.h"
#include "dra/cel/program.h"

namespace {

using Clock = std::chrono::steady_clock;

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// "# dra-gen: key=value" header lines of generated scenarios.
std::string Header(const std::string& text, const std::string& key) {
  const std::string prefix = "# dra-gen: " + key + "=";
  std::size_t pos = text.find(prefix);
  if (pos == std::string::npos) return "";
  std::size_t end = text.find('\n', pos);
  return text.substr(pos + prefix.size(), end - pos - prefix.size());
}

double NsPer(Clock::duration d, int n) {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count()) / n;
}

long MaxRssKiB() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

int TimeScenarios(const std::string& dir, int iterations) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& path : files) {
    const std::string text = ReadFile(path);
    dra::api::FeatureGates gates;
    if (dra::Status s = gates.Apply(Header(text, "feature-gates")); !s.ok()) {
      std::cerr << path << ": " << s.error() << "\n";
      return 2;
    }
    dra::Result<dra::allocator::Scenario> scenario =
        dra::allocator::ParseScenario(text, dra::allocator::Features::FromGates(gates));
    if (!scenario.ok()) {
      std::cerr << path << ": " << scenario.error() << "\n";
      return 2;
    }
    for (auto& c : scenario->claims) {
      if (c.metadata.namespace_.empty()) c.metadata.namespace_ = "default";
    }
    const dra::api::Node node = dra::allocator::FindNode(*scenario, Header(text, "node"));
    dra::allocator::Allocator alloc(scenario->snapshot);
    dra::allocator::AllocateResult first = alloc.Allocate(node, scenario->claims);
    Clock::time_point start = Clock::now();
    for (int i = 0; i < iterations; ++i) {
      dra::allocator::AllocateResult r = alloc.Allocate(node, scenario->claims);
      if (r.steps != first.steps) std::abort();  // keeps the call observable
    }
    const double per_allocate = NsPer(Clock::now() - start, iterations);
    // Construction indexes a snapshot the allocator owns; the copies are made
    // (and the allocators destroyed) outside the timed region, as upstream's
    // NewAllocator only takes pointers to objects the caller keeps. Batches
    // keep the copies from dominating peak memory.
    constexpr int kBatch = 4;
    Clock::duration constructing{};
    for (int done = 0; done < iterations; done += kBatch) {
      const int n = std::min(kBatch, iterations - done);
      std::vector<dra::allocator::Snapshot> copies(static_cast<std::size_t>(n), scenario->snapshot);
      std::vector<std::unique_ptr<dra::allocator::Allocator>> built;
      built.reserve(copies.size());
      const Clock::time_point batch_start = Clock::now();
      for (auto& copy : copies) {
        built.push_back(std::make_unique<dra::allocator::Allocator>(std::move(copy)));
      }
      constructing += Clock::now() - batch_start;
    }
    const double per_new = NsPer(constructing, iterations);
    const char* outcome = first.outcome == dra::allocator::Outcome::kAllocated ? "Allocated"
                          : first.outcome == dra::allocator::Outcome::kUnschedulable
                              ? "Unschedulable"
                              : "Error";
    std::printf(
        "{\"case\":\"%s\",\"nsPerAllocate\":%.1f,\"nsPerNewAllocator\":%.1f,\"outcome\":\"%s\"}\n",
        std::filesystem::path(path).filename().c_str(), per_allocate, per_new, outcome);
  }
  return 0;
}

int TimeCel(const std::string& slice_file, const std::string& exprs_file, int iterations) {
  dra::api::ManifestSet set = dra::api::ReadManifests({slice_file}, {});
  std::vector<dra::api::ResourceSlice> slices;
  for (const auto& doc : set.documents) {
    for (const auto& o : doc.decoded.objects) {
      if (const auto* s = std::get_if<dra::api::ResourceSlice>(&o.object)) slices.push_back(*s);
    }
  }
  std::vector<std::unique_ptr<dra::cel::ApiDeviceView>> views;
  for (const auto& s : slices) {
    for (const auto& d : s.spec.devices) {
      views.push_back(std::make_unique<dra::cel::ApiDeviceView>(d, s.spec.driver));
    }
  }
  std::vector<dra::cel::Compilation> programs;
  std::istringstream lines(ReadFile(exprs_file));
  std::string expr;
  while (std::getline(lines, expr)) {
    if (expr.empty()) continue;
    dra::cel::Compilation c = dra::cel::Compile(expr);
    if (c.ok()) programs.push_back(std::move(c));
  }
  if (programs.empty() || views.empty()) {
    std::cerr << "no compilable expressions or no devices\n";
    return 2;
  }
  std::size_t matched = 0;
  Clock::time_point start = Clock::now();
  for (int i = 0; i < iterations; ++i) {
    for (const auto& p : programs) {
      for (const auto& v : views) {
        dra::Result<bool> r = p.program->Evaluate(*v);
        matched += r.ok() && *r;
      }
    }
  }
  const int pairs = static_cast<int>(programs.size() * views.size());
  std::printf("{\"cel\":%d,\"nsPerEval\":%.1f,\"matched\":%zu}\n", pairs,
              NsPer(Clock::now() - start, iterations * pairs), matched / iterations);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string scenarios, cel_slice, cel_exprs;
  int iterations = 100;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--scenarios") {
      scenarios = argv[i + 1];
    } else if (flag == "--iterations") {
      iterations = std::max(1, std::atoi(argv[i + 1]));
    } else if (flag == "--cel-slice") {
      cel_slice = argv[i + 1];
    } else if (flag == "--cel-exprs") {
      cel_exprs = argv[i + 1];
    } else {
      std::cerr << "unknown flag " << flag << "\n";
      return 2;
    }
  }
  if (!scenarios.empty()) {
    if (int rc = TimeScenarios(scenarios, iterations); rc != 0) return rc;
  }
  if (!cel_slice.empty() && !cel_exprs.empty()) {
    if (int rc = TimeCel(cel_slice, cel_exprs, iterations); rc != 0) return rc;
  }
  std::printf("{\"maxRssKiB\":%ld}\n", MaxRssKiB());
  return 0;
}

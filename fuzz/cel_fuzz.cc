// libFuzzer target: arbitrary text through parse, check, plan and evaluation
// against a representative device. Any crash, sanitizer report or hang is a
// bug; compile errors and evaluation errors are expected outcomes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dra/cel/device_view.h"
#include "dra/cel/program.h"

namespace {

const dra::cel::SimpleDevice& Device() {
  static const auto* device = [] {
    auto* d = new dra::cel::SimpleDevice("gpu.example.com");
    d->AddString("model", "A100")
        .AddInt("cores", 108)
        .AddBool("healthy", true)
        .AddVersion("driverVersion", "1.2.3")
        .AddVersion("bad", "v1")
        .AddInts("ids", {1, 2, 3})
        .AddStrings("names", {"fish", "bird"})
        .AddVersions("versions", {"1.0.0", "2.0.0-rc.1"})
        .AddBools("flags", {true, false})
        .AddUnset("unset")
        .AddInt("numa.example.com/node", 0)
        .AddCapacity("memory", dra::api::Quantity::MustParse("40Gi"))
        .AddCapacity("numa.example.com/slots", dra::api::Quantity::MustParse("4"));
    return d;
  }();
  return *device;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Upstream rejects longer selectors before compiling them.
  if (size > dra::cel::kMaxExpressionBytes) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  dra::cel::CompileOptions options;
  options.cost_limit = 100'000;  // keeps each run short; the limit path is exercised too
  dra::cel::Compilation c = dra::cel::Compile(text, options);
  if (c.ok()) (void)c.program->Evaluate(Device());
  return 0;
}

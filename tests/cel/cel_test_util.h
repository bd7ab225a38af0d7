// Helpers shared by the CEL tests: two reference devices (G with scalar
// attributes and capacities, L with list attributes) and a compact way to state
// an expected outcome.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "dra/cel/device_view.h"
#include "dra/cel/program.h"

namespace dra::cel::testing {

// Device G: driver gpu.example.com, model A100, 108 cores, healthy, driver
// version 1.2.3, numa.example.com/node 0, memory 40Gi, numa slots 4.
inline std::unique_ptr<SimpleDevice> DeviceG() {
  auto d = std::make_unique<SimpleDevice>("gpu.example.com");
  d->AddString("model", "A100")
      .AddInt("cores", 108)
      .AddBool("healthy", true)
      .AddVersion("driverVersion", "1.2.3")
      .AddInt("numa.example.com/node", 0)
      .AddCapacity("memory", api::Quantity::MustParse("40Gi"))
      .AddCapacity("numa.example.com/slots", api::Quantity::MustParse("4"));
  return d;
}

// Device L: driver dra.example.com with list attributes names [fish, bird],
// ids [1, 2, 3], versions [1.0.0, 2.0.0] and name "fish".
inline std::unique_ptr<SimpleDevice> DeviceL() {
  auto d = std::make_unique<SimpleDevice>("dra.example.com");
  d->AddStrings("names", {"fish", "bird"})
      .AddInts("ids", {1, 2, 3})
      .AddVersions("versions", {"1.0.0", "2.0.0"})
      .AddString("name", "fish");
  return d;
}

// Compiles and evaluates; the outcome reads "true", "false", "err: <message>"
// or "compile: <detail>".
inline std::string Outcome(std::string_view expression, const DeviceView& device) {
  Compilation c = Compile(expression);
  if (!c.ok()) return "compile: " + c.error.detail;
  Result<bool> r = c.program->Evaluate(device);
  if (!r.ok()) return "err: " + r.error();
  return *r ? "true" : "false";
}

}  // namespace dra::cel::testing

// dra cel check / dra cel eval: compile a device selector, and see which
// devices of a set of ResourceSlices it matches and why not.
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/manifest_flags.h"
#include "dra/api/manifest.h"
#include "dra/cel/api_device_view.h"
#include "dra/cel/program.h"
#include "dra/json/build.h"

namespace dra::cli {
namespace {

struct CheckFlags {
  std::string expression;
  std::string output = "text";
};

struct EvalFlags {
  std::string expression;
  ManifestFlags manifests;
  std::string device;
  std::string output = "text";
};

// Prints the compile error; returns false when there is no program.
bool Compiled(const cel::Compilation& c, const std::string& output) {
  if (c.ok()) return true;
  if (output == "json") {
    json::Value out = json::Value::Object();
    json::Put(out, "valid", json::Value::Bool(false));
    json::Put(out, "error", json::Value::String(c.error.detail));
    std::cout << json::ToIndentedJson(out, 2) << "\n";
  } else {
    std::cout << "error: " << c.error.detail << "\n";
  }
  return false;
}

int RunCheck(const CheckFlags& flags) {
  cel::Compilation c = cel::Compile(flags.expression);
  if (!Compiled(c, flags.output)) return 1;
  std::uint64_t cost = c.program->estimated_max_cost();
  bool within = cost <= cel::kCostLimit;
  if (flags.output == "json") {
    json::Value out = json::Value::Object();
    json::Put(out, "valid", json::Value::Bool(within));
    json::Put(out, "estimatedCost", json::Uint(cost));
    json::Put(out, "costLimit", json::Uint(cel::kCostLimit));
    if (!within) json::Put(out, "error", json::Value::String("too complex, exceeds cost limit"));
    std::cout << json::ToIndentedJson(out, 2) << "\n";
  } else if (within) {
    std::cout << "ok: estimated cost " << cost << " (limit " << cel::kCostLimit << ")\n";
  } else {
    std::cout << "error: too complex, exceeds cost limit: estimated cost " << cost << " (limit "
              << cel::kCostLimit << ")\n";
  }
  return within ? 0 : 1;
}

int RunEval(const EvalFlags& flags) {
  api::ManifestOptions options;
  api::FeatureGates gates;
  if (int rc = flags.manifests.Prepare(options, gates); rc != 0) return rc;
  cel::Compilation c = cel::Compile(flags.expression);
  if (!Compiled(c, flags.output)) return 1;

  api::ManifestSet set = api::ReadManifests(flags.manifests.files, options);
  int status = 0;
  for (const api::ManifestReadError& e : set.read_errors) {
    std::cerr << "error: " << e.source << ": " << e.message << "\n";
    status = 2;
  }
  json::Value results = json::Value::Array();
  std::size_t matched = 0, evaluated = 0, failed = 0;
  for (const api::ManifestDocument& doc : set.documents) {
    for (const api::DecodeError& e : doc.decoded.errors) {
      std::cerr << "error: " << doc.source << ": document " << doc.index << ": " << e.message
                << "\n";
      if (status == 0) status = 1;
    }
    for (const api::DecodedObject& o : doc.decoded.objects) {
      const auto* slice = std::get_if<api::ResourceSlice>(&o.object);
      if (slice == nullptr) continue;
      for (const api::Device& device : slice->spec.devices) {
        if (!flags.device.empty() && device.name != flags.device) continue;
        cel::ApiDeviceView view(device, slice->spec.driver);
        // Upstream converts all attributes before evaluating, so a bad
        // attribute fails the device whatever the selector reads.
        Result<bool> r = [&]() -> Result<bool> {
          if (Status s = cel::ValidateDeviceAttributes(view); !s.ok()) return s.failure();
          return c.program->Evaluate(view);
        }();
        ++evaluated;
        if (r.ok() && *r) ++matched;
        if (!r.ok()) ++failed;
        if (flags.output == "json") {
          json::Value& entry = json::Push(results, json::Value::Object());
          json::Put(entry, "driver", json::Value::String(slice->spec.driver));
          json::Put(entry, "pool", json::Value::String(slice->spec.pool.name));
          json::Put(entry, "device", json::Value::String(device.name));
          if (r.ok()) {
            json::Put(entry, "result", json::Value::Bool(*r));
          } else {
            json::Put(entry, "error", json::Value::String(r.error()));
          }
        } else {
          std::cout << slice->spec.driver << "/" << slice->spec.pool.name << "/" << device.name
                    << ": " << (r.ok() ? (*r ? "true" : "false") : "error: " + r.error()) << "\n";
        }
      }
    }
  }
  if (flags.output == "json") {
    std::cout << json::ToIndentedJson(results, 2) << "\n";
  } else {
    std::cout << evaluated << " devices: " << matched << " matched, "
              << evaluated - matched - failed << " did not match, " << failed << " errors\n";
  }
  if (!flags.device.empty() && evaluated == 0) {
    std::cerr << "error: no device named \"" << flags.device << "\" in the input\n";
    if (status == 0) status = 1;
  }
  return status;
}

}  // namespace

void AddCelCommand(CLI::App& app, int& exit_code) {
  CLI::App* cel = app.add_subcommand("cel", "Compile and evaluate DRA device selectors");
  cel->require_subcommand(1);

  auto check = std::make_shared<CheckFlags>();
  CLI::App* check_cmd = cel->add_subcommand(
      "check", "Compile a selector; print its estimated cost or the error (exit 1 on error)");
  check_cmd->add_option("expression", check->expression, "CEL expression")->required();
  check_cmd->add_option("-o,--output", check->output, "Output format")
      ->check(CLI::IsMember({"text", "json"}));
  check_cmd->callback([check, &exit_code] { exit_code = RunCheck(*check); });

  auto eval = std::make_shared<EvalFlags>();
  CLI::App* eval_cmd = cel->add_subcommand(
      "eval", "Evaluate a selector against every device of the ResourceSlices given");
  eval_cmd->add_option("expression", eval->expression, "CEL expression")->required();
  eval->manifests.Register(*eval_cmd, /*with_gates=*/false);
  eval_cmd->add_option("--device", eval->device, "Only the device with this name");
  eval_cmd->add_option("-o,--output", eval->output, "Output format")
      ->check(CLI::IsMember({"text", "json"}));
  eval_cmd->callback([eval, &exit_code] { exit_code = RunEval(*eval); });
}

}  // namespace dra::cli

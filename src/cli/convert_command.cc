// dra convert: objects re-emitted in another resource.k8s.io version, as
// kube-apiserver would return them (defaults applied, quantities in their
// stored text); objects of other kinds as written, in the input's order.
#include <algorithm>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

#include "cli/commands.h"
#include "cli/manifest_flags.h"
#include "dra/api/codec.h"
#include "dra/api/manifest.h"
#include "dra/json/value.h"

namespace dra::cli {
namespace {

struct ConvertFlags {
  ManifestFlags manifests;
  std::string to = "v1";
  std::string output = "yaml";
};

// Where an object was in the input: its source's place among the sources
// read, then its line and column there.
using Order = std::tuple<std::size_t, std::uint32_t, std::uint32_t>;

Order InputOrder(const api::ManifestSet& set, const std::string& source, json::Position pos) {
  auto it = std::find(set.sources.begin(), set.sources.end(), source);
  return {static_cast<std::size_t>(it - set.sources.begin()), pos.line, pos.column};
}

struct Item {
  Order order;
  json::Value tree;
};

int Run(const ConvertFlags& flags) {
  api::ManifestOptions options;
  api::FeatureGates gates;
  if (int rc = flags.manifests.Prepare(options, gates); rc != 0) return rc;
  Result<api::ApiVersion> target = api::ParseVersionName(flags.to);
  if (!target.ok()) {
    std::cerr << "error: invalid argument \"" << flags.to
              << "\" for \"--to\" flag: " << target.error() << "\n";
    return 2;
  }
  // Kinds dra does not model, and the core kinds whose model is partial, are
  // printed as written: nothing of them may be lost.
  options.raw_core_kinds = true;
  api::ManifestSet set = api::ReadManifests(flags.manifests.files, options);
  int status = 0;
  for (const api::ManifestReadError& e : set.read_errors) {
    std::cerr << "error: " << e.source << ": " << e.message << "\n";
    status = 2;
  }
  std::vector<Item> items;
  for (api::UnmodeledDocument& doc : set.unmodeled) {
    items.push_back({InputOrder(set, doc.source, doc.root.pos), std::move(doc.root)});
  }
  for (const api::ManifestDocument& doc : set.documents) {
    for (const api::DecodeError& e : doc.decoded.errors) {
      std::cerr << "error: " << doc.source << ": document " << doc.index;
      if (e.pos.line > 0) std::cerr << " (line " << e.pos.line << ")";
      std::cerr << ": " << e.message << "\n";
      if (status == 0) status = 1;
    }
    for (const api::DecodedObject& o : doc.decoded.objects) {
      Result<std::string> encoded = api::EncodeObject(o.object, *target);
      if (!encoded.ok()) {
        std::cerr << "error: " << doc.source << ": document " << doc.index << ": "
                  << encoded.error() << "\n";
        if (status == 0) status = 1;
        continue;
      }
      Result<json::Value> tree = json::ParseJson(*encoded);
      if (!tree.ok()) {
        std::cerr << "error: internal: encoded object does not parse: " << tree.error() << "\n";
        return 3;
      }
      items.push_back({InputOrder(set, doc.source, o.pos), std::move(tree).value()});
    }
  }
  if (items.empty()) return status;
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.order < b.order; });
  json::Value result;
  if (items.size() == 1) {
    result = std::move(items.front().tree);
  } else {
    // kubectl's shape for several objects.
    result = json::Value::Object();
    result.members.push_back({"apiVersion", json::Value::String("v1"), {}});
    json::Value list = json::Value::Array();
    for (Item& item : items) list.items.push_back(std::move(item.tree));
    result.members.push_back({"items", std::move(list), {}});
    result.members.push_back({"kind", json::Value::String("List"), {}});
    json::Value meta = json::Value::Object();
    meta.members.push_back({"resourceVersion", json::Value::String(""), {}});
    result.members.push_back({"metadata", std::move(meta), {}});
  }
  if (flags.output == "json") {
    std::cout << json::ToIndentedJson(result) << "\n";
  } else {
    std::cout << json::ToYaml(result);
  }
  return status;
}

}  // namespace

void AddConvertCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<ConvertFlags>();
  CLI::App* cmd = app.add_subcommand(
      "convert",
      "Print objects in another resource.k8s.io version, as kube-apiserver returns them");
  flags->manifests.Register(*cmd, /*with_gates=*/false);
  cmd->add_option("--to", flags->to, "Target version: v1, v1beta2 or v1beta1");
  cmd->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"yaml", "json"}));
  cmd->callback([flags, &exit_code] { exit_code = Run(*flags); });
}

}  // namespace dra::cli

// dra validate: every object checked as kube-apiserver would on create.
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/manifest_flags.h"
#include "dra/api/codec.h"
#include "dra/api/field_error.h"
#include "dra/api/kinds.h"
#include "dra/api/manifest.h"
#include "dra/api/validation.h"
#include "dra/cel/selector_checker.h"
#include "dra/driver/node_inventory.h"
#include "dra/json/build.h"

namespace dra::cli {
namespace {

using api::FieldErrors;

struct ValidateFlags {
  ManifestFlags manifests;
  std::string output = "text";
  bool quiet = false;
};

// kubectl's rendering of a 422: one cause inline, several as a bullet list.
std::string KubectlInvalidMessage(std::string_view kind, std::string_view name,
                                  const FieldErrors& errors) {
  std::string out = "The " + std::string(kind) + " \"" + std::string(name) + "\" is invalid: ";
  if (errors.size() == 1) return out + errors[0].ToString();
  for (const api::FieldError& e : errors) out += "\n* " + e.ToString();
  return out;
}

std::string Where(const api::ManifestDocument& doc, json::Position pos) {
  std::string out = doc.source + ": document " + std::to_string(doc.index);
  if (pos.line > 0) out += " (line " + std::to_string(pos.line) + ")";
  return out;
}

// Namespaces named in the input supply labels for the admin-access check.
std::map<std::string, api::StringMap> NamespaceLabels(const api::ManifestSet& set) {
  std::map<std::string, api::StringMap> out;
  for (const api::ManifestDocument& doc : set.documents) {
    for (const api::DecodedObject& o : doc.decoded.objects) {
      if (const auto* ns = std::get_if<api::Namespace>(&o.object)) {
        out[ns->metadata.name] = ns->metadata.labels;
      }
    }
  }
  return out;
}

// What dra validate found so far, printed as it goes (text) or at the end (JSON).
struct ValidationReport {
  bool as_json = false;
  bool quiet = false;
  json::Value objects = json::Value::Array();
  int valid = 0;
  int invalid = 0;
  int not_checked = 0;
};

// A new entry of the JSON report, opened with the fields every entry for a
// document has.
json::Value& NewEntry(ValidationReport& out, const std::string& file, int document,
                      std::uint32_t line, std::string kind, std::string name) {
  json::Value& entry = json::Push(out.objects, json::Value::Object());
  json::Put(entry, "file", json::Value::String(file));
  json::Put(entry, "document", json::Int(document));
  json::Put(entry, "line", json::Uint(line));
  json::Put(entry, "kind", json::Value::String(std::move(kind)));
  json::Put(entry, "name", json::Value::String(std::move(name)));
  return entry;
}

void ReportReadError(const api::ManifestReadError& e, ValidationReport& out) {
  if (out.as_json) {
    json::Value& entry = json::Push(out.objects, json::Value::Object());
    json::Put(entry, "file", json::Value::String(e.source));
    json::Put(entry, "valid", json::Value::Bool(false));
    json::Put(entry, "readable", json::Value::Bool(false));
    json::Put(entry, "message", json::Value::String(e.message));
  } else {
    std::cerr << "error: " << e.source << ": " << e.message << "\n";
  }
}

void ReportDecodeError(const api::ManifestDocument& doc, const api::DecodeError& e,
                       ValidationReport& out) {
  ++out.invalid;
  // The server warns of a deprecated version whatever the body holds.
  std::string warning = api::DeprecationWarning(e.api_version, e.kind);
  if (out.as_json) {
    json::Value& entry = NewEntry(out, doc.source, doc.index, e.pos.line, e.kind, e.name);
    json::Put(entry, "valid", json::Value::Bool(false));
    if (!warning.empty()) {
      json::Value& list = json::Put(entry, "warnings", json::Value::Array());
      json::Push(list, json::Value::String(warning));
    }
    json::Put(entry, "message", json::Value::String(e.message));
    json::Put(entry, "errors", json::Value::Array());
  } else {
    if (!warning.empty()) std::cerr << Where(doc, e.pos) << ": Warning: " << warning << "\n";
    std::cout << Where(doc, e.pos) << ": " << e.message << "\n";
  }
}

// The core/v1 kinds dra decodes (their version is not a resource.k8s.io one).
bool IsCoreKind(std::string_view kind) {
  return kind == "Pod" || kind == "Node" || kind == "Namespace";
}

// One decoded object through kube-apiserver's create-time validation.
void ValidateObject(const api::ManifestDocument& doc, api::DecodedObject& decoded,
                    const ValidateFlags& flags, api::ValidationOptions& validation,
                    ValidationReport& out) {
  api::ObjectMeta meta = api::MetaOf(decoded.object);
  std::string_view kind = api::KindOf(decoded.object);
  bool namespaced = kind == "ResourceClaim" || kind == "ResourceClaimTemplate" || kind == "Pod";
  if (namespaced && meta.namespace_.empty()) {
    // kubectl fills in the namespace of the current context.
    std::visit([&](auto& o) { o.metadata.namespace_ = flags.manifests.namespace_; },
               decoded.object);
    meta.namespace_ = flags.manifests.namespace_;
  }
  validation.request_version = std::string(api::VersionName(decoded.version));
  FieldErrors errors = api::ValidateForCreate(decoded.object, validation);
  std::string name = meta.name.empty() ? meta.generate_name : meta.name;
  std::vector<std::string> warnings;
  if (std::string w = api::DeprecationWarning(
          std::string(api::kResourceGroup) + "/" + std::string(api::VersionName(decoded.version)),
          kind);
      !w.empty() && !IsCoreKind(kind)) {
    warnings.push_back(std::move(w));
  }
  // The strategy's warnings follow a successful validation only
  // (rest.BeforeCreate in k8s.io/apiserver); the version's deprecation comes
  // with every request.
  const auto* slice = std::get_if<api::ResourceSlice>(&decoded.object);
  if (slice != nullptr && errors.empty()) {
    for (std::string& w : api::WarningsOnCreate(*slice)) warnings.push_back(std::move(w));
  }
  if (!out.as_json) {
    for (const std::string& w : warnings) {
      std::cerr << Where(doc, decoded.pos) << ": Warning: " << w << "\n";
    }
  }
  if (errors.empty()) {
    ++out.valid;
  } else {
    ++out.invalid;
  }
  if (out.as_json) {
    json::Value& entry =
        NewEntry(out, doc.source, doc.index, decoded.pos.line, std::string(kind), name);
    if (namespaced) json::Put(entry, "namespace", json::Value::String(meta.namespace_));
    json::Put(entry, "valid", json::Value::Bool(errors.empty()));
    if (!warnings.empty()) {
      json::Value& list = json::Put(entry, "warnings", json::Value::Array());
      for (const std::string& w : warnings) json::Push(list, json::Value::String(w));
    }
    if (!errors.empty()) {
      json::Put(
          entry, "message",
          json::Value::String(api::InvalidObjectMessage(kind, KindGroup(kind), name, errors)));
    }
    json::Value& errs = json::Put(entry, "errors", json::Value::Array());
    for (const api::FieldError& e : errors) {
      json::Value& err = json::Push(errs, json::Value::Object());
      json::Put(err, "field", json::Value::String(e.field));
      json::Put(err, "reason", json::Value::String(std::string(e.Reason())));
      json::Put(err, "message", json::Value::String(e.Body()));
    }
  } else if (!errors.empty()) {
    std::cout << Where(doc, decoded.pos) << ": " << KubectlInvalidMessage(kind, name, errors)
              << "\n";
  } else if (!out.quiet) {
    std::cout << Where(doc, decoded.pos) << ": " << kind << " \"" << name << "\" is valid\n";
  }
}

// One NodeInventory document (dra simulate's), decoded strictly.
void ValidateExtension(const api::ExtensionDocument& doc, ValidationReport& out) {
  Result<driver::NodeInventory> inventory = driver::DecodeNodeInventory(doc);
  std::string where = doc.source + ": document " + std::to_string(doc.index);
  if (doc.root.pos.line > 0) where += " (line " + std::to_string(doc.root.pos.line) + ")";
  if (inventory) {
    ++out.valid;
  } else {
    ++out.invalid;
  }
  if (out.as_json) {
    json::Value& entry = NewEntry(out, doc.source, doc.index, doc.root.pos.line, doc.kind,
                                  inventory ? inventory->name : "");
    json::Put(entry, "valid", json::Value::Bool(inventory.ok()));
    if (!inventory) json::Put(entry, "message", json::Value::String(inventory.error()));
    json::Put(entry, "errors", json::Value::Array());
  } else if (!inventory) {
    std::cout << where << ": " << inventory.error() << "\n";
  } else if (!out.quiet) {
    std::cout << where << ": NodeInventory \"" << inventory->name << "\" is valid\n";
  }
}

// A document of a kind kube-apiserver serves but dra does not model (a
// Deployment, a ConfigMap): listed as not checked; it does not decide the
// verdict.
void ReportUnmodeled(const api::UnmodeledDocument& doc, const ValidateFlags& flags,
                     ValidationReport& out) {
  ++out.not_checked;
  if (out.as_json) {
    json::Value& entry =
        NewEntry(out, doc.source, doc.index, doc.root.pos.line, doc.kind, doc.name);
    json::Put(entry, "apiVersion", json::Value::String(doc.api_version));
    if (doc.served->namespaced) {
      json::Put(entry, "namespace",
                json::Value::String(doc.namespace_.empty() ? flags.manifests.namespace_
                                                           : doc.namespace_));
    }
    json::Put(entry, "checked", json::Value::Bool(false));
  } else if (!out.quiet) {
    std::string where = doc.source + ": document " + std::to_string(doc.index);
    if (doc.root.pos.line > 0) where += " (line " + std::to_string(doc.root.pos.line) + ")";
    std::cout << where << ": " << doc.kind << " \"" << doc.name << "\" not checked ("
              << doc.api_version << " " << doc.kind
              << " is served by kube-apiserver; dra does not model it)\n";
  }
}

// The summary; returns the exit status.
int Finish(ValidationReport& out, int unreadable) {
  if (out.as_json) {
    json::Value doc = json::Value::Object();
    json::Put(doc, "objects", std::move(out.objects));
    json::Value& summary = json::Put(doc, "summary", json::Value::Object());
    json::Put(summary, "valid", json::Int(out.valid));
    json::Put(summary, "invalid", json::Int(out.invalid));
    json::Put(summary, "notChecked", json::Int(out.not_checked));
    json::Put(summary, "unreadable", json::Int(unreadable));
    std::cout << json::ToIndentedJson(doc, 2) << "\n";
  } else {
    std::cout << out.valid << " valid, " << out.invalid << " invalid";
    if (out.not_checked > 0) std::cout << ", " << out.not_checked << " not checked";
    if (unreadable > 0) std::cout << ", " << unreadable << " unreadable";
    std::cout << "\n";
  }
  if (unreadable > 0) return 2;
  return out.invalid > 0 ? 1 : 0;
}

int Run(const ValidateFlags& flags) {
  api::ManifestOptions manifest_options;
  api::ValidationOptions validation;
  cel::CelSelectorChecker selector_checker;
  validation.selector_checker = &selector_checker;
  if (int rc = flags.manifests.Prepare(manifest_options, validation.gates); rc != 0) return rc;
  // NodeInventory documents (dra simulate's) are decoded strictly, not sent
  // through the API server's validation.
  manifest_options.extension_groups.emplace_back(driver::kNodeInventoryGroup);

  api::ManifestSet set = api::ReadManifests(flags.manifests.files, manifest_options);
  auto namespaces = NamespaceLabels(set);
  validation.namespace_labels =
      [&namespaces](std::string_view ns) -> std::optional<api::StringMap> {
    auto it = namespaces.find(std::string(ns));
    return it == namespaces.end() ? api::StringMap{} : it->second;
  };

  ValidationReport out;
  out.as_json = flags.output == "json";
  out.quiet = flags.quiet;
  for (const api::ManifestReadError& e : set.read_errors) ReportReadError(e, out);
  for (api::ManifestDocument& doc : set.documents) {
    for (const api::DecodeError& e : doc.decoded.errors) ReportDecodeError(doc, e, out);
    for (api::DecodedObject& decoded : doc.decoded.objects) {
      ValidateObject(doc, decoded, flags, validation, out);
    }
  }
  for (const api::ExtensionDocument& doc : set.extensions) ValidateExtension(doc, out);
  for (const api::UnmodeledDocument& doc : set.unmodeled) ReportUnmodeled(doc, flags, out);
  return Finish(out, static_cast<int>(set.read_errors.size()));
}

}  // namespace

void AddValidateCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<ValidateFlags>();
  CLI::App* cmd = app.add_subcommand(
      "validate",
      "Check manifests as kube-apiserver would on create (exit 0 valid, 1 invalid, "
      "2 unreadable)");
  flags->manifests.Register(*cmd, /*with_gates=*/true);
  cmd->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("-q,--quiet", flags->quiet, "Print only invalid objects and the summary");
  cmd->callback([flags, &exit_code] { exit_code = Run(*flags); });
}

}  // namespace dra::cli

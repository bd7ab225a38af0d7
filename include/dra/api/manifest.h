// Reading manifests the way kubectl -f does: files, directories of
// .yaml/.yml/.json files, and standard input; multi-document YAML; JSON.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dra/api/codec.h"
#include "dra/api/kinds.h"
#include "dra/json/value.h"

namespace dra::api {

struct ManifestDocument {
  std::string source;  // the file's path, or "-" for standard input
  int index = 0;       // 1-based document number within the source
  json::Position pos;  // where the document starts
  DecodeOutcome decoded;
};

struct ManifestReadError {
  std::string source;
  std::string message;  // "line L, column C: ..." for syntax errors
};

// A document of one of ManifestOptions::extension_groups, not decoded here:
// the caller that asked for that group interprets it.
struct ExtensionDocument {
  std::string source;
  int index = 0;
  std::string api_version;  // "<group>/<version>"
  std::string kind;
  json::Value root;  // the whole document
};

// A document of a kind that kube-apiserver serves but DecodeDocument does not
// model (api/kinds.h: a Deployment, a ConfigMap), kept as written. Kinds the
// server does not serve (a CustomResourceDefinition's, a removed version)
// are decoded instead and fail there with kubectl's "no matches for kind".
// The items of a `List` are considered one by one, so one List may yield
// both decoded objects and unmodeled ones.
struct UnmodeledDocument {
  std::string source;
  int index = 0;            // the document's number within its source
  std::string api_version;  // as written
  std::string kind;
  std::string name;                    // metadata.name, or metadata.generateName when no name
  std::string namespace_;              // metadata.namespace, as written
  const ServedKind* served = nullptr;  // never null
  json::Value root;                    // the whole object; root.pos is where it starts
};

struct ManifestSet {
  std::vector<ManifestDocument> documents;
  std::vector<ExtensionDocument> extensions;
  std::vector<UnmodeledDocument> unmodeled;
  std::vector<ManifestReadError> read_errors;
  // Every source read, in the order read: with each document's position, the
  // order of the input across the vectors above.
  std::vector<std::string> sources;
};

struct ManifestOptions {
  bool recursive = false;  // descend into subdirectories
  // A file larger than this is refused rather than read.
  std::size_t max_file_bytes = std::size_t{1} << 30;
  DecodeOptions decode;
  // API groups of the caller's own kinds (e.g. "inventory.dra.example"):
  // top-level documents whose apiVersion is in one of them go to
  // ManifestSet::extensions as trees instead of failing with "no matches for
  // kind". Kinds of other groups are decoded (or rejected) as usual.
  std::vector<std::string> extension_groups;
  // Node, Pod and Namespace documents go to ManifestSet::unmodeled as written
  // instead of being decoded into dra's partial core model (dra convert: its
  // output must keep every field of them).
  bool raw_core_kinds = false;
};

// Reads every path ("-" = standard input). Unreadable files and syntax errors
// are collected in read_errors; decoding problems in each document's
// decoded.errors. Empty documents are skipped.
ManifestSet ReadManifests(const std::vector<std::string>& paths, const ManifestOptions& options);

// Parses one source's text (YAML stream, or JSON when it looks like JSON).
void ParseManifestText(const std::string& source, std::string_view text,
                       const ManifestOptions& options, ManifestSet& out);

}  // namespace dra::api

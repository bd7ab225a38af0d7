// Reading manifests the way kubectl -f does: files, directories of
// .yaml/.yml/.json files, and standard input; multi-document YAML; JSON.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dra/api/codec.h"
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

struct ManifestSet {
  std::vector<ManifestDocument> documents;
  std::vector<ExtensionDocument> extensions;
  std::vector<ManifestReadError> read_errors;
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
};

// Reads every path ("-" = standard input). Unreadable files and syntax errors
// are collected in read_errors; decoding problems in each document's
// decoded.errors. Empty documents are skipped.
ManifestSet ReadManifests(const std::vector<std::string>& paths, const ManifestOptions& options);

// Parses one source's text (YAML stream, or JSON when it looks like JSON).
void ParseManifestText(const std::string& source, std::string_view text,
                       const ManifestOptions& options, ManifestSet& out);

}  // namespace dra::api

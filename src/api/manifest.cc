#include "dra/api/manifest.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <system_error>
#include <thread>

#include "dra/json/json_stream.h"

namespace dra::api {
namespace {

namespace fs = std::filesystem;

bool IsManifestFile(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

Result<std::string> ReadAll(std::istream& in, std::size_t limit, const std::string& source) {
  std::string data;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    data.append(buf, static_cast<std::size_t>(in.gcount()));
    if (data.size() > limit) {
      return Error{source + ": larger than " + std::to_string(limit) + " bytes; refusing to read"};
    }
  }
  if (in.bad()) return Error{source + ": read error"};
  return data;
}

void ReadFile(const fs::path& path, const ManifestOptions& options, ManifestSet& out) {
  const std::string source = path.string();
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  if (!ec && size > options.max_file_bytes) {
    out.read_errors.push_back({source, "file is " + std::to_string(size) +
                                           " bytes, larger than the limit of " +
                                           std::to_string(options.max_file_bytes)});
    return;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.read_errors.push_back({source, std::string("cannot open: ") + std::strerror(errno)});
    return;
  }
  Result<std::string> data = ReadAll(in, options.max_file_bytes, source);
  if (!data.ok()) {
    out.read_errors.push_back({source, data.error()});
    return;
  }
  ParseManifestText(source, *data, options, out);
}

// The files of a directory, parsed and decoded side by side (a snapshot's
// kinds are one large file each) and appended in name order, so the result
// is the same as reading them one by one.
void ReadFiles(const std::vector<fs::path>& files, const ManifestOptions& options,
               ManifestSet& out) {
  const std::size_t threads =
      std::min<std::size_t>(files.size(), std::max(1u, std::thread::hardware_concurrency()));
  if (threads <= 1) {
    for (const fs::path& f : files) ReadFile(f, options, out);
    return;
  }
  std::vector<ManifestSet> parts(files.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++)
      ReadFile(files[i], options, parts[i]);
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  for (ManifestSet& part : parts) {
    std::move(part.documents.begin(), part.documents.end(), std::back_inserter(out.documents));
    std::move(part.extensions.begin(), part.extensions.end(), std::back_inserter(out.extensions));
    std::move(part.unmodeled.begin(), part.unmodeled.end(), std::back_inserter(out.unmodeled));
    std::move(part.read_errors.begin(), part.read_errors.end(),
              std::back_inserter(out.read_errors));
    std::move(part.sources.begin(), part.sources.end(), std::back_inserter(out.sources));
  }
}

void ReadPath(const std::string& arg, const ManifestOptions& options, ManifestSet& out) {
  if (arg == "-") {
    Result<std::string> data = ReadAll(std::cin, options.max_file_bytes, "-");
    if (!data.ok()) {
      out.read_errors.push_back({"-", data.error()});
      return;
    }
    ParseManifestText("-", *data, options, out);
    return;
  }
  fs::path path(arg);
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    out.read_errors.push_back({arg, "the path \"" + arg + "\" does not exist"});
    return;
  }
  if (!fs::is_directory(st)) {
    ReadFile(path, options, out);
    return;
  }
  std::vector<fs::path> files;
  auto collect = [&](const fs::directory_entry& e) {
    if (e.is_regular_file() && IsManifestFile(e.path())) files.push_back(e.path());
  };
  if (options.recursive) {
    for (const auto& e : fs::recursive_directory_iterator(path, ec)) collect(e);
  } else {
    for (const auto& e : fs::directory_iterator(path, ec)) collect(e);
  }
  if (ec) {
    out.read_errors.push_back({arg, "cannot list directory: " + ec.message()});
    return;
  }
  std::sort(files.begin(), files.end());
  ReadFiles(files, options, out);
}

// True when the group of the document's apiVersion is one of `groups`; then
// fills its apiVersion and kind.
bool IsExtension(const json::Value& doc, const std::vector<std::string>& groups,
                 std::string& api_version, std::string& kind) {
  if (groups.empty() || !doc.is_object()) return false;
  const json::Value* v = doc.Find("apiVersion");
  const json::Value* k = doc.Find("kind");
  if (v == nullptr || !v->is_string() || k == nullptr || !k->is_string()) return false;
  auto slash = v->text.find('/');
  if (slash == std::string::npos) return false;
  std::string_view group(v->text.data(), slash);
  if (std::find(groups.begin(), groups.end(), group) == groups.end()) return false;
  api_version = v->text;
  kind = k->text;
  return true;
}

std::string StringAt(const json::Value& object, std::string_view key) {
  const json::Value* v = object.Find(key);
  return v != nullptr && v->is_string() ? v->text : std::string();
}

// A `List` or `<Kind>List` with an array of items, as DecodeDocument expands
// it.
bool IsList(const json::Value& root) {
  if (!root.is_object()) return false;
  std::string kind = StringAt(root, "kind");
  const json::Value* items = root.Find("items");
  return items != nullptr && items->is_array() &&
         (kind == "List" || (kind.size() > 4 && kind.ends_with("List")));
}

// The document as an UnmodeledDocument when DecodeDocument does not model its
// kind but the server serves it (or the options keep core kinds raw);
// otherwise nullopt and `root` is left alone. Documents without a string apiVersion and kind are
// decoded, so that the decoder reports what is missing.
std::optional<UnmodeledDocument> AsUnmodeled(const std::string& source, int index,
                                             json::Value& root, const ManifestOptions& options) {
  if (!root.is_object() || IsList(root)) return std::nullopt;
  std::string api_version = StringAt(root, "apiVersion");
  std::string kind = StringAt(root, "kind");
  if (api_version.empty() || kind.empty()) return std::nullopt;
  bool raw_core = options.raw_core_kinds && api_version == "v1" &&
                  (kind == "Node" || kind == "Pod" || kind == "Namespace");
  if (!raw_core && IsDecodedKind(api_version, kind)) return std::nullopt;
  // Kinds the server does not serve are decoded, so that they fail as the
  // server fails them ("no matches for kind").
  const ServedKind* served = FindServedKind(api_version, kind);
  if (served == nullptr) return std::nullopt;
  UnmodeledDocument out{source, index, std::move(api_version), std::move(kind), {}, {}, served, {}};
  if (const json::Value* meta = root.Find("metadata"); meta != nullptr && meta->is_object()) {
    out.name = StringAt(*meta, "name");
    if (out.name.empty()) out.name = StringAt(*meta, "generateName");
    out.namespace_ = StringAt(*meta, "namespace");
  }
  out.root = std::move(root);
  return out;
}

void AddDocument(const std::string& source, int index, json::Position pos, json::Value root,
                 const ManifestOptions& options, const DecodeOptions& decode, ManifestSet& out) {
  std::string api_version, kind;
  if (IsExtension(root, options.extension_groups, api_version, kind)) {
    out.extensions.push_back(
        {source, index, std::move(api_version), std::move(kind), std::move(root)});
    return;
  }
  if (std::optional<UnmodeledDocument> raw = AsUnmodeled(source, index, root, options)) {
    out.unmodeled.push_back(std::move(*raw));
    return;
  }
  if (IsList(root)) {
    // kubectl sends each item of a List on its own: items of kinds dra does
    // not model leave the list, the rest are decoded as the list.
    // The last "items" member is the one Go keeps (json::Value::Find).
    json::Value* items = nullptr;
    for (auto it = root.members.rbegin(); items == nullptr && it != root.members.rend(); ++it) {
      if (it->key == "items") items = &it->value;
    }
    std::vector<json::Value> kept;
    for (json::Value& item : items->items) {
      if (std::optional<UnmodeledDocument> raw = AsUnmodeled(source, index, item, options)) {
        out.unmodeled.push_back(std::move(*raw));
      } else {
        kept.push_back(std::move(item));
      }
    }
    items->items = std::move(kept);
  }
  out.documents.push_back(ManifestDocument{source, index, pos, DecodeDocument(root, decode)});
}

// kubectl's choice between its two stream readers (YAMLOrJSONDecoder in
// k8s.io/apimachinery/pkg/util/yaml): JSON when the first byte after leading
// whitespace in the first 4096 bytes is '{', else YAML (so a top-level JSON
// array is a YAML document).
bool StartsAsJson(std::string_view text) {
  std::string_view head = text.substr(0, 4096);
  std::size_t first = head.find_first_not_of(" \t\n\r\v\f");
  return first != std::string_view::npos && head[first] == '{';
}

// Moves every position in `v` down by `lines` (a YAML text parsed on its own
// after the JSON documents before it).
void ShiftLines(json::Value& v, std::uint32_t lines) {
  if (v.pos.line > 0) v.pos.line += lines;
  for (json::Value& item : v.items) ShiftLines(item, lines);
  for (json::Member& m : v.members) {
    if (m.key_pos.line > 0) m.key_pos.line += lines;
    ShiftLines(m.value, lines);
  }
}

// The YAML documents of `text`, which starts on line 1 + `line_offset` of the
// source, numbered after the `documents_before` that came before it.
Status ParseYamlStream(const std::string& source, std::string_view text, std::uint32_t line_offset,
                       int documents_before, const ManifestOptions& options, ManifestSet& out) {
  Result<std::vector<json::YamlDocument>> docs = json::ParseYaml(text);
  if (!docs.ok()) return docs.failure();
  DecodeOptions decode = options.decode;
  decode.json_source = {};
  int index = documents_before;
  for (json::YamlDocument& doc : *docs) {
    ++index;
    if (doc.empty || doc.root.is_null()) continue;
    if (line_offset > 0) {
      ShiftLines(doc.root, line_offset);
      doc.start.line += line_offset;
    }
    AddDocument(source, index, doc.start, std::move(doc.root), options, decode, out);
  }
  return {};
}

// JSON values one after the other, with or without whitespace between them,
// as kubectl reads a stream that starts with '{'. When the first or second
// value does not parse, kubectl reads the rest of the stream as YAML (a JSON
// object followed by YAML documents is valid input); when that fails too, or
// a later value does not parse, the JSON error ends the source, after the
// documents before it.
void ParseJsonStream(const std::string& source, std::string_view text,
                     const ManifestOptions& options, ManifestSet& out) {
  DecodeOptions decode = options.decode;
  decode.json_source = text;
  json::JsonStream stream(text, {});
  int count = 0;
  while (!stream.AtEnd()) {
    json::Position pos = stream.position();
    std::size_t start = stream.offset();
    Result<json::Value> value = stream.Next();
    if (!value.ok()) {
      if (count > 1 ||
          !ParseYamlStream(source, text.substr(start), pos.line - 1, count, options, out).ok()) {
        out.read_errors.push_back({source, value.error()});
      }
      return;
    }
    ++count;
    if (value->is_null()) continue;
    AddDocument(source, count, pos, std::move(*value), options, decode, out);
  }
}

}  // namespace

void ParseManifestText(const std::string& source, std::string_view text,
                       const ManifestOptions& options, ManifestSet& out) {
  out.sources.push_back(source);
  if (StartsAsJson(text)) {
    ParseJsonStream(source, text, options, out);
    return;
  }
  if (Status s = ParseYamlStream(source, text, {}, 0, options, out); !s.ok()) {
    out.read_errors.push_back({source, s.error()});
  }
}

ManifestSet ReadManifests(const std::vector<std::string>& paths, const ManifestOptions& options) {
  ManifestSet out;
  for (const std::string& p : paths) ReadPath(p, options, out);
  return out;
}

}  // namespace dra::api

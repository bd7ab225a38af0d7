#include "dra/api/manifest.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <system_error>
#include <thread>

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
    std::move(part.read_errors.begin(), part.read_errors.end(),
              std::back_inserter(out.read_errors));
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

void AddDocument(const std::string& source, int index, json::Position pos, json::Value root,
                 const ManifestOptions& options, const DecodeOptions& decode, ManifestSet& out) {
  std::string api_version, kind;
  if (IsExtension(root, options.extension_groups, api_version, kind)) {
    out.extensions.push_back(
        {source, index, std::move(api_version), std::move(kind), std::move(root)});
    return;
  }
  out.documents.push_back(ManifestDocument{source, index, pos, DecodeDocument(root, decode)});
}

}  // namespace

void ParseManifestText(const std::string& source, std::string_view text,
                       const ManifestOptions& options, ManifestSet& out) {
  if (json::LooksLikeJson(text)) {
    Result<json::Value> doc = json::ParseJson(text);
    if (!doc.ok()) {
      out.read_errors.push_back({source, doc.error()});
      return;
    }
    DecodeOptions decode = options.decode;
    decode.json_source = text;
    json::Position pos = doc->pos;
    AddDocument(source, 1, pos, std::move(*doc), options, decode, out);
    return;
  }
  Result<std::vector<json::YamlDocument>> docs = json::ParseYaml(text);
  if (!docs.ok()) {
    out.read_errors.push_back({source, docs.error()});
    return;
  }
  DecodeOptions decode = options.decode;
  decode.json_source = {};
  int index = 0;
  for (json::YamlDocument& doc : *docs) {
    ++index;
    if (doc.empty || doc.root.is_null()) continue;
    AddDocument(source, index, doc.start, std::move(doc.root), options, decode, out);
  }
}

ManifestSet ReadManifests(const std::vector<std::string>& paths, const ManifestOptions& options) {
  ManifestSet out;
  for (const std::string& p : paths) ReadPath(p, options, out);
  return out;
}

}  // namespace dra::api

#include "dra/api/manifest.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <system_error>

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
  for (const fs::path& f : files) ReadFile(f, options, out);
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
    ManifestDocument d{source, 1, doc->pos, DecodeDocument(*doc, decode)};
    out.documents.push_back(std::move(d));
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
  for (const json::YamlDocument& doc : *docs) {
    ++index;
    if (doc.empty || doc.root.is_null()) continue;
    ManifestDocument d{source, index, doc.start, DecodeDocument(doc.root, decode)};
    out.documents.push_back(std::move(d));
  }
}

ManifestSet ReadManifests(const std::vector<std::string>& paths, const ManifestOptions& options) {
  ManifestSet out;
  for (const std::string& p : paths) ReadPath(p, options, out);
  return out;
}

}  // namespace dra::api

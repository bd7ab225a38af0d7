// WriteSnapshot: one core/v1 List per kind.
#include "cli/snapshot_writer.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <variant>

#include "dra/api/codec.h"
#include "dra/util/system_error.h"

namespace dra::cli {
namespace {

namespace fs = std::filesystem;

// One kind as a core/v1 List, one item per line (compact JSON: the files of
// a large cluster load several times faster than YAML).
template <class T>
Result<std::string> ListJson(const std::vector<T>& objects) {
  std::string out = "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[";
  for (std::size_t i = 0; i < objects.size(); ++i) {
    Result<std::string> item = api::EncodeObject(api::Object(objects[i]), api::ApiVersion::kV1);
    if (!item.ok()) return item.failure();
    out += i == 0 ? "\n" : ",\n";
    out += *item;
  }
  out += "\n]}\n";
  return out;
}

// Writes through a temporary file and a rename, so a reader never sees half
// a file and an old snapshot stays whole when writing fails.
Status WriteFile(const fs::path& path, const std::string& text) {
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return ErrnoError("cannot write " + tmp.string(), errno);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
    f.flush();
    if (!f) return ErrnoError("cannot write " + tmp.string(), errno);
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return Error{"cannot write " + path.string() + ": " + ec.message()};
  }
  return {};
}

}  // namespace

Result<std::string> WriteSnapshot(const std::string& dir, const scheduler::Cluster& o,
                                  const std::vector<api::Namespace>& namespaces) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    return Error{"cannot create directory " + dir + ": " +
                 (ec ? ec.message() : std::string("not a directory"))};
  }
  struct File {
    const char* name;
    Result<std::string> text;
    std::size_t count;
  };
  std::vector<File> files;
  files.push_back({"namespaces.json", ListJson(namespaces), namespaces.size()});
  files.push_back({"nodes.json", ListJson(o.nodes), o.nodes.size()});
  files.push_back({"deviceclasses.json", ListJson(o.classes), o.classes.size()});
  files.push_back({"resourceslices.json", ListJson(o.slices), o.slices.size()});
  files.push_back({"devicetaintrules.json", ListJson(o.taint_rules), o.taint_rules.size()});
  files.push_back({"resourceclaimtemplates.json", ListJson(o.templates), o.templates.size()});
  files.push_back({"resourceclaims.json", ListJson(o.claims), o.claims.size()});
  files.push_back({"pods.json", ListJson(o.pods), o.pods.size()});
  std::string summary;
  for (File& f : files) {
    if (!f.text.ok()) return f.text.failure().WithPrefix(std::string(f.name) + ": ");
    if (Status s = WriteFile(fs::path(dir) / f.name, *f.text); !s.ok()) return s.failure();
    std::string kind = f.name;
    kind.resize(kind.size() - 5);  // ".json"
    summary += (summary.empty() ? "" : ", ") + std::to_string(f.count) + " " + kind;
  }
  return summary;
}

}  // namespace dra::cli

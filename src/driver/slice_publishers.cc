// The file and stream ResourceSlice publishers.
#include <unistd.h>

#include <set>

#include "dra/api/codec.h"
#include "dra/api/manifest.h"
#include "dra/driver/cdi.h"
#include "dra/driver/slice_publisher.h"
#include "dra/json/value.h"
#include "dra/util/random.h"

namespace dra::driver {
namespace {

// Gives unnamed slices a name from their generateName as the API server
// would (util::GenerateName), unique within the set.
void AssignNames(std::vector<api::ResourceSlice>& slices) {
  std::set<std::string> names;
  for (const auto& s : slices) names.insert(s.metadata.name);
  util::SplitMix64 rng(util::RandomSeed());
  for (auto& s : slices) {
    if (!s.metadata.name.empty()) continue;
    do {
      s.metadata.name = util::GenerateName(s.metadata.generate_name, rng);
    } while (!names.insert(s.metadata.name).second);
  }
}

Result<std::string> EncodeYaml(const std::vector<api::ResourceSlice>& slices) {
  std::string out;
  for (const auto& s : slices) {
    auto encoded = api::EncodeObject(s, api::ApiVersion::kV1);
    if (!encoded.ok()) return encoded.failure();
    auto tree = json::ParseJson(*encoded);
    if (!tree.ok()) return tree.failure();
    out += "---\n" + json::ToYaml(*tree);
    if (out.back() != '\n') out += '\n';
  }
  return out;
}

Result<std::string> EncodeJsonList(const std::vector<api::ResourceSlice>& slices) {
  std::string out = R"({"apiVersion":"v1","kind":"List","items":[)";
  for (std::size_t i = 0; i < slices.size(); ++i) {
    auto encoded = api::EncodeObject(slices[i], api::ApiVersion::kV1);
    if (!encoded.ok()) return encoded.failure();
    if (i > 0) out += ',';
    out += *encoded;
  }
  out += "]}";
  auto tree = json::ParseJson(out);
  if (!tree.ok()) return tree.failure();
  return json::ToIndentedJson(*tree) + "\n";
}

class FilePublisher final : public SlicePublisher {
 public:
  FilePublisher(std::string path, std::string format)
      : path_(std::move(path)), format_(std::move(format)) {}

  Result<std::vector<api::ResourceSlice>> List() override {
    std::vector<api::ResourceSlice> out;
    if (access(path_.c_str(), F_OK) != 0) return out;
    api::ManifestOptions options;
    options.decode.apply_defaults = false;
    auto set = api::ReadManifests({path_}, options);
    for (const auto& e : set.read_errors) return Error{e.source + ": " + e.message};
    for (const auto& doc : set.documents) {
      for (const auto& e : doc.decoded.errors) return Error{path_ + ": " + e.message};
      for (const auto& o : doc.decoded.objects) {
        if (const auto* slice = std::get_if<api::ResourceSlice>(&o.object)) out.push_back(*slice);
      }
    }
    return out;
  }

  Status Publish(const std::vector<api::ResourceSlice>& slices) override {
    if (format_ != "yaml" && format_ != "json") {
      return Error{"resource slice format " + format_ + ": must be yaml or json"};
    }
    std::vector<api::ResourceSlice> named = slices;
    AssignNames(named);
    auto text = format_ == "json" ? EncodeJsonList(named) : EncodeYaml(named);
    if (!text.ok()) return text.failure();
    auto slash = path_.rfind('/');
    std::string dir =
        slash == std::string::npos ? "." : (slash == 0 ? "/" : path_.substr(0, slash));
    std::string name = slash == std::string::npos ? path_ : path_.substr(slash + 1);
    return cdi::WriteFileAtomic(dir, name, *text, 0644);
  }

 private:
  std::string path_;
  std::string format_;
};

class StreamPublisher final : public SlicePublisher {
 public:
  explicit StreamPublisher(std::ostream& out) : out_(out) {}

  Result<std::vector<api::ResourceSlice>> List() override { return last_; }

  Status Publish(const std::vector<api::ResourceSlice>& slices) override {
    std::vector<api::ResourceSlice> named = slices;
    AssignNames(named);
    auto text = EncodeYaml(named);
    if (!text.ok()) return text.failure();
    out_ << *text << std::flush;
    if (!out_) return Error{"write resource slices: output stream failed"};
    last_ = std::move(named);
    return {};
  }

 private:
  std::ostream& out_;
  std::vector<api::ResourceSlice> last_;
};

}  // namespace

std::unique_ptr<SlicePublisher> NewFileSlicePublisher(std::string path, std::string format) {
  return std::make_unique<FilePublisher>(std::move(path), std::move(format));
}

std::unique_ptr<SlicePublisher> NewStreamSlicePublisher(std::ostream& out) {
  return std::make_unique<StreamPublisher>(out);
}

}  // namespace dra::driver

#include "driver/example/gpu_config.h"

#include <charconv>
#include <set>

#include "dra/json/value.h"

namespace dra::driver::example {
namespace {

// Rejects duplicate and unknown keys of `object` at `path`.
Status CheckMembers(const json::Value& object, std::string_view path,
                    const std::set<std::string_view>& known) {
  std::set<std::string_view> seen;
  for (const json::Member& m : object.members) {
    if (!seen.insert(m.key).second) {
      return Error{"GpuConfig: duplicate field \"" + std::string(path) + m.key + "\""};
    }
    if (!known.contains(m.key)) {
      return Error{"GpuConfig: unknown field \"" + std::string(path) + m.key + "\""};
    }
  }
  return {};
}

Result<std::string> StringField(const json::Value& object, std::string_view key,
                                std::string_view path) {
  const json::Value* v = object.Find(key);
  if (v == nullptr) return std::string();
  if (!v->is_string()) {
    return Error{"GpuConfig: " + std::string(path) + std::string(key) + " must be a string"};
  }
  return v->text;
}

Result<GpuConfig> Decode(const json::Value& root) {
  GpuConfig config;
  if (!root.is_object()) return Error{"GpuConfig: parameters must be a JSON object"};
  if (Status s = CheckMembers(root, "", {"apiVersion", "kind", "sharing"}); !s) return s.failure();
  Result<std::string> api_version = StringField(root, "apiVersion", "");
  Result<std::string> kind = StringField(root, "kind", "");
  if (!api_version) return api_version.failure();
  if (!kind) return kind.failure();
  if (*api_version != kGpuConfigApiVersion || *kind != "GpuConfig") {
    return Error{"unsupported config kind \"" + *kind + "\" in version \"" + *api_version +
                 "\" (want GpuConfig in " + std::string(kGpuConfigApiVersion) + ")"};
  }
  const json::Value* sharing = root.Find("sharing");
  if (sharing == nullptr || sharing->is_null()) return config;
  if (!sharing->is_object()) return Error{"GpuConfig: sharing must be an object"};
  if (Status s = CheckMembers(*sharing, "sharing.",
                              {"strategy", "timeSlicingConfig", "spacePartitioningConfig"});
      !s) {
    return s.failure();
  }
  Result<std::string> strategy = StringField(*sharing, "strategy", "sharing.");
  if (!strategy) return strategy.failure();
  if (!strategy->empty()) config.strategy = *strategy;
  const json::Value* ts = sharing->Find("timeSlicingConfig");
  const json::Value* sp = sharing->Find("spacePartitioningConfig");
  if (ts != nullptr && ts->is_null()) ts = nullptr;
  if (sp != nullptr && sp->is_null()) sp = nullptr;
  if (config.strategy == "TimeSlicing") {
    if (sp != nullptr) {
      return Error{
          "GpuConfig: sharing.spacePartitioningConfig is not allowed with strategy TimeSlicing"};
    }
    if (ts != nullptr) {
      if (!ts->is_object()) return Error{"GpuConfig: sharing.timeSlicingConfig must be an object"};
      if (Status s = CheckMembers(*ts, "sharing.timeSlicingConfig.", {"interval"}); !s) {
        return s.failure();
      }
      Result<std::string> interval = StringField(*ts, "interval", "sharing.timeSlicingConfig.");
      if (!interval) return interval.failure();
      if (!interval->empty()) config.interval = *interval;
    }
    if (config.interval != "Default" && config.interval != "Short" && config.interval != "Medium" &&
        config.interval != "Long") {
      return Error{"GpuConfig: unknown time-slice interval \"" + config.interval +
                   "\" (want Default, Short, Medium or Long)"};
    }
  } else if (config.strategy == "SpacePartitioning") {
    if (ts != nullptr) {
      return Error{
          "GpuConfig: sharing.timeSlicingConfig is not allowed with strategy SpacePartitioning"};
    }
    if (sp != nullptr) {
      if (!sp->is_object())
        return Error{"GpuConfig: sharing.spacePartitioningConfig must be an object"};
      if (Status s = CheckMembers(*sp, "sharing.spacePartitioningConfig.", {"partitionCount"});
          !s) {
        return s.failure();
      }
      if (const json::Value* n = sp->Find("partitionCount"); n != nullptr) {
        std::int64_t count = 0;
        auto [end, ec] = std::from_chars(n->text.data(), n->text.data() + n->text.size(), count);
        if (n->kind != json::Kind::kNumber || ec != std::errc() ||
            end != n->text.data() + n->text.size()) {
          return Error{
              "GpuConfig: sharing.spacePartitioningConfig.partitionCount must be an integer"};
        }
        if (count < 0) {
          return Error{
              "GpuConfig: sharing.spacePartitioningConfig.partitionCount must be >= 0, not " +
              n->text};
        }
        config.partition_count = count;
      }
    }
  } else {
    return Error{"GpuConfig: unknown sharing strategy \"" + config.strategy +
                 "\" (want TimeSlicing or SpacePartitioning)"};
  }
  return config;
}

}  // namespace

Result<GpuConfig> ParseGpuConfig(std::string_view text) {
  Result<json::Value> root = json::ParseJson(text);
  if (!root) return root.failure().WithPrefix("GpuConfig: ");
  return Decode(*root);
}

Result<GpuConfig> EffectiveGpuConfig(const std::vector<std::string>& configs) {
  GpuConfig effective;
  // Every config must be valid, even one a later config overrides.
  for (const std::string& text : configs) {
    Result<GpuConfig> c = ParseGpuConfig(text);
    if (!c) return c;
    effective = *c;
  }
  return effective;
}

}  // namespace dra::driver::example

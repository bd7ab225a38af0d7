// core/v1 Events for the driver SDK.
#include "driver/kube_event_recorder.h"

#include <ctime>

#include "dra/json/build.h"
#include "dra/json/value.h"
#include "dra/kube/resource_client.h"

namespace dra::driver {
namespace {

using json::Put;
using json::Str;

std::string Rfc3339(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

KubeEventRecorder::KubeEventRecorder(std::shared_ptr<kube::Client> client, EventTarget target,
                                     std::string component, std::string host)
    : client_(std::move(client)),
      target_(std::move(target)),
      component_(std::move(component)),
      host_(std::move(host)) {}

Status KubeEventRecorder::Warn(const std::string& reason, const std::string& message) {
  if (target_.name.empty()) return {};
  auto now = std::chrono::steady_clock::now();
  {
    MutexLock lock(mu_);
    auto [it, inserted] = last_.try_emplace(reason + "\n" + message, now);
    if (!inserted) {
      if (now - it->second < std::chrono::minutes(1)) return {};
      it->second = now;
    }
  }
  // The Event name is the object's name and the time in nanoseconds (hex),
  // as client-go's recorder names them; messages are cut to the API's 1 KiB.
  auto wall = std::chrono::system_clock::now();
  auto nanos =
      std::chrono::duration_cast<std::chrono::nanoseconds>(wall.time_since_epoch()).count();
  char hex[32];
  std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(nanos));
  std::string stamp = Rfc3339(std::chrono::system_clock::to_time_t(wall));
  std::string text = message.size() > 1024 ? message.substr(0, 1021) + "..." : message;

  json::Value event = json::Value::Object();
  Put(event, "apiVersion", Str("v1"));
  Put(event, "kind", Str("Event"));
  json::Value meta = json::Value::Object();
  Put(meta, "name", Str(target_.name + "." + hex));
  Put(meta, "namespace", Str(target_.namespace_));
  Put(event, "metadata", std::move(meta));
  json::Value involved = json::Value::Object();
  Put(involved, "apiVersion", Str(target_.api_version));
  Put(involved, "kind", Str(target_.kind));
  Put(involved, "name", Str(target_.name));
  if (!target_.uid.empty()) Put(involved, "uid", Str(target_.uid));
  Put(event, "involvedObject", std::move(involved));
  Put(event, "reason", Str(reason));
  Put(event, "message", Str(text));
  Put(event, "type", Str("Warning"));
  json::Value source = json::Value::Object();
  Put(source, "component", Str(component_));
  if (!host_.empty()) Put(source, "host", Str(host_));
  Put(event, "source", std::move(source));
  Put(event, "firstTimestamp", Str(stamp));
  Put(event, "lastTimestamp", Str(stamp));
  Put(event, "count", json::Value::Number("1"));
  Put(event, "reportingComponent", Str(component_));
  Put(event, "reportingInstance", Str(host_));
  kube::ObjectClient objects(client_);
  auto created = objects.Create(kube::Events(), target_.namespace_, event);
  if (!created) return created.failure().WithPrefix("post Event: ");
  return {};
}

}  // namespace dra::driver

// Warning Events about an object (core/v1 Event, as client-go's recorder
// writes them), rate-limited per message so that a failure retried every few
// seconds is one Event a minute, not a flood.
//
// Thread-safety: Warn may be called from several threads at once.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "dra/driver/kubernetes.h"
#include "dra/kube/client.h"
#include "dra/util/mutex.h"

namespace dra::driver {

class KubeEventRecorder {
 public:
  KubeEventRecorder(std::shared_ptr<kube::Client> client, EventTarget target, std::string component,
                    std::string host);

  // Posts a Warning Event unless the same reason and message were posted in
  // the last minute. Failures to post are returned, not retried.
  Status Warn(const std::string& reason, const std::string& message);

 private:
  std::shared_ptr<kube::Client> client_;
  EventTarget target_;
  std::string component_;
  std::string host_;
  Mutex mu_;
  // When each reason and message was last posted.
  std::map<std::string, std::chrono::steady_clock::time_point> last_ DRA_GUARDED_BY(mu_);
};

}  // namespace dra::driver

// The gRPC services a plugin serves: DRAPlugin v1 and v1beta1 (one
// implementation, v1beta1 by conversion), DRAResourceHealth v1 and v1alpha1,
// and pluginregistration.Registration.
#pragma once

#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/service_type.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dra/driver/driver.h"
#include "dra/util/mutex.h"
#include "driver/claim_preparer.h"

namespace dra::driver {

std::unique_ptr<grpc::Service> NewDraV1Service(ClaimPreparer& preparer);
std::unique_ptr<grpc::Service> NewDraV1beta1Service(ClaimPreparer& preparer);

// Wakes health streams on changes and at shutdown. Thread-safety: every
// method may be called from any thread at any time.
class HealthBroadcast {
 public:
  void Changed();
  void Close();
  // Waits until a change after `seen`, Close, or `period`; returns the
  // current change counter. `closed` tells whether Close happened.
  std::uint64_t Wait(std::uint64_t seen, std::chrono::milliseconds period, bool& closed);
  std::uint64_t version();

 private:
  Mutex mu_;
  CondVar cv_;
  std::uint64_t version_ DRA_GUARDED_BY(mu_) = 0;
  bool closed_ DRA_GUARDED_BY(mu_) = false;
};

struct HealthServiceConfig {
  Driver* driver = nullptr;
  HealthBroadcast* broadcast = nullptr;
  std::string node_name;  // pool of entries without one
  std::chrono::milliseconds resend_period{10'000};
};

std::unique_ptr<grpc::Service> NewHealthV1Service(const HealthServiceConfig& config);
std::unique_ptr<grpc::Service> NewHealthV1alpha1Service(const HealthServiceConfig& config);

// Cuts `message` to at most 1024 bytes without splitting a UTF-8 sequence.
std::string TruncateHealthMessage(const std::string& message);

struct RegistrationInfo {
  std::string driver_name;
  std::string endpoint;
  std::vector<std::string> supported_versions;
};

// Records the kubelet's NotifyRegistrationStatus answers. Thread-safety: both
// methods may be called from any thread at any time.
class RegistrationLog {
 public:
  void Record(bool registered, const std::string& error);
  std::string Describe() const;

 private:
  mutable Mutex mu_;
  std::string status_ DRA_GUARDED_BY(mu_);
};

std::unique_ptr<grpc::Service> NewRegistrationService(RegistrationInfo info, RegistrationLog& log);

}  // namespace dra::driver

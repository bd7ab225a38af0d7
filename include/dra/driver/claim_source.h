// Where the SDK gets ResourceClaims. The kubelet sends only namespace, name
// and UID (k8s.io/kubelet pkg/apis/dra/v1 Claim); the full object (allocation, configs, share IDs)
// comes from here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dra/api/resource.h"
#include "dra/util/result.h"

namespace dra::driver {

class ClaimSource {
 public:
  virtual ~ClaimSource() = default;
  // The current ResourceClaim namespace/name. Errors say what is wrong
  // ("ResourceClaim ns/name not found in <dir>"). The SDK checks UID,
  // allocation and driver itself. Called concurrently.
  virtual Result<api::ResourceClaim> Get(const std::string& namespace_,
                                         const std::string& name) = 0;
  // Whether claim namespace/name with this UID still exists: false only when
  // the source knows it is gone (not found, or replaced by a claim with
  // another UID); an error when it cannot tell. At start the SDK cleans up
  // prepared claims that are gone. The default cannot tell (true).
  virtual Result<bool> Exists(const std::string& namespace_, const std::string& name,
                              const std::string& uid) {
    (void)namespace_, (void)name, (void)uid;
    return true;
  }
};

// Writes a driver's entries of a claim's status.devices (conditions, data,
// networkData). Called concurrently for different claims.
class DeviceStatusWriter {
 public:
  virtual ~DeviceStatusWriter() = default;
  // Replaces this driver's entries with `devices` (empty: removes them).
  virtual Status Write(const std::string& namespace_, const std::string& name,
                       const std::vector<api::AllocatedDeviceStatus>& devices) = 0;
};

// Reads ResourceClaim manifests (YAML or JSON, any resource.k8s.io version,
// multi-document files, Lists) from a file or a directory of .yaml/.yml/.json
// files on every Get, so edits show up without a restart. Documents of other
// kinds are ignored; a file that cannot be parsed is an error only when the
// claim is not found elsewhere.
std::unique_ptr<ClaimSource> NewManifestClaimSource(std::string path);

}  // namespace dra::driver

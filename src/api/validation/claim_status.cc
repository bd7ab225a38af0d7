#include "api/validation/claim_status.h"

#include <algorithm>

#include "api/validation/allocation.h"
#include "api/validation/bad_values.h"
#include "api/validation/formats.h"
#include "api/validation/interface_address.h"
#include "api/validation/list_checks.h"
#include "api/validation/request_reference.h"
#include "api/validation/resource_limits.h"

namespace dra::api::validation {
namespace {

constexpr std::string_view kReservedForPath = "status.reservedFor";
constexpr std::string_view kDevicesPath = "status.devices";

bool SameConsumer(const ResourceClaimConsumerReference& a,
                  const ResourceClaimConsumerReference& b) {
  return a.uid == b.uid;
}

// status.devices is a map list keyed by (driver, device, pool, shareID).
bool SameDevice(const AllocatedDeviceStatus& a, const AllocatedDeviceStatus& b) {
  return a.driver == b.driver && a.device == b.device && a.pool == b.pool &&
         a.share_id == b.share_id;
}

// Declarative rules skip an entry whose stored counterpart (the first with
// the same key) is equal to it.
bool Unchanged(const AllocatedDeviceStatus& device, const List<AllocatedDeviceStatus>& old) {
  auto stored = std::find_if(old.begin(), old.end(), [&device](const AllocatedDeviceStatus& o) {
    return SameDevice(o, device);
  });
  return stored != old.end() && *stored == device;
}

// The internal structured.SharedDeviceID (no share ID reads as "").
std::string SharedDeviceIdJson(const AllocatedDeviceStatus& device) {
  return "{\"Driver\":" + GoJsonString(device.driver) + ",\"Pool\":" + GoJsonString(device.pool) +
         ",\"Device\":" + GoJsonString(device.device) +
         ",\"ShareID\":" + GoJsonString(device.share_id.value_or("")) + "}";
}

bool IsAllocated(const AllocatedDeviceStatus& device,
                 const std::optional<AllocationResult>& allocation) {
  if (!allocation) return false;
  const auto& results = allocation->devices.results;
  return std::any_of(results.begin(), results.end(), [&device](const auto& result) {
    return result.driver == device.driver && result.pool == device.pool &&
           result.device == device.device &&
           result.share_id.value_or("") == device.share_id.value_or("");
  });
}

void ValidateConsumer(const ResourceClaimConsumerReference& consumer, const std::string& path,
                      FieldErrors& errors) {
  if (consumer.resource.empty()) errors.push_back(Required(Child(path, "resource")));
  if (consumer.name.empty()) errors.push_back(Required(Child(path, "name")));
  if (consumer.uid.empty()) errors.push_back(Required(Child(path, "uid")));
}

// `declarative_skipped`: the entry is unchanged, so the size and uniqueness
// rules are checked here instead.
void ValidateNetworkData(const NetworkDeviceData& data, const std::string& path,
                         bool declarative_skipped, FieldErrors& errors) {
  if (declarative_skipped) {
    if (data.interface_name.size() > kNetworkDeviceDataInterfaceNameMaxLength) {
      errors.push_back(
          TooLong(Child(path, "interfaceName"), kNetworkDeviceDataInterfaceNameMaxLength));
    }
    if (data.hardware_address.size() > kNetworkDeviceDataHardwareAddressMaxLength) {
      errors.push_back(
          TooLong(Child(path, "hardwareAddress"), kNetworkDeviceDataHardwareAddressMaxLength));
    }
  }
  const std::string ips = Child(path, "ips");
  if (data.ips.size() > kNetworkDeviceDataMaxIPs) {
    if (declarative_skipped)
      ExceedsMaxItems(data.ips.size(), kNetworkDeviceDataMaxIPs, ips, errors);
    return;
  }
  for (std::size_t i = 0; i < data.ips.size(); ++i) {
    ValidateInterfaceAddress(data.ips[i], Index(ips, i), errors);
  }
  if (declarative_skipped) {
    ReportDuplicates(
        data.ips, ips, [](const std::string& a, const std::string& b) { return a == b; },
        [](const std::string& ip) { return GoQuote(ip); }, errors);
  }
}

// The shareID has only declarative rules (and no fallback for unchanged
// entries, whose upstream texts come from a UUID library).
void ValidateDevice(const AllocatedDeviceStatus& device, const std::string& path,
                    const std::optional<AllocationResult>& allocation, bool declarative_skipped,
                    FieldErrors& errors) {
  ValidateDriverName(device.driver, Child(path, "driver"), errors);
  ValidatePoolName(device.pool, Child(path, "pool"), errors);
  ValidateDnsLabel(device.device, Child(path, "device"), errors);
  if (!IsAllocated(device, allocation)) {
    errors.push_back(
        Invalid(path, SharedDeviceIdJson(device), "must be an allocated device in the claim"));
  }
  const std::string conditions = Child(path, "conditions");
  ExceedsMaxItems(device.conditions.size(), kAllocatedDeviceStatusMaxConditions, conditions,
                  errors);
  ValidateConditions(device.conditions, conditions, errors);
  if (device.data && !device.data->empty()) {
    ValidateRawExtension(*device.data, Child(path, "data"), kAllocatedDeviceStatusDataMaxLength,
                         errors);
  }
  if (device.network_data) {
    ValidateNetworkData(*device.network_data, Child(path, "networkData"), declarative_skipped,
                        errors);
  }
}

void ValidateNetworkDataDeclarative(const NetworkDeviceData& data, const std::string& path,
                                    FieldErrors& errors) {
  if (data.interface_name.size() > kNetworkDeviceDataInterfaceNameMaxLength) {
    errors.push_back(
        TooLong(Child(path, "interfaceName"), kNetworkDeviceDataInterfaceNameMaxLength));
  }
  const std::string ips = Child(path, "ips");
  if (!ExceedsMaxItems(data.ips.size(), kNetworkDeviceDataMaxIPs, ips, errors)) {
    ReportDuplicates(
        data.ips, ips, [](const std::string& a, const std::string& b) { return a == b; },
        [](const std::string& ip) { return GoQuote(ip); }, errors);
  }
  if (data.hardware_address.size() > kNetworkDeviceDataHardwareAddressMaxLength) {
    errors.push_back(
        TooLong(Child(path, "hardwareAddress"), kNetworkDeviceDataHardwareAddressMaxLength));
  }
}

}  // namespace

void ValidateClaimStatus(const ResourceClaim& claim, const ResourceClaim& old,
                         FieldErrors& errors) {
  const ResourceClaimStatus& status = claim.status;
  const ResourceClaimStatus& old_status = old.status;

  const std::string reserved_for(kReservedForPath);
  const bool reserved_for_unchanged = status.reserved_for == old_status.reserved_for;
  if (status.reserved_for.size() > kResourceClaimReservedForMaxSize) {
    if (reserved_for_unchanged) {
      ExceedsMaxItems(status.reserved_for.size(), kResourceClaimReservedForMaxSize, reserved_for,
                      errors);
    }
  } else {
    for (std::size_t i = 0; i < status.reserved_for.size(); ++i) {
      ValidateConsumer(status.reserved_for[i], Index(reserved_for, i), errors);
    }
    if (reserved_for_unchanged) {
      ReportDuplicates(
          status.reserved_for, reserved_for, SameConsumer,
          [](const ResourceClaimConsumerReference& c) { return GoQuote(c.uid); }, errors);
    }
  }

  const std::string devices(kDevicesPath);
  for (std::size_t i = 0; i < status.devices.size(); ++i) {
    ValidateDevice(status.devices[i], Index(devices, i), status.allocation,
                   Unchanged(status.devices[i], old_status.devices), errors);
  }
  if (status.devices == old_status.devices) {
    ReportDuplicates(status.devices, devices, SameDevice, SharedDeviceIdJson, errors);
  }

  if (!status.reserved_for.empty()) {
    if (!status.allocation) {
      errors.push_back(Forbidden(reserved_for, "may not be specified when `allocated` is not set"));
    } else if (claim.metadata.deletion_timestamp.set) {
      const auto& stored = old_status.reserved_for;
      const bool adds = std::any_of(
          status.reserved_for.begin(), status.reserved_for.end(), [&stored](const auto& entry) {
            return std::find(stored.begin(), stored.end(), entry) == stored.end();
          });
      if (adds) {
        errors.push_back(Forbidden(reserved_for,
                                   "new entries may not be added while `deallocationRequested` "
                                   "or `deletionTimestamp` are set"));
      }
    }
  }

  // A stored allocation is immutable (a declarative rule); only a new one is
  // checked, because validation of new results is stricter than it once was.
  if (status.allocation && !old_status.allocation) {
    ValidateAllocation(*status.allocation, RequestNames(claim.spec.devices), errors);
  }
}

void ValidateClaimStatusDeclarative(const ResourceClaimStatus& status,
                                    const ResourceClaimStatus& old, ApiVersion version,
                                    FieldErrors& errors) {
  if (status.allocation != old.allocation) {
    if (status.allocation && old.allocation) {
      errors.push_back(Invalid("status.allocation", "null", "field cannot be modified once set"));
    } else if (status.allocation) {
      ValidateAllocationDeclarative(*status.allocation, errors);
    }
  }

  const std::string reserved_for(kReservedForPath);
  if (status.reserved_for != old.reserved_for &&
      !ExceedsMaxItems(status.reserved_for.size(), kResourceClaimReservedForMaxSize, reserved_for,
                       errors)) {
    ReportDuplicates(
        status.reserved_for, reserved_for, SameConsumer,
        [version](const ResourceClaimConsumerReference& c) { return VersionedJson(c, version); },
        errors);
  }

  if (status.devices == old.devices) return;
  const std::string devices(kDevicesPath);
  ReportDuplicates(
      status.devices, devices, SameDevice,
      [version](const AllocatedDeviceStatus& d) { return VersionedJson(d, version); }, errors);
  for (std::size_t i = 0; i < status.devices.size(); ++i) {
    const AllocatedDeviceStatus& device = status.devices[i];
    if (Unchanged(device, old.devices)) continue;
    const std::string path = Index(devices, i);
    if (device.share_id) ValidateUuid(*device.share_id, Child(path, "shareID"), errors);
    if (device.network_data) {
      ValidateNetworkDataDeclarative(*device.network_data, Child(path, "networkData"), errors);
    }
  }
}

}  // namespace dra::api::validation

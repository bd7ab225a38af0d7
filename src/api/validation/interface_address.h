// Interface addresses in CIDR form (status.devices[].networkData.ips), checked
// as apimachinery's IsValidInterfaceAddress does: parsed like Go's
// net.ParseCIDR but accepting leading zeros in IPv4 octets ("sloppy"), then
// compared with the canonical text `<address>/<prefix length>`.
#pragma once

#include <string>
#include <string_view>

#include "dra/api/field_error.h"

namespace dra::api::validation {

void ValidateInterfaceAddress(std::string_view value, const std::string& field,
                              FieldErrors& errors);

}  // namespace dra::api::validation

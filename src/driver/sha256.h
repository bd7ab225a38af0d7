// SHA-256 (FIPS 180-4) and unpadded base64url, for the rolling-update socket
// names of k8s.io/dynamic-resource-allocation kubeletplugin/draplugin.go.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace dra::driver {

std::array<std::uint8_t, 32> Sha256(std::string_view data);
std::string Base64UrlNoPadding(const std::uint8_t* data, std::size_t size);

}  // namespace dra::driver

// Share IDs of multi-allocatable device allocations: random RFC 4122 version 4
// UUIDs in lowercase text, as upstream generates them: a fresh one for every tentative pick.
#pragma once

#include <string>

namespace dra::allocator {

std::string NewShareId();

}  // namespace dra::allocator

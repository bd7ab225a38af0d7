#include "allocator/share_id.h"

#include "dra/util/random.h"

namespace dra::allocator {

std::string NewShareId() {
  // Share IDs need only be unique: each thread draws from its own generator,
  // seeded from the operating system.
  thread_local util::SplitMix64 rng{util::RandomSeed()};
  return util::UuidV4(rng);
}

}  // namespace dra::allocator

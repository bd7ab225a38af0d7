// The simulated GPUs of `dra driver example` (after
// kubernetes-sigs/dra-example-driver): an
// H100-like GPU with the attribute names NVIDIA's driver publishes, so that
// CEL selectors written for real GPUs work unchanged, optionally offered as
// MIG-style partitions that share counters, or as a shared device with
// consumable capacity.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "dra/api/resource.h"
#include "dra/driver/driver.h"

namespace dra::driver::example {

// One GPU-instance profile of the simulated GPU. Values follow an H100 80GB
// with memory rounded to whole GiB; the GPU has 8 memory slices.
struct SimulatedMigProfile {
  std::string name;  // "1g.10gb"
  int profile_id = 0;
  int memory_slices = 0;              // placement size
  std::vector<int> placement_starts;  // first memory slice of each placement
  int multiprocessors = 0;
  int copy_engines = 0;
  int decoders = 0;
  int encoders = 0;
  int jpeg_engines = 0;
  int ofa_engines = 0;
  std::int64_t memory_mib = 0;
};

const std::vector<SimulatedMigProfile>& SimulatedMigProfiles();

inline constexpr int kSimulatedMemorySlices = 8;
inline constexpr std::int64_t kSimulatedGpuMemoryBytes = 80LL << 30;
inline constexpr int kMaxSimulatedGpus = 1024;

// Identity of one simulated GPU; deterministic per node name and index, so a
// restarted driver publishes the same devices.
struct SimulatedGpu {
  int index = 0;
  std::string name;        // "gpu-<index>"
  std::string uuid;        // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  std::string pci_bus_id;  // "0000:18:00.0"
  std::string pcie_root;   // "pci0000:10"
};

std::vector<SimulatedGpu> MakeSimulatedGpus(std::string_view node_name, int count);

enum class SharingMode : std::uint8_t {
  kExclusive,            // one device per GPU, one allocation at a time
  kPartitions,           // full GPU plus MIG-style partitions sharing counters
  kMultipleAllocations,  // one device per GPU with consumable capacity
};

struct UnhealthyGpu {
  std::string reason;  // taint value and health message
  api::Time since;     // taint timeAdded
};

struct SimulatedPoolOptions {
  std::string driver_name;  // taint keys are "<driver>/unhealthy"
  SharingMode mode = SharingMode::kExclusive;
  // GPU name ("gpu-0") -> why it is unhealthy. Its devices (the GPU and its
  // partitions) get a NoSchedule taint.
  std::map<std::string, UnhealthyGpu> unhealthy;
};

// The pool (named after the node by the SDK) of `gpus`.
Pool BuildSimulatedPool(const std::vector<SimulatedGpu>& gpus, const SimulatedPoolOptions& options);

// "gpu-0-mig-1g10gb-19-0": the naming of NVIDIA's driver.
std::string PartitionDeviceName(const SimulatedGpu& gpu, const SimulatedMigProfile& profile,
                                int placement_start);
// "gpu-0-counter-set".
std::string CounterSetName(const SimulatedGpu& gpu);
// The GPU a published device belongs to ("gpu-3" for "gpu-3-mig-..."); empty
// when `device` is not a simulated device name.
std::string GpuOfDevice(std::string_view device);

}  // namespace dra::driver::example

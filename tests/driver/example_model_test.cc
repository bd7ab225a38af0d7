// The simulated-GPU model of `dra driver example`: attributes, capacity,
// MIG-style partitions through counters, consumable capacity, taints.
#include <gtest/gtest.h>

#include <set>

#include "driver/example/simulated_gpu.h"

namespace dra::driver::example {
namespace {

const api::Device& Find(const Pool& pool, const std::string& name) {
  for (const api::Device& d : pool.devices) {
    if (d.name == name) return d;
  }
  ADD_FAILURE() << "no device " << name;
  static api::Device none;
  return none;
}

std::string Str(const api::Device& d, const std::string& key) {
  auto it = d.attributes.find(key);
  return it != d.attributes.end() && it->second.string_value ? *it->second.string_value : "<none>";
}

std::string Ver(const api::Device& d, const std::string& key) {
  auto it = d.attributes.find(key);
  return it != d.attributes.end() && it->second.version_value ? *it->second.version_value
                                                              : "<none>";
}

std::string Capacity(const api::Device& d, const std::string& key) {
  auto it = d.capacity.find(key);
  return it == d.capacity.end() ? "<none>" : it->second.value.String();
}

TEST(SimulatedGpus, IdentitiesAreDeterministicPerNode) {
  std::vector<SimulatedGpu> a = MakeSimulatedGpus("node-1", 3);
  std::vector<SimulatedGpu> b = MakeSimulatedGpus("node-1", 3);
  std::vector<SimulatedGpu> c = MakeSimulatedGpus("node-2", 3);
  ASSERT_EQ(a.size(), 3u);
  std::set<std::string> uuids;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(a[i].name, "gpu-" + std::to_string(i));
    EXPECT_EQ(a[i].uuid, b[i].uuid);
    EXPECT_NE(a[i].uuid, c[i].uuid);
    uuids.insert(a[i].uuid);
    EXPECT_EQ(a[i].uuid.size(), 40u) << a[i].uuid;
    EXPECT_EQ(a[i].uuid.substr(0, 4), "GPU-");
  }
  EXPECT_EQ(uuids.size(), 3u);
  EXPECT_EQ(a[0].pci_bus_id, "0000:18:00.0");
  EXPECT_EQ(a[1].pci_bus_id, "0000:28:00.0");
  // Two GPUs per PCIe root.
  EXPECT_EQ(a[0].pcie_root, "pci0000:10");
  EXPECT_EQ(a[1].pcie_root, "pci0000:10");
  EXPECT_EQ(a[2].pcie_root, "pci0000:30");
  std::vector<SimulatedGpu> many = MakeSimulatedGpus("n", kMaxSimulatedGpus);
  std::set<std::string> buses;
  for (const SimulatedGpu& g : many) buses.insert(g.pci_bus_id);
  EXPECT_EQ(buses.size(), many.size());
}

TEST(SimulatedPool, ExclusiveGpuHasNvidiaAttributes) {
  std::vector<SimulatedGpu> gpus = MakeSimulatedGpus("node-1", 2);
  Pool pool = BuildSimulatedPool(gpus, {"gpu.example.com", SharingMode::kExclusive, {}});
  ASSERT_EQ(pool.devices.size(), 2u);
  EXPECT_TRUE(pool.shared_counters.empty());
  EXPECT_TRUE(pool.slices.empty());  // the SDK's automatic split: one slice
  const api::Device& d = pool.devices[1];
  EXPECT_EQ(d.name, "gpu-1");
  std::set<std::string> keys;
  for (const auto& [k, v] : d.attributes) keys.insert(k);
  EXPECT_EQ(keys, (std::set<std::string>{"architecture", "brand", "cudaComputeCapability",
                                         "cudaDriverVersion", "driverVersion", "index",
                                         "productName", "resource.kubernetes.io/pciBusID",
                                         "resource.kubernetes.io/pcieRoot", "type", "uuid"}));
  EXPECT_EQ(Str(d, "type"), "gpu");
  EXPECT_EQ(Str(d, "uuid"), gpus[1].uuid);
  EXPECT_EQ(Str(d, "productName"), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(Str(d, "brand"), "Nvidia");
  EXPECT_EQ(Str(d, "architecture"), "Hopper");
  EXPECT_EQ(Ver(d, "cudaComputeCapability"), "9.0.0");
  EXPECT_EQ(Ver(d, "driverVersion"), "550.54.15");
  EXPECT_EQ(Ver(d, "cudaDriverVersion"), "12.4.0");
  EXPECT_EQ(Str(d, "resource.kubernetes.io/pciBusID"), "0000:28:00.0");
  EXPECT_EQ(d.attributes.at("index").int_value, 1);
  EXPECT_EQ(Capacity(d, "memory"), "80Gi");
  EXPECT_EQ(d.capacity.size(), 1u);
  EXPECT_FALSE(d.capacity.at("memory").request_policy.has_value());
  EXPECT_FALSE(d.allow_multiple_allocations.has_value());
  EXPECT_TRUE(d.taints.empty());
  EXPECT_TRUE(d.consumes_counters.empty());
}

TEST(SimulatedPool, MultipleAllocationsUseConsumableCapacity) {
  Pool pool = BuildSimulatedPool(MakeSimulatedGpus("n", 1),
                                 {"gpu.example.com", SharingMode::kMultipleAllocations, {}});
  ASSERT_EQ(pool.devices.size(), 1u);
  const api::Device& d = pool.devices[0];
  EXPECT_EQ(d.allow_multiple_allocations, true);
  const api::DeviceCapacity& memory = d.capacity.at("memory");
  EXPECT_EQ(memory.value.String(), "80Gi");
  ASSERT_TRUE(memory.request_policy.has_value());
  EXPECT_EQ(memory.request_policy->default_->String(), "80Gi");
  ASSERT_TRUE(memory.request_policy->valid_range.has_value());
  EXPECT_EQ(memory.request_policy->valid_range->min->String(), "1Gi");
  EXPECT_EQ(memory.request_policy->valid_range->step->String(), "1Gi");
  EXPECT_EQ(memory.request_policy->valid_range->max->String(), "80Gi");
  const api::DeviceCapacity& compute = d.capacity.at("compute");
  EXPECT_EQ(compute.value.String(), "100");
  EXPECT_EQ(compute.request_policy->default_->String(), "1");
  EXPECT_EQ(compute.request_policy->valid_range->max->String(), "100");
  EXPECT_EQ(compute.request_policy->valid_range->min->String(), "1");
  EXPECT_EQ(compute.request_policy->valid_range->step->String(), "1");
}

TEST(SimulatedPool, PartitionsShareCountersPerGpu) {
  std::vector<SimulatedGpu> gpus = MakeSimulatedGpus("n", 2);
  Pool pool = BuildSimulatedPool(gpus, {"gpu.example.com", SharingMode::kPartitions, {}});
  // Full GPU + 7 x 1g + 3 x 2g + 2 x 3g + 4g + 7g per GPU.
  ASSERT_EQ(pool.devices.size(), 2u * 15);
  ASSERT_EQ(pool.shared_counters.size(), 2u);
  const api::CounterSet& set = pool.shared_counters[0];
  EXPECT_EQ(set.name, "gpu-0-counter-set");
  EXPECT_EQ(set.counters.at("multiprocessors").value.String(), "132");
  EXPECT_EQ(set.counters.at("copy-engines").value.String(), "8");
  EXPECT_EQ(set.counters.at("jpeg-engines").value.String(), "7");
  EXPECT_EQ(set.counters.at("ofa-engines").value.String(), "1");
  EXPECT_EQ(set.counters.at("memory").value.String(), "80Gi");
  for (int k = 0; k < kSimulatedMemorySlices; ++k) {
    EXPECT_EQ(set.counters.at("memory-slice-" + std::to_string(k)).value.String(), "1");
  }
  EXPECT_EQ(set.counters.size(), 7u + kSimulatedMemorySlices);

  // One slice per GPU, devices sorted by name.
  ASSERT_EQ(pool.slices.size(), 2u);
  for (const std::vector<std::size_t>& slice : pool.slices) {
    ASSERT_EQ(slice.size(), 15u);
    for (std::size_t i = 1; i < slice.size(); ++i) {
      EXPECT_LT(pool.devices[slice[i - 1]].name, pool.devices[slice[i]].name);
    }
  }

  // The full GPU consumes everything.
  const api::Device& full = Find(pool, "gpu-0");
  ASSERT_EQ(full.consumes_counters.size(), 1u);
  EXPECT_EQ(full.consumes_counters[0].counter_set, "gpu-0-counter-set");
  EXPECT_EQ(full.consumes_counters[0].counters, set.counters);
  EXPECT_EQ(Capacity(full, "multiprocessors"), "132");

  // A 2g partition at slices 2-3 consumes its share and those slices only.
  const api::Device& p = Find(pool, "gpu-1-mig-2g20gb-14-2");
  EXPECT_EQ(Str(p, "type"), "mig");
  EXPECT_EQ(Str(p, "profile"), "2g.20gb");
  EXPECT_EQ(Str(p, "parentUUID"), gpus[1].uuid);
  EXPECT_EQ(p.attributes.count("uuid"), 0u);
  EXPECT_EQ(Str(p, "resource.kubernetes.io/pciBusID"), gpus[1].pci_bus_id);
  EXPECT_EQ(Capacity(p, "memory"), "20Gi");
  EXPECT_EQ(Capacity(p, "multiprocessors"), "32");
  EXPECT_EQ(Capacity(p, "memorySlice2"), "1");
  EXPECT_EQ(Capacity(p, "memorySlice3"), "1");
  EXPECT_EQ(Capacity(p, "memorySlice4"), "<none>");
  ASSERT_EQ(p.consumes_counters.size(), 1u);
  const auto& used = p.consumes_counters[0].counters;
  EXPECT_EQ(p.consumes_counters[0].counter_set, "gpu-1-counter-set");
  EXPECT_EQ(used.at("memory").value.String(), "20Gi");
  EXPECT_EQ(used.at("multiprocessors").value.String(), "32");
  EXPECT_EQ(used.count("memory-slice-2") + used.count("memory-slice-3"), 2u);
  EXPECT_EQ(used.count("memory-slice-1") + used.count("memory-slice-4"), 0u);

  // Every device stays within the 32 attributes + capacities limit.
  for (const api::Device& d : pool.devices) {
    EXPECT_LE(d.attributes.size() + d.capacity.size(), 32u) << d.name;
  }
}

TEST(SimulatedPool, PartitionsCannotOversubscribeAGpu) {
  // The counters admit exactly the placements that fit: summing what all
  // 1g partitions consume stays within the set, and each memory slice is
  // consumed by exactly one 1g partition or none.
  Pool pool = BuildSimulatedPool(MakeSimulatedGpus("n", 1),
                                 {"gpu.example.com", SharingMode::kPartitions, {}});
  std::map<std::string, api::Quantity> sum;
  for (const api::Device& d : pool.devices) {
    if (d.name.find("-mig-1g10gb-") == std::string::npos) continue;
    for (const auto& [name, c] : d.consumes_counters[0].counters)
      sum[name] = sum[name].Add(c.value);
  }
  const api::CounterSet& set = pool.shared_counters[0];
  for (const auto& [name, q] : sum) {
    EXPECT_LE(q.Compare(set.counters.at(name).value), 0) << name;
  }
  EXPECT_EQ(sum.count("memory-slice-7"), 0u);
}

TEST(SimulatedPool, UnhealthyGpuTaintsItsDevices) {
  SimulatedPoolOptions options{"gpu.example.com", SharingMode::kPartitions, {}};
  options.unhealthy["gpu-1"] = UnhealthyGpu{"xid-79", api::Time::FromUnix(1700000000)};
  Pool pool = BuildSimulatedPool(MakeSimulatedGpus("n", 2), options);
  int tainted = 0;
  for (const api::Device& d : pool.devices) {
    if (GpuOfDevice(d.name) != "gpu-1") {
      EXPECT_TRUE(d.taints.empty()) << d.name;
      continue;
    }
    ++tainted;
    ASSERT_EQ(d.taints.size(), 1u) << d.name;
    EXPECT_EQ(d.taints[0].key, "gpu.example.com/unhealthy");
    EXPECT_EQ(d.taints[0].value, "xid-79");
    EXPECT_EQ(d.taints[0].effect, "NoSchedule");
    EXPECT_EQ(d.taints[0].time_added, api::Time::FromUnix(1700000000));
  }
  EXPECT_EQ(tainted, 15);
}

TEST(SimulatedPool, GpuOfDevice) {
  EXPECT_EQ(GpuOfDevice("gpu-12"), "gpu-12");
  EXPECT_EQ(GpuOfDevice("gpu-3-mig-1g10gb-19-0"), "gpu-3");
  EXPECT_EQ(GpuOfDevice("gpu-"), "");
  EXPECT_EQ(GpuOfDevice("gpu-3x"), "");
  EXPECT_EQ(GpuOfDevice("nic-0"), "");
}

}  // namespace
}  // namespace dra::driver::example

// `dra driver nvml` against the fake libnvidia-ml the test suite builds
// (tests/driver/fake_nvml): loading, enumeration, NVIDIA's names and
// attributes, CDI edits, and the errors of a missing or failing NVML.
#include "driver/nvml/nvml_driver.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "driver/nvml/nvml_devices.h"
#include "driver/nvml/nvml_inventory.h"

namespace dra::driver::nvml {
namespace {

// Sets an environment variable for the lifetime of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { ::unsetenv(name_); }

 private:
  const char* name_;
};

std::string TempDir(const std::string& tag) {
  std::filesystem::path p = std::filesystem::temp_directory_path() /
                            ("dra-nvml-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

NvmlSystem ReadFake(const std::string& sysfs = "/nonexistent") {
  Result<std::unique_ptr<NvmlLibrary>> lib = NvmlLibrary::Open(DRA_FAKE_NVML);
  EXPECT_TRUE(lib.ok()) << lib.error();
  if (!lib) return {};
  Result<NvmlSystem> sys = ReadNvmlSystem(**lib, sysfs);
  EXPECT_TRUE(sys.ok()) << sys.error();
  return sys.ok() ? *sys : NvmlSystem{};
}

const api::Device* Find(const Pool& pool, const std::string& name) {
  for (const api::Device& d : pool.devices) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

std::string Str(const api::Device& d, const std::string& key) {
  auto it = d.attributes.find(key);
  if (it == d.attributes.end()) return "<none>";
  if (it->second.string_value) return *it->second.string_value;
  if (it->second.version_value) return "v" + *it->second.version_value;
  return "<other>";
}

TEST(NvmlHelpers, Conventions) {
  EXPECT_EQ(BrandName(2), "Tesla");
  EXPECT_EQ(BrandName(14), "Nvidia");
  EXPECT_EQ(BrandName(7), "NvidiaVApps");
  EXPECT_EQ(BrandName(99), "Unknown");
  EXPECT_EQ(ArchitectureName(7), "Ampere");
  EXPECT_EQ(ArchitectureName(8), "Ada Lovelace");
  EXPECT_EQ(ArchitectureName(9), "Hopper");
  EXPECT_EQ(ArchitectureName(10), "Blackwell");
  EXPECT_EQ(ArchitectureName(0xffffffff), "Unknown");
  EXPECT_EQ(*NormalizeVersion("535.104.05"), "535.104.5");
  EXPECT_EQ(*NormalizeVersion("550.54.15"), "550.54.15");
  EXPECT_EQ(*NormalizeVersion("12.4"), "12.4.0");
  EXPECT_FALSE(NormalizeVersion("550").ok());
  EXPECT_FALSE(NormalizeVersion("550.x").ok());
  EXPECT_FALSE(NormalizeVersion("1.2.3.4").ok());
  EXPECT_EQ(NormalizePciBusId("00000000:3B:00.0"), "0000:3b:00.0");
  EXPECT_EQ(NormalizePciBusId("0000:3B:00.0"), "0000:3b:00.0");
  EXPECT_EQ(NormalizePciBusId("00000001:3B:00.0"), "0001:3b:00.0");
  // go-nvlib's names for A100 40GB and H100 80GB profiles.
  EXPECT_EQ(MigProfileName(0, 4864, 40ULL << 30), "1g.5gb");
  EXPECT_EQ(MigProfileName(1, 9856, 40ULL << 30), "2g.10gb");
  EXPECT_EQ(MigProfileName(4, 40192, 40ULL << 30), "7g.40gb");
  EXPECT_EQ(MigProfileName(0, 9856, 85520809984ULL), "1g.10gb");
  EXPECT_EQ(MigProfileName(7, 9856, 85520809984ULL), "1g.10gb+me");
  EXPECT_EQ(MigProfileName(0xD, 9856, 85520809984ULL), "1g.10gb-me");
  EXPECT_EQ(MigProfileName(0x40, 9856, 85520809984ULL), "");
}

TEST(NvmlHelpers, PcieRootFromSysfs) {
  std::string sysfs = TempDir("sysfs");
  std::filesystem::create_directories(sysfs + "/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0");
  std::filesystem::create_directories(sysfs + "/bus/pci/devices");
  std::filesystem::create_directory_symlink("../../../devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0",
                                            sysfs + "/bus/pci/devices/0000:3b:00.0");
  EXPECT_EQ(PcieRoot(sysfs, "0000:3b:00.0"), "pci0000:3a");
  EXPECT_EQ(PcieRoot(sysfs, "0000:86:00.0"), std::nullopt);
  std::filesystem::remove_all(sysfs);
}

TEST(NvmlLibrary, MissingLibraryIsAClearError) {
  Result<std::unique_ptr<NvmlLibrary>> lib = NvmlLibrary::Open("/nonexistent/libnvidia-ml.so.1");
  ASSERT_FALSE(lib.ok());
  EXPECT_EQ(lib.error().rfind("cannot load NVML library \"/nonexistent/libnvidia-ml.so.1\": ", 0),
            0u)
      << lib.error();
  EXPECT_NE(lib.error().find("is the NVIDIA driver installed?"), std::string::npos);
}

TEST(NvmlLibrary, LibraryWithoutNvmlSymbolsIsAClearError) {
  Result<std::unique_ptr<NvmlLibrary>> lib = NvmlLibrary::Open("libm.so.6");
  ASSERT_FALSE(lib.ok());
  EXPECT_EQ(lib.error(),
            "NVML library \"libm.so.6\" lacks the symbol nvmlInit_v2 (driver too old, or not "
            "libnvidia-ml)");
}

TEST(NvmlLibrary, InitFailureNamesTheNvmlError) {
  ScopedEnv env("FAKE_NVML_INIT_ERROR", "9");
  Result<std::unique_ptr<NvmlLibrary>> lib = NvmlLibrary::Open(DRA_FAKE_NVML);
  ASSERT_FALSE(lib.ok());
  EXPECT_EQ(lib.error(),
            std::string("NVML initialization failed (") + DRA_FAKE_NVML + "): Driver Not Loaded");
}

TEST(NvmlInventory, ReadsGpusAndMigDevices) {
  NvmlSystem sys = ReadFake();
  EXPECT_EQ(sys.driver_version, "550.54.15");
  EXPECT_EQ(sys.cuda_driver_version, "12.4.0");
  ASSERT_EQ(sys.gpus.size(), 2u);
  const NvmlGpu& a100 = sys.gpus[0];
  EXPECT_EQ(a100.product_name, "NVIDIA A100-SXM4-40GB");
  EXPECT_EQ(a100.brand, "Tesla");
  EXPECT_EQ(a100.architecture, "Ampere");
  EXPECT_EQ(a100.cuda_compute_capability, "8.0.0");
  EXPECT_EQ(a100.pci_bus_id, "0000:3b:00.0");
  EXPECT_EQ(a100.pcie_root, std::nullopt);
  EXPECT_TRUE(a100.mig_enabled);
  ASSERT_EQ(a100.mig_devices.size(), 2u);
  EXPECT_EQ(a100.mig_devices[0].profile, "1g.5gb");
  EXPECT_EQ(a100.mig_devices[1].profile, "2g.10gb");
  EXPECT_EQ(a100.mig_devices[1].placement.start, 2u);
  EXPECT_EQ(a100.mig_devices[1].gpu_instance_id, 5u);
  const NvmlGpu& h100 = sys.gpus[1];
  EXPECT_FALSE(h100.mig_enabled);
  EXPECT_EQ(h100.memory_bytes, 85520809984ULL);
  EXPECT_EQ(h100.minor, 1u);
}

TEST(NvmlDevices, PublishesNvidiasNamesAndAttributes) {
  std::string sysfs = TempDir("sysfs2");
  std::filesystem::create_directories(sysfs + "/devices/pci0000:80/0000:80:01.0/0000:86:00.0");
  std::filesystem::create_directories(sysfs + "/bus/pci/devices");
  std::filesystem::create_directory_symlink("../../../devices/pci0000:80/0000:80:01.0/0000:86:00.0",
                                            sysfs + "/bus/pci/devices/0000:86:00.0");
  NvmlSystem sys = ReadFake(sysfs);
  std::filesystem::remove_all(sysfs);
  Pool pool = BuildNvmlPool(sys);
  std::vector<std::string> names;
  for (const api::Device& d : pool.devices) names.push_back(d.name);
  // The MIG-enabled A100 offers only its MIG devices.
  EXPECT_EQ(names,
            (std::vector<std::string>{"gpu-0-mig-1g5gb-19-0", "gpu-0-mig-2g10gb-14-2", "gpu-1"}));
  ASSERT_EQ(pool.slices.size(), 2u);  // one slice per physical GPU
  EXPECT_EQ(pool.slices[0].size(), 2u);
  EXPECT_EQ(pool.slices[1].size(), 1u);

  const api::Device& gpu = *Find(pool, "gpu-1");
  std::set<std::string> keys;
  for (const auto& [k, v] : gpu.attributes) keys.insert(k);
  EXPECT_EQ(keys, (std::set<std::string>{"architecture", "brand", "cudaComputeCapability",
                                         "cudaDriverVersion", "driverVersion", "productName",
                                         "resource.kubernetes.io/pciBusID",
                                         "resource.kubernetes.io/pcieRoot", "type", "uuid"}));
  EXPECT_EQ(Str(gpu, "type"), "gpu");
  EXPECT_EQ(Str(gpu, "uuid"), "GPU-9e8d7c6b-5555-6666-7777-888899990000");
  EXPECT_EQ(Str(gpu, "productName"), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(Str(gpu, "brand"), "Nvidia");
  EXPECT_EQ(Str(gpu, "architecture"), "Hopper");
  EXPECT_EQ(Str(gpu, "cudaComputeCapability"), "v9.0.0");
  EXPECT_EQ(Str(gpu, "driverVersion"), "v550.54.15");
  EXPECT_EQ(Str(gpu, "cudaDriverVersion"), "v12.4.0");
  EXPECT_EQ(Str(gpu, "resource.kubernetes.io/pciBusID"), "0000:86:00.0");
  EXPECT_EQ(Str(gpu, "resource.kubernetes.io/pcieRoot"), "pci0000:80");
  ASSERT_EQ(gpu.capacity.size(), 1u);
  EXPECT_EQ(gpu.capacity.at("memory").value.String(), "81559Mi");

  const api::Device& mig = *Find(pool, "gpu-0-mig-2g10gb-14-2");
  EXPECT_EQ(Str(mig, "type"), "mig");
  EXPECT_EQ(Str(mig, "uuid"), "MIG-0a1b2c3d-aaaa-bbbb-cccc-000000000002");
  EXPECT_EQ(Str(mig, "parentUUID"), "GPU-4f1c2b3a-1111-2222-3333-444455556666");
  EXPECT_EQ(Str(mig, "profile"), "2g.10gb");
  EXPECT_EQ(Str(mig, "productName"), "NVIDIA A100-SXM4-40GB");
  EXPECT_EQ(Str(mig, "resource.kubernetes.io/pciBusID"), "0000:3b:00.0");
  EXPECT_EQ(Str(mig, "resource.kubernetes.io/pcieRoot"), "<none>");
  std::map<std::string, std::string> caps;
  for (const auto& [k, v] : mig.capacity) caps[k] = v.value.String();
  EXPECT_EQ(caps, (std::map<std::string, std::string>{{"copyEngines", "2"},
                                                      {"decoders", "1"},
                                                      {"encoders", "0"},
                                                      {"jpegEngines", "0"},
                                                      {"memory", "9856Mi"},
                                                      {"memorySlice2", "1"},
                                                      {"memorySlice3", "1"},
                                                      {"multiprocessors", "28"},
                                                      {"ofaEngines", "0"}}));
}

TEST(NvmlInventory, CustomTopologyAndMissingMemory) {
  std::string dir = TempDir("topo");
  std::string file = dir + "/topology.ini";
  std::ofstream(file) << "[system]\ndriver_version = 535.104.05\ncuda_driver_version = 12020\n"
                         "[gpu]\nuuid = GPU-1\nname = Tesla T4\nminor = 3\nbrand = 2\n"
                         "architecture = 6\ncompute_capability = 7.5\nbus_id = 00000000:AF:00.0\n"
                         "mig = unsupported\n";
  ScopedEnv env("FAKE_NVML_TOPOLOGY", file);
  NvmlSystem sys = ReadFake();
  ASSERT_EQ(sys.gpus.size(), 1u);
  EXPECT_EQ(sys.driver_version, "535.104.5");
  EXPECT_EQ(sys.cuda_driver_version, "12.2.0");
  Pool pool = BuildNvmlPool(sys);
  ASSERT_EQ(pool.devices.size(), 1u);
  EXPECT_EQ(pool.devices[0].name, "gpu-3");
  EXPECT_TRUE(pool.devices[0].capacity.empty());  // NVML reported no memory
  EXPECT_EQ(Str(pool.devices[0], "architecture"), "Turing");
  std::filesystem::remove_all(dir);
}

TEST(NvmlDriver, CreateNeedsANodeNameAndWorkingNvml) {
  NvmlDriverOptions o;
  o.nvml_library = DRA_FAKE_NVML;
  Result<std::unique_ptr<NvmlDriver>> d = NvmlDriver::Create(o);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error(), "--node-name (NODE_NAME) is required");
  o.node_name = "n";
  o.nvml_library = "/nonexistent/libnvidia-ml.so.1";
  d = NvmlDriver::Create(o);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().find("cannot load NVML library"), std::string::npos);
}

TEST(NvmlDriver, PrepareInjectsTheDeviceAndItsNodes) {
  std::string root = TempDir("devroot");
  std::filesystem::create_directories(root + "/dev/nvidia-caps");
  for (const char* node : {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia0", "/dev/nvidia1",
                           "/dev/nvidia-caps/nvidia-cap30", "/dev/nvidia-caps/nvidia-cap31"}) {
    std::ofstream(root + node) << "";
  }
  std::filesystem::create_directories(root + "/proc/driver/nvidia/capabilities/gpu0/mig/gi5/ci0");
  std::ofstream(root + "/proc/driver/nvidia/capabilities/gpu0/mig/gi5/access")
      << "DeviceFileMinor: 30\nDeviceFileMode: 292\n";
  std::ofstream(root + "/proc/driver/nvidia/capabilities/gpu0/mig/gi5/ci0/access")
      << "DeviceFileMinor: 31\nDeviceFileMode: 292\n";

  NvmlDriverOptions o;
  o.node_name = "node-1";
  o.nvml_library = DRA_FAKE_NVML;
  o.dev_root = root;
  o.proc_root = root + "/proc";
  Result<std::unique_ptr<NvmlDriver>> d = NvmlDriver::Create(o);
  ASSERT_TRUE(d.ok()) << d.error();
  EXPECT_FALSE((*d)->ReportsHealth());

  ClaimToPrepare claim;
  claim.uid = "u1";
  AllocatedDevice gpu{"gpu", "gpu", "node-1", "gpu-1", std::nullopt, false, {}, {}};
  AllocatedDevice mig{"mig", "mig", "node-1", "gpu-0-mig-2g10gb-14-2", std::nullopt, false, {}, {}};
  claim.devices = {gpu, mig};
  Result<PreparedClaim> r = (*d)->Prepare(claim);
  ASSERT_TRUE(r.ok()) << r.error();
  auto paths = [](const std::vector<cdi::DeviceNode>& nodes) {
    std::vector<std::string> out;
    for (const cdi::DeviceNode& n : nodes) out.push_back(n.path);
    return out;
  };
  EXPECT_EQ(paths(r->claim_edits.device_nodes),
            (std::vector<std::string>{"/dev/nvidiactl", "/dev/nvidia-uvm"}));
  ASSERT_EQ(r->devices.size(), 2u);
  EXPECT_EQ(r->devices[0].edits.env,
            (std::vector<std::string>{
                "NVIDIA_VISIBLE_DEVICES=GPU-9e8d7c6b-5555-6666-7777-888899990000"}));
  EXPECT_EQ(paths(r->devices[0].edits.device_nodes), (std::vector<std::string>{"/dev/nvidia1"}));
  EXPECT_EQ(r->devices[1].edits.env,
            (std::vector<std::string>{
                "NVIDIA_VISIBLE_DEVICES=MIG-0a1b2c3d-aaaa-bbbb-cccc-000000000002"}));
  EXPECT_EQ(paths(r->devices[1].edits.device_nodes),
            (std::vector<std::string>{"/dev/nvidia0", "/dev/nvidia-caps/nvidia-cap30",
                                      "/dev/nvidia-caps/nvidia-cap31"}));

  // A MIG-enabled GPU itself is not a device; opaque configs are refused.
  claim.devices = {AllocatedDevice{"gpu", "gpu", "node-1", "gpu-0", std::nullopt, false, {}, {}}};
  r = (*d)->Prepare(claim);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            "device node-1/gpu-0 of request gpu is not a GPU or MIG device of this node");
  gpu.opaque_configs = {"{}"};
  claim.devices = {gpu};
  r = (*d)->Prepare(claim);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "request gpu: opaque device configuration is not supported by this driver");
  EXPECT_TRUE((*d)->Unprepare(ClaimToUnprepare{"u1", "", "", {}, ""}).ok());
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace dra::driver::nvml

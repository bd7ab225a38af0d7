// `dra driver nvml` as a kubelet sees it: the program started with the fake
// NVML, registered, a claim prepared and unprepared over its sockets, then
// SIGTERM (conformance checks 1, 2, 5 and 8 to 18 of docs/DRIVER-SDK.md at
// the process level; the in-process suite covers the rest).
#include <gtest/gtest.h>

#include "driver_test_harness.h"

namespace dra::driver::testing {
namespace {

TEST(NvmlProcess, ServesPreparesAndShutsDownCleanly) {
  KubeletDirs dirs;
  std::vector<std::string> args = {"driver", "nvml"};
  for (const std::string& f : dirs.Flags("gpu.nvidia.com")) args.push_back(f);
  args.push_back(std::string("--nvml-library=") + DRA_FAKE_NVML);
  std::string log = dirs.root() + "/driver.log";
  ChildProcess driver(DRA_PROGRAM, args, {}, log);
  std::string reg = dirs.registrar() + "/gpu.nvidia.com-reg.sock";
  ASSERT_TRUE(WaitFor([&] { return IsSocket(reg) || !driver.Running(); })) << ReadFile(log);
  ASSERT_TRUE(IsSocket(reg)) << ReadFile(log);

  KubeletClient kubelet(reg);
  pluginregistration::PluginInfo info = kubelet.Register();
  EXPECT_EQ(info.name(), "gpu.nvidia.com");
  EXPECT_EQ(info.supported_versions(0), "v1.DRAPlugin");
  for (const std::string& v : info.supported_versions()) {
    EXPECT_EQ(v.find("DRAResourceHealth"), std::string::npos) << v;  // not advertised
  }

  ClaimSpec claim;
  claim.name = "mig";
  claim.uid = "uid-mig";
  claim.results.push_back({"gpu", "gpu.nvidia.com", "node-1", "gpu-0-mig-2g10gb-14-2", {}, false});
  WriteClaim(dirs.claims(), claim);
  drav1::NodePrepareResourcesResponse prepared;
  ASSERT_TRUE(kubelet.PrepareV1({Ref(claim)}, prepared).ok());
  const auto& entry = prepared.claims().at(claim.uid);
  ASSERT_EQ(entry.error(), "");
  ASSERT_EQ(entry.devices_size(), 1);
  std::vector<std::string> ids(entry.devices(0).cdi_device_ids().begin(),
                               entry.devices(0).cdi_device_ids().end());
  EXPECT_EQ(ResolveCdiIds(dirs.cdi(), ids), "");
  std::string spec;
  for (const std::string& f : dirs.CdiFiles()) spec += ReadFile(dirs.cdi() + "/" + f);
  EXPECT_NE(spec.find("NVIDIA_VISIBLE_DEVICES=MIG-0a1b2c3d-aaaa-bbbb-cccc-000000000002"),
            std::string::npos)
      << spec;
  EXPECT_NE(ReadFile(dirs.slices()).find("gpu-0-mig-1g5gb-19-0"), std::string::npos);

  drav1::NodeUnprepareResourcesResponse unprepared;
  ASSERT_TRUE(kubelet.UnprepareV1({Ref(claim)}, unprepared).ok());
  EXPECT_EQ(unprepared.claims().at(claim.uid).error(), "");
  EXPECT_TRUE(dirs.CdiFiles().empty());

  driver.Signal(SIGTERM);
  int status = driver.Wait();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status << "\n" << ReadFile(log);
  EXPECT_FALSE(fs::exists(reg));
  EXPECT_FALSE(fs::exists(dirs.plugins() + "/gpu.nvidia.com/dra.sock"));
}

TEST(NvmlProcess, MissingNvmlFailsStartWithAClearMessage) {
  KubeletDirs dirs;
  std::vector<std::string> args = {"driver", "nvml"};
  for (const std::string& f : dirs.Flags("gpu.nvidia.com")) args.push_back(f);
  args.push_back("--nvml-library=/nonexistent/libnvidia-ml.so.1");
  std::string log = dirs.root() + "/driver.log";
  ChildProcess driver(DRA_PROGRAM, args, {}, log);
  int status = driver.Wait();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status;
  EXPECT_EQ(
      ReadFile(log).rfind("error: cannot load NVML library \"/nonexistent/libnvidia-ml.so.1\"", 0),
      0u)
      << ReadFile(log);
  EXPECT_TRUE(fs::is_empty(dirs.registrar()));
}

}  // namespace
}  // namespace dra::driver::testing

// The minimal driver of docs/DRIVER-SDK.md (examples/minimal-driver) as a
// program: flags, registration, prepare with an opaque config, health,
// slices, SIGTERM.
#include <gtest/gtest.h>
#include <signal.h>

#include <thread>

#include "driver_test_harness.h"

namespace dra::driver::testing {
namespace {

constexpr const char* kMinimal = DRA_MINIMAL_DRIVER;

TEST(SdkMinimalDriver, ServesAsDocumented) {
  KubeletDirs dirs;
  auto flags = dirs.Flags("minimal.example.com");
  flags.push_back("--num-devices=2");
  ChildProcess driver(kMinimal, flags, {}, dirs.root() + "/log");
  std::string reg = dirs.registrar() + "/minimal.example.com-reg.sock";
  ASSERT_TRUE(WaitFor([&] { return IsSocket(reg) || !driver.Running(); }))
      << ReadFile(dirs.root() + "/log");
  ASSERT_TRUE(driver.Running()) << ReadFile(dirs.root() + "/log");
  KubeletClient k(reg);
  auto info = k.Register();
  EXPECT_EQ(info.name(), "minimal.example.com");
  EXPECT_EQ(info.supported_versions_size(), 4);

  ClaimSpec c;
  c.name = "hello";
  c.uid = "3f0a-uid";
  c.results.push_back({"accel", "minimal.example.com", "node-1", "accel-1", {}, false});
  c.configs.push_back({"FromClaim", {}, "minimal.example.com", R"({"greeting":"hi"})"});
  WriteClaim(dirs.claims(), c);
  drav1::NodePrepareResourcesResponse r;
  ASSERT_TRUE(k.PrepareV1({Ref(c)}, r).ok());
  const auto& entry = r.claims().at(c.uid);
  ASSERT_EQ(entry.error(), "");
  ASSERT_EQ(entry.devices_size(), 1);
  std::vector<std::string> ids(entry.devices(0).cdi_device_ids().begin(),
                               entry.devices(0).cdi_device_ids().end());
  EXPECT_EQ(ids, std::vector<std::string>{"k8s.minimal.example.com/claim=3f0a-uid-accel-1"});
  EXPECT_EQ(ResolveCdiIds(dirs.cdi(), ids), "");
  auto spec =
      cdi::DecodeJson(ReadFile(dirs.cdi() + "/k8s.minimal.example.com-claim_3f0a-uid.json"));
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_EQ(spec->devices[0].edits.env,
            (std::vector<std::string>{"MINIMAL_DEVICE=accel-1", "MINIMAL_GREETING=hi"}));
  EXPECT_EQ(spec->edits.env, std::vector<std::string>{"MINIMAL_CLAIM=default/hello"});

  ClaimSpec bad = c;
  bad.name = "bad";
  bad.uid = "bad-uid";
  bad.results[0].device = "accel-0";
  bad.configs[0].parameters_json = R"({"greting":"typo"})";
  WriteClaim(dirs.claims(), bad);
  drav1::NodePrepareResourcesResponse rb;
  ASSERT_TRUE(k.PrepareV1({Ref(bad)}, rb).ok());
  EXPECT_NE(rb.claims().at("bad-uid").error().find("unknown field or not a string: greting"),
            std::string::npos);

  auto health = k.WatchHealthV1();
  ::v1::NodeWatchResourcesResponse h;
  ASSERT_TRUE(health->Read(h));
  ASSERT_EQ(h.devices_size(), 2);
  EXPECT_EQ(h.devices(1).device().device_name(), "accel-1");
  EXPECT_EQ(h.devices(1).health(), ::v1::HEALTHY);
  // Like the kubelet, keep reading until the driver ends the stream.
  std::thread reader([&] {
    ::v1::NodeWatchResourcesResponse more;
    while (health->Read(more)) {
    }
  });

  std::string slices = ReadFile(dirs.slices());
  EXPECT_NE(slices.find("name: accel-0"), std::string::npos) << slices;
  EXPECT_NE(slices.find("nodeName: node-1"), std::string::npos);

  drav1::NodeUnprepareResourcesResponse u;
  ASSERT_TRUE(k.UnprepareV1({Ref(c)}, u).ok());
  EXPECT_EQ(u.claims().at(c.uid).error(), "");
  EXPECT_TRUE(dirs.CdiFiles().empty());

  driver.Signal(SIGTERM);
  int status = driver.Wait();
  reader.join();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << ReadFile(dirs.root() + "/log");
  EXPECT_FALSE(fs::exists(reg));
  EXPECT_FALSE(fs::exists(dirs.plugins() + "/minimal.example.com/dra.sock"));
}

TEST(SdkMinimalDriver, BadFlagsFailClearly) {
  KubeletDirs dirs;
  {
    ChildProcess missing(kMinimal, {"--claims=" + dirs.claims()}, {}, dirs.root() + "/log1");
    int status = missing.Wait();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
    EXPECT_NE(ReadFile(dirs.root() + "/log1").find("--node-name is required"), std::string::npos)
        << ReadFile(dirs.root() + "/log1");
  }
  {
    auto flags = dirs.Flags("Not_A_DNS_Name");
    ChildProcess bad(kMinimal, flags, {}, dirs.root() + "/log2");
    int status = bad.Wait();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    EXPECT_NE(ReadFile(dirs.root() + "/log2").find("dra driver: driver name Not_A_DNS_Name"),
              std::string::npos)
        << ReadFile(dirs.root() + "/log2");
  }
  {
    // Environment variables work like the flags.
    auto flags = dirs.Flags("minimal.example.com");
    flags.erase(flags.begin() + 1);  // --node-name
    ChildProcess env(kMinimal, flags, {"NODE_NAME=from-env"}, dirs.root() + "/log3");
    std::string reg = dirs.registrar() + "/minimal.example.com-reg.sock";
    ASSERT_TRUE(WaitFor([&] { return IsSocket(reg) || !env.Running(); }))
        << ReadFile(dirs.root() + "/log3");
    EXPECT_NE(ReadFile(dirs.slices()).find("nodeName: from-env"), std::string::npos);
    env.Signal(SIGTERM);
    EXPECT_EQ(env.Wait(), 0);
  }
}

TEST(SdkMinimalDriver, DocumentationShowsTheExactFile) {
  std::string code =
      ReadFile(std::string(DRA_SOURCE_DIR) + "/examples/minimal-driver/minimal_driver.cc");
  std::string doc = ReadFile(std::string(DRA_SOURCE_DIR) + "/docs/DRIVER-SDK.md");
  ASSERT_FALSE(code.empty());
  EXPECT_NE(doc.find("```c++\n" + code + "```\n"), std::string::npos);
}

}  // namespace
}  // namespace dra::driver::testing

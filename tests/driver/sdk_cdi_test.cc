// CDI specs: minimum versions, validation, strict round trip, atomic writes.
#include <gtest/gtest.h>

#include <filesystem>

#include "dra/driver/cdi.h"
#include "driver_test_harness.h"

namespace dra::driver::cdi {
namespace {

Spec OneDevice(const std::string& kind, const std::string& name) {
  Spec s;
  s.kind = kind;
  Device d;
  d.name = name;
  d.edits.env.push_back("A=1");
  s.devices.push_back(d);
  return s;
}

TEST(SdkCdi, MinimumVersionFollowsContent) {
  EXPECT_EQ(MinimumVersion(OneDevice("example.com/gpu", "gpu0")), "0.3.0");
  EXPECT_EQ(MinimumVersion(OneDevice("example.com/gpu", "0abc")), "0.5.0");    // digit first
  EXPECT_EQ(MinimumVersion(OneDevice("example.com/gpu.x", "gpu0")), "0.6.0");  // dot in class
  Spec s = OneDevice("example.com/gpu", "gpu0");
  s.devices[0].edits.mounts.push_back(Mount{"/a", "/b", {"ro", "bind"}, "none"});
  EXPECT_EQ(MinimumVersion(s), "0.4.0");
  s.devices[0].edits.device_nodes.push_back(
      DeviceNode{"/dev/x", "/dev/y", "", {}, {}, {}, "", {}, {}});
  EXPECT_EQ(MinimumVersion(s), "0.5.0");
  s.edits.additional_gids.push_back(44);
  EXPECT_EQ(MinimumVersion(s), "0.7.0");
  s.edits.net_devices.push_back(NetDevice{"eth1", "net0"});
  EXPECT_EQ(MinimumVersion(s), "1.1.0");
}

TEST(SdkCdi, ValidationNamesTheField) {
  EXPECT_TRUE(Validate(OneDevice("k8s.gpu.example.com/claim", "a")).ok());
  auto bad_kind = Validate(OneDevice("example.com", "a"));
  ASSERT_FALSE(bad_kind.ok());
  EXPECT_NE(bad_kind.error().find("vendor/class"), std::string::npos);
  EXPECT_FALSE(Validate(OneDevice("1example.com/gpu", "a")).ok());
  EXPECT_FALSE(Validate(OneDevice("example.com/gpu-", "a")).ok());
  auto bad_name = Validate(OneDevice("example.com/gpu", "-a"));
  ASSERT_FALSE(bad_name.ok());
  EXPECT_NE(bad_name.error().find("devices[0].name"), std::string::npos);
  EXPECT_TRUE(Validate(OneDevice("example.com/gpu", "a:b.c_d-e")).ok());
  Spec empty_edits = OneDevice("example.com/gpu", "a");
  empty_edits.devices[0].edits = {};
  EXPECT_FALSE(Validate(empty_edits).ok());
  Spec dup = OneDevice("example.com/gpu", "a");
  dup.devices.push_back(dup.devices[0]);
  EXPECT_FALSE(Validate(dup).ok());
  Spec env = OneDevice("example.com/gpu", "a");
  env.devices[0].edits.env.push_back("=x");
  EXPECT_FALSE(Validate(env).ok());
  Spec hook = OneDevice("example.com/gpu", "a");
  hook.edits.hooks.push_back(Hook{"prestart", "relative", {}, {}, {}});
  EXPECT_FALSE(Validate(hook).ok());
  hook.edits.hooks[0] = Hook{"beforeAll", "/bin/true", {}, {}, {}};
  EXPECT_FALSE(Validate(hook).ok());
  Spec nodes = OneDevice("example.com/gpu", "a");
  nodes.devices[0].edits.device_nodes.push_back(
      DeviceNode{"/dev/x", "", "z", {}, {}, {}, "", {}, {}});
  EXPECT_FALSE(Validate(nodes).ok());
  EXPECT_FALSE(Validate(Spec{"example.com/gpu", {}, {}}).ok());
}

TEST(SdkCdi, QualifiedNames) {
  EXPECT_TRUE(ValidateQualifiedName("k8s.gpu.example.com/gpu=common").ok());
  EXPECT_FALSE(ValidateQualifiedName("/dev/nvidia0").ok());
  EXPECT_FALSE(ValidateQualifiedName("example.com/gpu").ok());
  EXPECT_FALSE(ValidateQualifiedName("example.com=gpu").ok());
  EXPECT_EQ(TransientSpecFileName("k8s.gpu.example.com/gpu", "uid-1"),
            "k8s.gpu.example.com-gpu_uid-1.json");
  EXPECT_EQ(TransientSpecFileName("a.com/b", "x/y"), "a.com-b_x_y.json");
}

TEST(SdkCdi, EncodeDecodeRoundTripIsStrict) {
  Spec s = OneDevice("example.com/gpu", "7f-gpu-0");
  s.devices[0].edits.device_nodes.push_back(
      DeviceNode{"/dev/gpu0", "", "c", 195, 0, 0666, "rw", 0, 0});
  s.devices[0].edits.mounts.push_back(Mount{"/host/lib", "/lib/x", {"ro", "bind"}, ""});
  s.devices[0].edits.hooks.push_back(
      Hook{"createContainer", "/bin/hook", {"hook", "x"}, {"K=V"}, 5});
  s.edits.env.push_back("CLAIM=1");
  std::string text = EncodeJson(s);
  EXPECT_NE(text.find("\"cdiVersion\": \"0.5.0\""), std::string::npos) << text;
  auto back = DecodeJson(text);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(*back, s);

  auto unknown = DecodeJson(
      R"({"cdiVersion":"0.5.0","kind":"a.com/b","devices":[{"name":"x","containerEdits":{"env":["A=1"]},"extra":1}]})");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("unknown field \"extra\""), std::string::npos) << unknown.error();
  auto too_low = DecodeJson(
      R"({"cdiVersion":"0.3.0","kind":"a.com/b","devices":[{"name":"1x","containerEdits":{"env":["A=1"]}}]})");
  ASSERT_FALSE(too_low.ok());
  EXPECT_NE(too_low.error().find("lower than 0.5.0"), std::string::npos) << too_low.error();
  EXPECT_FALSE(DecodeJson(R"({"cdiVersion":"9.0.0","kind":"a.com/b","devices":[]})").ok());
}

TEST(SdkCdi, AtomicWriteLeavesOnlyTheFinalFile) {
  testing::KubeletDirs dirs;
  ASSERT_TRUE(WriteFileAtomic(dirs.cdi(), "a.json", "{}").ok());
  ASSERT_TRUE(WriteFileAtomic(dirs.cdi(), "a.json", "{\"x\":1}").ok());
  EXPECT_EQ(dirs.CdiFiles(), std::vector<std::string>{"a.json"});
  EXPECT_EQ(testing::ReadFile(dirs.cdi() + "/a.json"), "{\"x\":1}");
  EXPECT_EQ(std::filesystem::status(dirs.cdi() + "/a.json").permissions(),
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  EXPECT_TRUE(RemoveFile(dirs.cdi(), "a.json").ok());
  EXPECT_TRUE(RemoveFile(dirs.cdi(), "a.json").ok());  // missing is fine
  EXPECT_TRUE(dirs.CdiFiles().empty());
  auto failed = WriteFileAtomic(dirs.root() + "/missing", "a.json", "{}");
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().find("/missing"), std::string::npos);
}

}  // namespace
}  // namespace dra::driver::cdi

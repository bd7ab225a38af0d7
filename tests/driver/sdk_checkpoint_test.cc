// The checkpoint file: round trip, corruption detection, socket naming.
#include <gtest/gtest.h>

#include <fstream>

#include "dra/driver/plugin.h"
#include "driver/checkpoint.h"
#include "driver/sha256.h"
#include "driver_test_harness.h"

namespace dra::driver {
namespace {

TEST(SdkCheckpoint, RoundTripAndCorruption) {
  ClaimRecords records;
  ClaimRecord r;
  r.uid = "u1";
  r.namespace_ = "ns";
  r.name = "c";
  r.state = ClaimState::kPrepareCompleted;
  AllocatedDevice d;
  d.request = "gpu";
  d.full_request = "gpu/small";
  d.pool = "node-1";
  d.device = "dev-0";
  d.share_id = "s-1";
  d.consumed_capacity["memory"] = api::Quantity::MustParse("1Gi");
  d.opaque_configs.push_back(R"({"mode":"x"})");
  r.devices.push_back(d);
  r.driver_state = "state";
  r.cdi_spec_file = "f.json";
  r.cdi_spec = "{\n}\n";
  r.response.push_back(PreparedDeviceRecord{{"gpu"}, "node-1", "dev-0", {"a.com/b=c"}, "s-1"});
  records[r.uid] = r;
  std::string text = Checkpoint::Encode(records);
  auto back = Checkpoint::Decode(text, "cp");
  ASSERT_TRUE(back.ok()) << back.error();
  const ClaimRecord& b = back->at("u1");
  EXPECT_EQ(b.state, ClaimState::kPrepareCompleted);
  EXPECT_EQ(b.devices[0].full_request, "gpu/small");
  EXPECT_EQ(b.devices[0].share_id, "s-1");
  EXPECT_EQ(b.devices[0].consumed_capacity.at("memory").String(), "1Gi");
  EXPECT_EQ(b.devices[0].opaque_configs, d.opaque_configs);
  EXPECT_EQ(b.response, r.response);
  EXPECT_EQ(b.cdi_spec, r.cdi_spec);

  std::string corrupt = text;
  corrupt[corrupt.find("dev-0")] = 'D';
  auto bad = Checkpoint::Decode(corrupt, "cp");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("checksum mismatch"), std::string::npos);
  EXPECT_FALSE(Checkpoint::Decode("not json", "cp").ok());
}

TEST(SdkCheckpoint, UpdateIsReadModifyWrite) {
  testing::KubeletDirs dirs;
  Checkpoint cp(dirs.root() + "/cp.json");
  ASSERT_TRUE(cp.Load().ok());
  EXPECT_TRUE(cp.Load()->empty());
  ASSERT_TRUE(cp.Update([](ClaimRecords& r) {
                  r["a"].uid = "a";
                  return Status{};
                }).ok());
  ASSERT_TRUE(cp.Update([](ClaimRecords& r) {
                  r["b"].uid = "b";
                  return Status{};
                }).ok());
  EXPECT_FALSE(cp.Update([](ClaimRecords& r) {
                   r.clear();
                   return Status(Error{"no"});
                 }).ok());
  EXPECT_EQ(cp.Load()->size(), 2u);
  std::ofstream(dirs.root() + "/cp.json") << "{\"data\":\"{}\",\"checksum\":1}";
  auto bad = cp.Load();
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("corrupt checkpoint"), std::string::npos);
}

TEST(SdkCheckpoint, Crc32AndSha256KnownValues) {
  EXPECT_EQ(Crc32("123456789"), 0xCBF43926u);
  auto h = Sha256("abc");
  EXPECT_EQ(Base64UrlNoPadding(h.data(), h.size()), "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
  auto e = Sha256("");
  EXPECT_EQ(e[0], 0xe3);
  EXPECT_EQ(e[31], 0x55);
}

TEST(SdkCheckpoint, SocketNames) {
  EXPECT_EQ(DraSocketName(""), "dra.sock");
  EXPECT_EQ(DraSocketName("pod-1"), "dra-pod-1.sock");
  EXPECT_EQ(RegistrationSocketName("/var/lib/kubelet/plugins_registry", "gpu.example.com", ""),
            "gpu.example.com-reg.sock");
  EXPECT_EQ(RegistrationSocketName("/var/lib/kubelet/plugins_registry", "gpu.example.com", "pod-1"),
            "gpu.example.com-pod-1-reg.sock");
  std::string uid = "0123456789abcdef0123456789abcdef0123";
  std::string long_dir = "/" + std::string(40, 'd');
  std::string driver = std::string(30, 'x') + ".example.com";
  std::string second = RegistrationSocketName(long_dir, driver, uid);
  auto h = Sha256(uid);
  EXPECT_EQ(second, driver + "-" + Base64UrlNoPadding(h.data(), 8) + "-reg.sock");
  std::string very_long_dir = "/" + std::string(70, 'd');
  std::string third = RegistrationSocketName(very_long_dir, driver, uid);
  std::string both = driver;
  both.push_back('\0');
  both += uid;
  auto h2 = Sha256(both);
  EXPECT_EQ(third, "dra-" + Base64UrlNoPadding(h2.data(), 16) + "-reg.sock");
}

}  // namespace
}  // namespace dra::driver

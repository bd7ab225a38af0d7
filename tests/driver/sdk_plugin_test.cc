// The SDK end to end over its sockets, as a kubelet sees it (conformance
// checks 1-5, 7-19, 21, 25, 26, 28, 31-33 of docs/DRIVER-SDK.md).
#include <sys/mount.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <thread>

#include "driver/grpc_services.h"
#include "sdk_plugin_test_util.h"

namespace dra::driver::testing {
namespace {

std::vector<std::string> Ids(const drav1::Device& d) {
  return {d.cdi_device_ids().begin(), d.cdi_device_ids().end()};
}

unsigned Mode(const std::string& path) {
  struct stat st {};
  stat(path.c_str(), &st);
  return st.st_mode & 0777;
}

using SdkPlugin = PluginFixture;

TEST_F(SdkPlugin, RegistrationAnswersLikeAKubeletExpects) {
  const auto& ep = plugin->endpoints();
  // Check 1: sockets exist, names and lengths are acceptable.
  EXPECT_TRUE(IsSocket(ep.registration_socket));
  EXPECT_TRUE(IsSocket(ep.dra_socket));
  EXPECT_EQ(fs::path(ep.registration_socket).parent_path(), dirs.registrar());
  EXPECT_EQ(fs::path(ep.registration_socket).filename(), "gpu.example.com-reg.sock");
  EXPECT_NE(fs::path(ep.registration_socket).filename().string()[0], '.');
  EXPECT_LE(ep.registration_socket.size(), 107u);
  EXPECT_EQ(ep.dra_socket, dirs.plugins() + "/gpu.example.com/dra.sock");
  EXPECT_EQ(Mode(ep.dra_socket), 0600u);
  EXPECT_EQ(Mode(ep.registration_socket), 0600u);
  EXPECT_EQ(Mode(ep.plugin_data_directory), 0750u);
  // Check 2.
  EXPECT_EQ(info.type(), "DRAPlugin");
  EXPECT_EQ(info.name(), kDriverName);
  EXPECT_EQ(info.endpoint(), ep.dra_socket);
  std::vector<std::string> versions(info.supported_versions().begin(),
                                    info.supported_versions().end());
  EXPECT_EQ(versions,
            (std::vector<std::string>{"v1.DRAPlugin", "v1beta1.DRAPlugin", "v1.DRAResourceHealth",
                                      "v1alpha1.DRAResourceHealth"}));
  EXPECT_EQ(plugin->registration_status(), "registered");
  // Check 3 and 4: a rejection is answered with an error, the plugin keeps serving.
  auto rejected = client->Notify(false, "no handler");
  EXPECT_FALSE(rejected.ok());
  EXPECT_EQ(plugin->registration_status(), "rejected: no handler");
  for (int i = 0; i < 3; ++i) {
    pluginregistration::PluginInfo again;
    ASSERT_TRUE(client->GetInfo(again).ok());
    EXPECT_EQ(again.endpoint(), ep.dra_socket);
  }
}

TEST_F(SdkPlugin, WithoutHealthOnlyDraServicesAreAdvertised) {
  plugin->Stop();
  driver.EnableHealth(false);
  Start();
  std::vector<std::string> versions(info.supported_versions().begin(),
                                    info.supported_versions().end());
  EXPECT_EQ(versions, (std::vector<std::string>{"v1.DRAPlugin", "v1beta1.DRAPlugin"}));
  PluginOptions o = Options();
  o.serve_v1beta1 = false;
  plugin->Stop();
  Start(o);
  EXPECT_EQ(info.supported_versions().size(), 1);
  drav1beta1::NodePrepareResourcesResponse r;
  EXPECT_EQ(client->PrepareV1beta1({}, r).error_code(), grpc::StatusCode::UNIMPLEMENTED);
}

TEST_F(SdkPlugin, EmptyPrepareSucceedsOnBothVersions) {  // check 8
  drav1::NodePrepareResourcesResponse r1;
  ASSERT_TRUE(client->PrepareV1({}, r1).ok());
  EXPECT_TRUE(r1.claims().empty());
  drav1beta1::NodePrepareResourcesResponse r2;
  ASSERT_TRUE(client->PrepareV1beta1({}, r2).ok());
  EXPECT_TRUE(r2.claims().empty());
  drav1::NodeUnprepareResourcesResponse u;
  ASSERT_TRUE(client->UnprepareV1({}, u).ok());
  EXPECT_TRUE(u.claims().empty());
}

TEST_F(SdkPlugin, PrepareAnswersOwnResultsWithCdiIds) {  // checks 9, 12, 13, 21, 25
  ClaimSpec c;
  c.name = "multi";
  c.uid = "5e1f-uid-1";
  c.results.push_back({"gpu/small", kDriverName, "node-1", "dev-0", {}, false});
  c.results.push_back({"shared", kDriverName, "node-1", "dev-1", "share-a", false});
  c.results.push_back({"nic", "net.example.com", "node-1", "eth0", {}, false});
  c.configs.push_back({"FromClaim", {}, "net.example.com", R"({"whatever":true})"});
  c.configs.push_back({"FromClass", {"shared"}, kDriverName, R"({"mode":"a"})"});
  WriteClaim(dirs.claims(), c);
  drav1::NodePrepareResourcesResponse r;
  ASSERT_TRUE(client->PrepareV1({Ref(c)}, r).ok());
  ASSERT_EQ(r.claims().size(), 1u);
  const auto& entry = r.claims().at(c.uid);
  EXPECT_EQ(entry.error(), "");
  ASSERT_EQ(entry.devices_size(), 2);
  const auto& d0 = entry.devices(0);
  EXPECT_EQ(std::vector<std::string>(d0.request_names().begin(), d0.request_names().end()),
            std::vector<std::string>{"gpu"});
  EXPECT_EQ(d0.pool_name(), "node-1");
  EXPECT_EQ(d0.device_name(), "dev-0");
  EXPECT_FALSE(d0.has_share_id());
  EXPECT_EQ(Ids(d0), std::vector<std::string>{"k8s.gpu.example.com/claim=5e1f-uid-1-dev-0"});
  const auto& d1 = entry.devices(1);
  EXPECT_EQ(d1.share_id(), "share-a");
  EXPECT_EQ(Ids(d1),
            std::vector<std::string>{"k8s.gpu.example.com/claim=5e1f-uid-1-dev-1-share-a"});
  EXPECT_EQ(ResolveCdiIds(dirs.cdi(), Ids(d0)), "");
  EXPECT_EQ(ResolveCdiIds(dirs.cdi(), Ids(d1)), "");
  EXPECT_EQ(dirs.CdiFiles(), std::vector<std::string>{"k8s.gpu.example.com-claim_5e1f-uid-1.json"});
  auto spec = cdi::DecodeJson(ReadFile(dirs.cdi() + "/k8s.gpu.example.com-claim_5e1f-uid-1.json"));
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_EQ(spec->edits.env, std::vector<std::string>{"TEST_CLAIM=5e1f-uid-1"});

  // v1beta1: same devices, no share_id field at all.
  drav1beta1::NodePrepareResourcesResponse b;
  ASSERT_TRUE(client->PrepareV1beta1({Ref(c)}, b).ok());
  const auto& be = b.claims().at(c.uid);
  ASSERT_EQ(be.devices_size(), 2);
  EXPECT_EQ(be.devices(1).device_name(), "dev-1");
  EXPECT_EQ(std::vector<std::string>(be.devices(1).cdi_device_ids().begin(),
                                     be.devices(1).cdi_device_ids().end()),
            Ids(d1));
  EXPECT_EQ(driver.prepare_calls, 1);
}

TEST_F(SdkPlugin, PrepareIsIdempotent) {  // check 10
  ClaimSpec c = SimpleClaim("a", "uid-a", {"dev-0", "dev-1"});
  WriteClaim(dirs.claims(), c);
  auto first = PrepareOne(c);
  std::string spec_path = dirs.cdi() + "/k8s.gpu.example.com-claim_uid-a.json";
  std::string content = ReadFile(spec_path);
  auto second = PrepareOne(c);
  EXPECT_EQ(first.SerializeAsString(), second.SerializeAsString());
  EXPECT_EQ(ReadFile(spec_path), content);
  EXPECT_EQ(driver.prepare_calls, 1);
  // A removed spec is restored by the repeated prepare.
  fs::remove(spec_path);
  auto third = PrepareOne(c);
  EXPECT_EQ(third.SerializeAsString(), first.SerializeAsString());
  EXPECT_EQ(ReadFile(spec_path), content);
}

TEST_F(SdkPlugin, RestartKeepsPreparedClaimsAndUnprepareNeedsNoClaim) {  // checks 11, 17, 18, 30
  ClaimSpec c = SimpleClaim("a", "uid-a");
  WriteClaim(dirs.claims(), c);
  auto first = PrepareOne(c);
  std::string slices_before = ReadFile(dirs.slices());
  Restart();
  EXPECT_EQ(ReadFile(dirs.slices()),
            slices_before);       // not deleted at shutdown, re-published unchanged
  RemoveClaim(dirs.claims(), c);  // gone from the API server
  auto again = PrepareOne(c);
  EXPECT_EQ(again.SerializeAsString(), first.SerializeAsString());
  EXPECT_EQ(driver.prepare_calls, 1);
  EXPECT_EQ(UnprepareOne(c), "");
  EXPECT_EQ(driver.last_unprepare_state, "state-uid-a");
  EXPECT_TRUE(dirs.CdiFiles().empty());
  EXPECT_NE(ResolveCdiIds(dirs.cdi(), Ids(first.devices(0))), "");
  EXPECT_TRUE(Records()->empty());
}

TEST_F(SdkPlugin, PerClaimErrorsLeaveOtherClaimsAlone) {  // checks 14, 15
  ClaimSpec good = SimpleClaim("good", "uid-good", {"dev-0"});
  ClaimSpec missing = SimpleClaim("missing", "uid-missing", {"dev-1"});
  ClaimSpec replaced = SimpleClaim("replaced", "uid-new", {"dev-1"});
  ClaimSpec unallocated = SimpleClaim("unallocated", "uid-un", {"dev-1"});
  unallocated.allocated = false;
  ClaimSpec other = SimpleClaim("other", "uid-other");
  other.results = {{"nic", "net.example.com", "node-1", "eth0", {}, false}};
  ClaimSpec bad_config = SimpleClaim("badconfig", "uid-bad", {"dev-2"});
  bad_config.configs.push_back({"FromClaim", {"gpu"}, kDriverName, R"({"nomode":1})"});
  ClaimSpec elsewhere = SimpleClaim("elsewhere", "uid-elsewhere", {"dev-3"});
  elsewhere.node = "node-2";
  good.node = "node-1";
  for (const auto* c : {&good, &replaced, &unallocated, &other, &bad_config, &elsewhere})
    WriteClaim(dirs.claims(), *c);
  ClaimRefs old_uid = Ref(replaced);
  old_uid.uid = "uid-old";
  drav1::NodePrepareResourcesResponse r;
  ASSERT_TRUE(client
                  ->PrepareV1({Ref(good), Ref(missing), old_uid, Ref(unallocated), Ref(other),
                               Ref(bad_config), Ref(elsewhere)},
                              r)
                  .ok());
  ASSERT_EQ(r.claims().size(), 7u);
  EXPECT_EQ(r.claims().at("uid-good").error(), "");
  EXPECT_EQ(r.claims().at("uid-good").devices_size(), 1);
  auto error_of = [&](const std::string& uid) { return r.claims().at(uid).error(); };
  EXPECT_NE(error_of("uid-missing").find("ResourceClaim default/missing not found"),
            std::string::npos)
      << error_of("uid-missing");
  EXPECT_NE(error_of("uid-old").find("UID is uid-new, not uid-old"), std::string::npos)
      << error_of("uid-old");
  EXPECT_NE(error_of("uid-un").find("not allocated"), std::string::npos);
  EXPECT_NE(error_of("uid-other").find("no devices are allocated by driver gpu.example.com"),
            std::string::npos);
  EXPECT_NE(error_of("uid-bad").find("malformed opaque config"), std::string::npos);
  EXPECT_EQ(error_of("uid-elsewhere"),
            "ResourceClaim default/elsewhere: allocated to node node-2, not to this node node-1");
  EXPECT_EQ(r.claims().at("uid-bad").devices_size(), 0);
  // Nothing half-prepared: only the good claim is recorded and has a spec.
  EXPECT_EQ(Records()->size(), 1u);
  EXPECT_EQ(dirs.CdiFiles(), std::vector<std::string>{"k8s.gpu.example.com-claim_uid-good.json"});
  // After the fix, the retry succeeds.
  bad_config.configs[0].parameters_json = R"({"mode":"fast"})";
  WriteClaim(dirs.claims(), bad_config);
  EXPECT_EQ(PrepareOne(bad_config).error(), "");
  // A malformed request is a gRPC error.
  drav1::NodePrepareResourcesResponse bad;
  EXPECT_EQ(client->PrepareV1({{"default", "x", ""}}, bad).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(SdkPlugin, ExclusiveDeviceIsNotPreparedTwice) {
  ClaimSpec a = SimpleClaim("a", "uid-a", {"dev-0"});
  ClaimSpec b = SimpleClaim("b", "uid-b", {"dev-0"});
  WriteClaim(dirs.claims(), a);
  WriteClaim(dirs.claims(), b);
  EXPECT_EQ(PrepareOne(a).error(), "");
  EXPECT_NE(PrepareOne(b).error().find("already prepared for ResourceClaim default/a"),
            std::string::npos);
  EXPECT_EQ(UnprepareOne(a), "");
  EXPECT_EQ(PrepareOne(b).error(), "");
}

TEST_F(SdkPlugin, UnprepareUnknownAndTwiceSucceeds) {  // check 16
  ClaimSpec c = SimpleClaim("a", "uid-a");
  EXPECT_EQ(UnprepareOne(c), "");
  WriteClaim(dirs.claims(), c);
  EXPECT_EQ(PrepareOne(c).error(), "");
  drav1beta1::NodeUnprepareResourcesResponse r;
  ASSERT_TRUE(client->UnprepareV1beta1({Ref(c), {"default", "zzz", "uid-zzz"}}, r).ok());
  EXPECT_EQ(r.claims().size(), 2u);
  EXPECT_EQ(r.claims().at("uid-a").error(), "");
  EXPECT_EQ(r.claims().at("uid-zzz").error(), "");
  EXPECT_EQ(UnprepareOne(c), "");
  EXPECT_EQ(driver.unprepare_calls, 1);
}

TEST_F(SdkPlugin, FailedUnprepareKeepsTheClaimPrepared) {
  ClaimSpec c = SimpleClaim("a", "uid-a");
  WriteClaim(dirs.claims(), c);
  EXPECT_EQ(PrepareOne(c).error(), "");
  driver.fail_unprepare = true;
  EXPECT_NE(UnprepareOne(c).find("unprepare failed on purpose"), std::string::npos);
  EXPECT_EQ(dirs.CdiFiles().size(), 1u);
  driver.fail_unprepare = false;
  EXPECT_EQ(UnprepareOne(c), "");
  EXPECT_TRUE(dirs.CdiFiles().empty());
}

TEST_F(SdkPlugin, UnwritableCdiDirectoryIsAPerClaimError) {
  ClaimSpec c = SimpleClaim("a", "uid-a");
  WriteClaim(dirs.claims(), c);
  // Running as root ignores permission bits, so the directory is replaced by
  // a file: every write into it fails.
  fs::rename(dirs.cdi(), dirs.root() + "/cdi.away");
  std::ofstream(dirs.cdi()) << "not a directory";
  auto failed = PrepareOne(c);
  EXPECT_NE(failed.error().find("write CDI spec"), std::string::npos) << failed.error();
  EXPECT_TRUE(driver.prepared().empty());  // rolled back
  EXPECT_TRUE(Records()->empty());
  fs::remove(dirs.cdi());
  fs::rename(dirs.root() + "/cdi.away", dirs.cdi());
  EXPECT_EQ(PrepareOne(c).error(), "");
  EXPECT_EQ(dirs.CdiFiles().size(), 1u);
}

TEST_F(SdkPlugin, FullCdiFilesystemIsAPerClaimErrorAndLeavesNothingHalfWritten) {
  // A real full filesystem: the CDI directory on a 16 KiB tmpfs (four pages,
  // one per spec file). Mounting needs CAP_SYS_ADMIN, which the test
  // command's machines have (it runs as root).
  std::string small = dirs.root() + "/small-cdi";
  fs::create_directories(small);
  if (mount("tmpfs", small.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "size=16k,mode=0755") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs (" << std::strerror(errno) << "); needs root";
  }
  struct Unmount {
    std::string path;
    ~Unmount() { umount2(path.c_str(), MNT_DETACH); }
  } unmount{small};
  plugin->Stop();
  driver.SetDevices(8);
  PluginOptions o = Options();
  o.cdi_root = small;
  Start(o);

  std::vector<ClaimSpec> claims;
  std::string failure;
  std::size_t prepared = 0;
  for (int i = 0; i < 8 && failure.empty(); ++i) {
    ClaimSpec c = SimpleClaim("c" + std::to_string(i), "uid-" + std::to_string(i),
                              {"dev-" + std::to_string(i)});
    WriteClaim(dirs.claims(), c);
    claims.push_back(c);
    failure = PrepareOne(c).error();
    if (failure.empty()) ++prepared;
  }
  ASSERT_FALSE(failure.empty()) << "8 specs fit into 16 KiB";
  EXPECT_NE(failure.find("write CDI spec"), std::string::npos) << failure;
  EXPECT_NE(failure.find(small + "/"), std::string::npos) << failure;  // where
  EXPECT_NE(failure.find(std::strerror(ENOSPC)), std::string::npos) << failure;
  // Nothing half-written: no temporary file, no record of the failed claim,
  // the driver's preparation undone; the other claims are untouched.
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(small)) files.push_back(e.path().filename());
  EXPECT_EQ(files.size(), prepared);
  for (const auto& f : files) EXPECT_EQ(f.rfind('.', 0), std::string::npos) << f;
  auto records = Records();
  ASSERT_TRUE(records.ok()) << records.error();
  EXPECT_EQ(records->size(), prepared);
  EXPECT_EQ(records->count(claims.back().uid), 0u);
  EXPECT_EQ(driver.prepared().size(), prepared);
  // Space freed by an unprepare: the failed claim now prepares.
  EXPECT_EQ(UnprepareOne(claims.front()), "");
  EXPECT_EQ(PrepareOne(claims.back()).error(), "");
  plugin->Stop();
  plugin.reset();
}

TEST_F(SdkPlugin, ConcurrentPreparesOfOneClaimConverge) {  // check 19
  ClaimSpec c = SimpleClaim("a", "uid-a", {"dev-0", "dev-1"});
  WriteClaim(dirs.claims(), c);
  std::vector<std::string> answers(8);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      KubeletClient k(plugin->endpoints().registration_socket);
      k.Connect(plugin->endpoints().dra_socket);
      drav1::NodePrepareResourcesResponse r;
      if (k.PrepareV1({Ref(c)}, r).ok()) answers[i] = r.claims().at(c.uid).SerializeAsString();
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& a : answers) EXPECT_EQ(a, answers[0]);
  EXPECT_FALSE(answers[0].empty());
  EXPECT_EQ(driver.prepare_calls, 1);
}

TEST_F(SdkPlugin, ConcurrentDifferentClaimsWithoutSerialization) {  // check 19
  plugin->Stop();
  PluginOptions o = Options();
  o.serialize = false;
  Start(o);
  std::vector<ClaimSpec> claims;
  for (int i = 0; i < 4; ++i) {
    claims.push_back(SimpleClaim("c" + std::to_string(i), "uid-" + std::to_string(i),
                                 {"dev-" + std::to_string(i)}));
    WriteClaim(dirs.claims(), claims.back());
  }
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      KubeletClient k(plugin->endpoints().registration_socket);
      k.Connect(plugin->endpoints().dra_socket);
      for (int round = 0; round < 10; ++round) {
        drav1::NodePrepareResourcesResponse r;
        drav1::NodeUnprepareResourcesResponse u;
        if (!k.PrepareV1({Ref(claims[i])}, r).ok() || !r.claims().at(claims[i].uid).error().empty())
          ++failures;
        if (!k.UnprepareV1({Ref(claims[i])}, u).ok() ||
            !u.claims().at(claims[i].uid).error().empty())
          ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures, 0);
  EXPECT_TRUE(dirs.CdiFiles().empty());
  EXPECT_TRUE(Records()->empty());
}

TEST_F(SdkPlugin, HealthStreamsSendFullListsOnChangeAndPeriodically) {  // checks 31, 32, 33
  plugin->Stop();
  PluginOptions o = Options();
  o.health_resend_period = std::chrono::milliseconds(20);
  Start(o);
  auto v1 = client->WatchHealthV1();
  auto v1alpha1 = client->WatchHealthV1alpha1();
  ::v1::NodeWatchResourcesResponse r;
  ASSERT_TRUE(v1->Read(r));
  ASSERT_EQ(r.devices_size(), 4);
  EXPECT_EQ(r.devices(0).device().pool_name(), "node-1");
  EXPECT_EQ(r.devices(0).device().device_name(), "dev-0");
  EXPECT_EQ(r.devices(0).health(), ::v1::HEALTHY);
  EXPECT_GT(r.devices(0).last_updated_time(), 0);
  // Re-sent without any change.
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(v1->Read(r));
  ::v1alpha1::NodeWatchResourcesResponse a;
  ASSERT_TRUE(v1alpha1->Read(a));
  EXPECT_EQ(a.devices_size(), 4);
  EXPECT_EQ(a.devices(3).device().device_name(), "dev-3");
  driver.SetUnhealthy("dev-2");
  bool seen = false;
  for (int i = 0; i < 100 && !seen; ++i) {
    ASSERT_TRUE(v1->Read(r));
    seen = r.devices(2).health() == ::v1::UNHEALTHY;
  }
  EXPECT_TRUE(seen);
  EXPECT_EQ(r.devices(2).message(), "broken");
  seen = false;
  for (int i = 0; i < 100 && !seen; ++i) {
    ASSERT_TRUE(v1alpha1->Read(a));
    seen = a.devices(2).health() == ::v1alpha1::UNHEALTHY;
  }
  EXPECT_TRUE(seen);
  // The stream stays open until shutdown, then ends.
  plugin->Stop();
  while (v1->Read(r)) {
  }
  while (v1alpha1->Read(a)) {
  }
}

TEST(SdkHealth, MessagesAreCutOnUtf8Boundaries) {
  std::string ascii(2000, 'a');
  EXPECT_EQ(TruncateHealthMessage(ascii).size(), 1024u);
  std::string utf8 = std::string(1023, 'a') + "\xc3\xa9";  // é straddles byte 1024
  EXPECT_EQ(TruncateHealthMessage(utf8), std::string(1023, 'a'));
  EXPECT_EQ(TruncateHealthMessage("short"), "short");
}

TEST_F(SdkPlugin, SlicesArePublishedAndFollowInventoryChanges) {  // checks 26, 28
  auto slices = NewFileSlicePublisher(dirs.slices())->List();
  ASSERT_TRUE(slices.ok()) << slices.error();
  ASSERT_EQ(slices->size(), 1u);
  const auto& s = (*slices)[0];
  EXPECT_EQ(s.spec.driver, kDriverName);
  EXPECT_EQ(s.spec.node_name, "node-1");
  EXPECT_EQ(s.spec.pool.name, "node-1");
  EXPECT_EQ(s.spec.pool.generation, 1);
  EXPECT_EQ(s.spec.pool.resource_slice_count, 1);
  EXPECT_EQ(s.metadata.name.rfind("00000-gpu.example.com-node-1-", 0), 0u);
  ASSERT_EQ(s.metadata.owner_references.size(), 1u);
  EXPECT_EQ(s.metadata.owner_references[0].uid, "node-uid-1");
  driver.Taint("dev-1");
  ASSERT_TRUE(WaitFor([&] {
    auto now = NewFileSlicePublisher(dirs.slices())->List();
    return now.ok() && now->size() == 1 && (*now)[0].spec.devices.size() == 4 &&
           !(*now)[0].spec.devices[1].taints.empty();
  }));
  auto after = NewFileSlicePublisher(dirs.slices())->List();
  EXPECT_EQ((*after)[0].spec.pool.generation, 1);  // a single in-place update
  EXPECT_EQ((*after)[0].metadata.name, s.metadata.name);
}

TEST_F(SdkPlugin, StaleSocketsAreReplacedAndRemovedOnStop) {  // check 5
  std::string reg = plugin->endpoints().registration_socket;
  std::string dra = plugin->endpoints().dra_socket;
  plugin->Stop();
  EXPECT_FALSE(fs::exists(reg));
  EXPECT_FALSE(fs::exists(dra));
  std::ofstream(reg) << "stale";
  std::ofstream(dra) << "stale";
  Start();
  EXPECT_TRUE(IsSocket(reg));
  EXPECT_TRUE(IsSocket(dra));
  drav1::NodePrepareResourcesResponse r;
  EXPECT_TRUE(client->PrepareV1({}, r).ok());
}

TEST_F(SdkPlugin, BadOptionsAreClearErrors) {
  plugin->Stop();
  PluginOptions o = Options();
  o.driver_name = "Bad_Name";
  auto p = Plugin::Start(driver, *claims, *publisher, o);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("driver name Bad_Name"), std::string::npos);
  o = Options();
  o.node_name = "";
  EXPECT_FALSE(Plugin::Start(driver, *claims, *publisher, o).ok());
  o = Options();
  o.registrar_directory = "/tmp/" + std::string(120, 'r');
  p = Plugin::Start(driver, *claims, *publisher, o);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("longer than 107 bytes"), std::string::npos) << p.error();
  fs::remove_all(o.registrar_directory);
  o = Options();
  std::ofstream(dirs.root() + "/file") << "x";
  o.cdi_root = dirs.root() + "/file/cdi";
  p = Plugin::Start(driver, *claims, *publisher, o);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("CDI directory"), std::string::npos) << p.error();
}

TEST_F(SdkPlugin, FailedStartLeavesARunningInstanceAlone) {
  // The second start fails in recovery: its checkpoint lock cannot be opened.
  std::string lock = plugin->endpoints().checkpoint_file + ".lock";
  fs::remove(lock);
  fs::create_directory(lock);
  TestDriver other;
  auto second = Plugin::Start(other, *claims, *publisher, Options());
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().find("open " + lock), std::string::npos) << second.error();
  EXPECT_TRUE(IsSocket(plugin->endpoints().registration_socket));
  EXPECT_TRUE(IsSocket(plugin->endpoints().dra_socket));
  fs::remove(lock);
  drav1::NodePrepareResourcesResponse r;
  EXPECT_TRUE(client->PrepareV1({}, r).ok());
}

TEST_F(SdkPlugin, RollingUpdateInstancesShareState) {  // check 6
  plugin->Stop();
  PluginOptions a_opts = Options();
  a_opts.pod_uid = "pod-a";
  Start(a_opts);
  auto a = std::move(plugin);
  auto a_client = std::move(client);
  TestDriver driver_b;
  PluginOptions b_opts = Options();
  b_opts.pod_uid = "pod-b";
  auto b = Plugin::Start(driver_b, *claims, *publisher, b_opts);
  ASSERT_TRUE(b.ok()) << b.error();
  EXPECT_EQ(fs::path(a->endpoints().registration_socket).filename(),
            "gpu.example.com-pod-a-reg.sock");
  EXPECT_EQ(fs::path((*b)->endpoints().registration_socket).filename(),
            "gpu.example.com-pod-b-reg.sock");
  EXPECT_EQ(fs::path((*b)->endpoints().dra_socket).filename(), "dra-pod-b.sock");
  KubeletClient b_client((*b)->endpoints().registration_socket);
  auto b_info = b_client.Register();
  EXPECT_NE(b_info.endpoint(), a->endpoints().dra_socket);
  ClaimSpec c = SimpleClaim("a", "uid-a");
  WriteClaim(dirs.claims(), c);
  drav1::NodePrepareResourcesResponse r;
  ASSERT_TRUE(a_client->PrepareV1({Ref(c)}, r).ok());
  EXPECT_EQ(r.claims().at(c.uid).error(), "");
  // B answers the repeated prepare from the shared checkpoint, then unprepares.
  drav1::NodePrepareResourcesResponse r2;
  ASSERT_TRUE(b_client.PrepareV1({Ref(c)}, r2).ok());
  EXPECT_EQ(r2.SerializeAsString(), r.SerializeAsString());
  EXPECT_EQ(driver_b.prepare_calls, 0);
  drav1::NodeUnprepareResourcesResponse u;
  ASSERT_TRUE(b_client.UnprepareV1({Ref(c)}, u).ok());
  EXPECT_EQ(u.claims().at(c.uid).error(), "");
  EXPECT_TRUE(dirs.CdiFiles().empty());
  EXPECT_TRUE(fs::exists(dirs.plugins() + "/gpu.example.com/serialize.lock"));
  // The old instance goes away; the new one keeps its sockets and works.
  a->Stop();
  EXPECT_TRUE(IsSocket((*b)->endpoints().registration_socket));
  pluginregistration::PluginInfo again;
  EXPECT_TRUE(b_client.GetInfo(again).ok());
  drav1::NodePrepareResourcesResponse r3;
  ASSERT_TRUE(b_client.PrepareV1({Ref(c)}, r3).ok());
  EXPECT_EQ(r3.claims().at(c.uid).error(), "");
  (*b)->Stop();
}

}  // namespace
}  // namespace dra::driver::testing

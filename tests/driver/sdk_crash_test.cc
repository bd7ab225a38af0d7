// Crash safety of prepared-claim state: kill -9 of a real plugin process in
// the middle of a prepare or unprepare, and start-up reconciliation of every
// state a crash can leave behind.
#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include "sdk_plugin_test_util.h"

namespace dra::driver::testing {
namespace {

// ---- the child: this test program re-executed with DRA_SDK_CRASH_CHILD ------

// Prepare or Unprepare (per DRA_SDK_CRASH_AT) announces itself with a marker
// file and then hangs until the process is killed.
class HangingDriver final : public TestDriver {
 public:
  HangingDriver(std::string marker, bool in_prepare)
      : marker_(std::move(marker)), in_prepare_(in_prepare) {}
  Result<PreparedClaim> Prepare(const ClaimToPrepare& claim) override {
    auto out = TestDriver::Prepare(claim);
    if (in_prepare_) Hang();
    return out;
  }
  Status Unprepare(const ClaimToUnprepare& claim) override {
    if (!in_prepare_) Hang();
    return TestDriver::Unprepare(claim);
  }

 private:
  void Hang() {
    std::ofstream(marker_) << "hanging";
    while (true) pause();
  }
  std::string marker_;
  bool in_prepare_;
};

int RunCrashChild(const std::string& root, const std::string& at) {
  HangingDriver driver(root + "/hanging", at == "prepare");
  PluginOptions o;
  o.driver_name = kDriverName;
  o.node_name = "node-1";
  o.registrar_directory = root + "/reg";
  o.plugins_directory = root + "/plugins";
  o.cdi_root = root + "/cdi";
  auto claims = NewManifestClaimSource(root + "/claims");
  auto slices = NewFileSlicePublisher(root + "/slices.yaml");
  return RunPlugin(driver, *claims, *slices, o);
}

// Runs before main() in the re-executed child, never in the test itself.
const bool kIsCrashChild = [] {
  if (const char* root = std::getenv("DRA_SDK_CRASH_CHILD")) {
    const char* at = std::getenv("DRA_SDK_CRASH_AT");
    _exit(RunCrashChild(root, at ? at : "prepare"));
  }
  return false;
}();

// ---- the tests -------------------------------------------------------------

class SdkCrash : public PluginFixture {
 protected:
  void SetUp() override {}  // each test starts the plugin when it needs it

  // Runs the plugin in a child, starts `call` in a thread, waits until the
  // driver hangs inside it, and kills the child with SIGKILL.
  template <class Call>
  void KillDuring(const std::string& at, Call call) {
    ASSERT_FALSE(kIsCrashChild);
    std::string reg = dirs.registrar() + "/gpu.example.com-reg.sock";
    ChildProcess child("/proc/self/exe", {},
                       {"DRA_SDK_CRASH_CHILD=" + dirs.root(), "DRA_SDK_CRASH_AT=" + at},
                       dirs.root() + "/child.log");
    ASSERT_TRUE(WaitFor([&] { return IsSocket(reg) || !child.Running(); }))
        << ReadFile(dirs.root() + "/child.log");
    ASSERT_TRUE(child.Running()) << ReadFile(dirs.root() + "/child.log");
    KubeletClient k(reg);
    k.Register();
    std::thread t([&] { call(k); });
    bool hanging = WaitFor([&] { return fs::exists(dirs.root() + "/hanging"); });
    child.Signal(SIGKILL);
    int status = child.Wait();
    t.join();
    ASSERT_TRUE(hanging);
    EXPECT_TRUE(WIFSIGNALED(status));
    fs::remove(dirs.root() + "/hanging");
    // The killed process left its sockets behind.
    EXPECT_TRUE(fs::exists(reg));
  }
};

TEST_F(SdkCrash, KillDuringPrepareIsRolledBackAtRestart) {
  ClaimSpec c = SimpleClaim("a", "uid-a");
  WriteClaim(dirs.claims(), c);
  KillDuring("prepare", [&](KubeletClient& k) {
    drav1::NodePrepareResourcesResponse r;
    EXPECT_FALSE(k.PrepareV1({Ref(c)}, r).ok());  // the connection dies
  });
  auto left = Checkpoint(dirs.plugins() + "/gpu.example.com/checkpoint.json").Load();
  ASSERT_TRUE(left.ok()) << left.error();
  ASSERT_EQ(left->count("uid-a"), 1u);
  EXPECT_EQ(left->at("uid-a").state, ClaimState::kPrepareStarted);

  Start();                               // in-process restart on the same directories
  EXPECT_EQ(driver.unprepare_calls, 1);  // the interrupted prepare was undone
  EXPECT_TRUE(Records()->empty());
  EXPECT_TRUE(dirs.CdiFiles().empty());
  auto again = PrepareOne(c);
  EXPECT_EQ(again.error(), "");
  EXPECT_EQ(ResolveCdiIds(dirs.cdi(), {again.devices(0).cdi_device_ids().begin(),
                                       again.devices(0).cdi_device_ids().end()}),
            "");
}

TEST_F(SdkCrash, KillDuringUnprepareLeavesAClaimThatUnpreparesLater) {
  ClaimSpec c = SimpleClaim("a", "uid-a");
  WriteClaim(dirs.claims(), c);
  Start();
  auto prepared = PrepareOne(c);
  ASSERT_EQ(prepared.error(), "");
  plugin->Stop();
  plugin.reset();
  KillDuring("unprepare", [&](KubeletClient& k) {
    drav1::NodeUnprepareResourcesResponse r;
    EXPECT_FALSE(k.UnprepareV1({Ref(c)}, r).ok());
  });
  Start();
  EXPECT_EQ(dirs.CdiFiles().size(), 1u);  // still prepared: the kubelet will retry
  EXPECT_EQ(PrepareOne(c).SerializeAsString(), prepared.SerializeAsString());
  EXPECT_EQ(UnprepareOne(c), "");
  EXPECT_TRUE(dirs.CdiFiles().empty());
  EXPECT_TRUE(Records()->empty());
}

TEST_F(SdkCrash, StartupReconcilesEveryLeftoverState) {
  std::string data_dir = dirs.plugins() + "/gpu.example.com";
  fs::create_directories(data_dir);
  Checkpoint cp(data_dir + "/checkpoint.json");
  // A prepare that got as far as writing its CDI spec.
  ClaimRecord started;
  started.uid = "uid-started";
  started.namespace_ = "default";
  started.name = "started";
  started.state = ClaimState::kPrepareStarted;
  started.devices.push_back(AllocatedDevice{"gpu", "gpu", "node-1", "dev-0", {}, false, {}, {}});
  started.cdi_spec_file = "k8s.gpu.example.com-claim_uid-started.json";
  // A completed claim whose spec vanished (unprepare crashed after the unlink).
  ClaimRecord done;
  done.uid = "uid-done";
  done.namespace_ = "default";
  done.name = "done";
  done.state = ClaimState::kPrepareCompleted;
  done.devices.push_back(AllocatedDevice{"gpu", "gpu", "node-1", "dev-1", {}, false, {}, {}});
  done.cdi_spec_file = "k8s.gpu.example.com-claim_uid-done.json";
  done.cdi_spec =
      R"({"cdiVersion":"0.3.0","kind":"k8s.gpu.example.com/claim","devices":[{"name":"x","containerEdits":{"env":["A=1"]}}]})";
  done.response.push_back(
      PreparedDeviceRecord{{"gpu"}, "node-1", "dev-1", {"k8s.gpu.example.com/claim=x"}, {}});
  ASSERT_TRUE(cp.Update([&](ClaimRecords& r) {
                  r[started.uid] = started;
                  r[done.uid] = done;
                  return Status{};
                }).ok());
  std::ofstream(dirs.cdi() + "/" + started.cdi_spec_file) << "{}";
  std::ofstream(dirs.cdi() + "/k8s.gpu.example.com-claim_uid-orphan.json") << "{}";  // no record
  std::ofstream(dirs.cdi() + "/.k8s.gpu.example.com-claim_uid-x.json.a1b2c3.tmp")
      << "{";                                                              // killed write
  std::ofstream(dirs.cdi() + "/other.vendor.com-gpu_uid-1.json") << "{}";  // not ours

  Start();
  EXPECT_EQ(driver.unprepare_calls, 1);
  EXPECT_EQ(dirs.CdiFiles(), (std::vector<std::string>{"k8s.gpu.example.com-claim_uid-done.json",
                                                       "other.vendor.com-gpu_uid-1.json"}));
  EXPECT_EQ(ReadFile(dirs.cdi() + "/k8s.gpu.example.com-claim_uid-done.json"), done.cdi_spec);
  auto records = Records();
  ASSERT_TRUE(records.ok());
  EXPECT_EQ(records->size(), 1u);
  EXPECT_EQ(records->count("uid-done"), 1u);
  // The completed claim unprepares normally without its ResourceClaim.
  EXPECT_EQ(UnprepareOne(ClaimSpec{"default", "done", "uid-done", true, {}, {}, {}}), "");
  EXPECT_EQ(dirs.CdiFiles(), std::vector<std::string>{"other.vendor.com-gpu_uid-1.json"});
}

TEST_F(SdkCrash, CorruptCheckpointIsSetAsideAndTheDriverServes) {
  // A completed claim's spec is on disk; then its checkpoint is damaged.
  Start();
  ClaimSpec a = SimpleClaim("a", "uid-a");
  WriteClaim(dirs.claims(), a);
  ASSERT_EQ(PrepareOne(a).error(), "");
  plugin->Stop();
  std::vector<std::string> specs = dirs.CdiFiles();
  ASSERT_EQ(specs.size(), 1u);
  std::string data_dir = dirs.plugins() + "/gpu.example.com";
  const std::string damaged = R"({"data":"{}","checksum":7})";
  std::ofstream(data_dir + "/checkpoint.json") << damaged;

  Start();  // no error: the driver serves with no records
  std::vector<std::string> aside;
  for (const auto& e : fs::directory_iterator(data_dir)) {
    std::string name = e.path().filename().string();
    if (name.rfind("checkpoint.json.corrupt-", 0) == 0) aside.push_back(name);
  }
  ASSERT_EQ(aside.size(), 1u);
  EXPECT_EQ(ReadFile(data_dir + "/" + aside[0]), damaged);  // nothing deleted
  EXPECT_FALSE(fs::exists(data_dir + "/checkpoint.json"));
  EXPECT_EQ(dirs.CdiFiles(), specs);  // may belong to a running container

  // The kubelet prepares the claim again and gets the same devices; another
  // claim prepares as usual.
  auto again = PrepareOne(a);
  EXPECT_EQ(again.error(), "");
  EXPECT_EQ(ResolveCdiIds(dirs.cdi(), {again.devices(0).cdi_device_ids().begin(),
                                       again.devices(0).cdi_device_ids().end()}),
            "");
  ClaimSpec b = SimpleClaim("b", "uid-b", {"dev-1"});
  WriteClaim(dirs.claims(), b);
  EXPECT_EQ(PrepareOne(b).error(), "");
  EXPECT_EQ(UnprepareOne(a), "");
  EXPECT_EQ(UnprepareOne(b), "");
  EXPECT_TRUE(dirs.CdiFiles().empty());
}

TEST_F(SdkCrash, SpecOfAForgottenClaimGoesAtItsUnprepare) {
  // Records set aside as corrupt: the kubelet unprepares a claim the driver
  // no longer knows; its spec, found by name, must not leak.
  Start();
  ClaimSpec a = SimpleClaim("a", "uid-a");
  WriteClaim(dirs.claims(), a);
  ASSERT_EQ(PrepareOne(a).error(), "");
  plugin->Stop();
  std::string data_dir = dirs.plugins() + "/gpu.example.com";
  std::ofstream(data_dir + "/checkpoint.json") << "garbage";
  Start();
  ASSERT_EQ(dirs.CdiFiles().size(), 1u);
  EXPECT_EQ(UnprepareOne(a), "");
  EXPECT_TRUE(dirs.CdiFiles().empty());
  EXPECT_EQ(driver.unprepare_calls, 0);  // nothing known to undo in the driver
}

TEST_F(SdkCrash, UnreadableCheckpointStillStopsStartUp) {
  // Not corruption but an I/O problem: the operator must fix the node.
  std::string data_dir = dirs.plugins() + "/gpu.example.com";
  fs::create_directories(data_dir + "/checkpoint.json");  // a directory
  auto claims_source = NewManifestClaimSource(dirs.claims());
  auto slices = NewFileSlicePublisher(dirs.slices());
  auto p = Plugin::Start(driver, *claims_source, *slices, Options());
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find(data_dir + "/checkpoint.json"), std::string::npos) << p.error();
}

}  // namespace
}  // namespace dra::driver::testing

// 1,000 prepare/unprepare cycles over concurrent claims with plugin restarts
// in between; afterwards nothing is left: no CDI spec, no checkpoint entry,
// no socket.
#include <thread>

#include "sdk_plugin_test_util.h"

namespace dra::driver::testing {
namespace {

using SdkStress = PluginFixture;

TEST_F(SdkStress, ThousandCyclesWithRestartsLeakNothing) {
  constexpr int kThreads = 4;
  constexpr int kRounds = 10;
  constexpr int kCyclesPerThreadAndRound = 25;  // 4 * 10 * 25 = 1000
  std::vector<std::vector<ClaimSpec>> claims(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    for (int k = 0; k < 2; ++k) {
      // Both claims of a thread use the same device, one after the other.
      claims[t].push_back(SimpleClaim("t" + std::to_string(t) + "c" + std::to_string(k),
                                      "uid-" + std::to_string(t) + "-" + std::to_string(k),
                                      {"dev-" + std::to_string(t)}));
      WriteClaim(dirs.claims(), claims[t].back());
    }
  }
  std::atomic<int> cycles{0};
  std::atomic<int> failures{0};
  std::string first_failure;
  std::mutex failure_mu;
  auto fail = [&](const std::string& what) {
    std::lock_guard lock(failure_mu);
    if (failures++ == 0) first_failure = what;
  };
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        KubeletClient k(plugin->endpoints().registration_socket);
        k.Connect(plugin->endpoints().dra_socket);
        for (int i = 0; i < kCyclesPerThreadAndRound; ++i) {
          const ClaimSpec& c = claims[t][i % 2];
          drav1::NodePrepareResourcesResponse r;
          auto s = k.PrepareV1({Ref(c)}, r);
          if (!s.ok() || r.claims().at(c.uid).error() != "" ||
              r.claims().at(c.uid).devices_size() != 1) {
            fail("prepare " + c.uid + ": " + s.error_message() +
                 (s.ok() ? r.claims().at(c.uid).error() : ""));
          }
          if (i % 5 == 0) {  // a repeated prepare, as after a kubelet restart
            drav1beta1::NodePrepareResourcesResponse again;
            if (!k.PrepareV1beta1({Ref(c)}, again).ok() || again.claims().at(c.uid).error() != "") {
              fail("repeated prepare " + c.uid);
            }
          }
          drav1::NodeUnprepareResourcesResponse u;
          s = k.UnprepareV1({Ref(c)}, u);
          if (!s.ok() || u.claims().at(c.uid).error() != "") fail("unprepare " + c.uid);
          ++cycles;
        }
      });
    }
    for (auto& t : threads) t.join();
    // Leave one claim prepared across the restart; it must survive it.
    EXPECT_EQ(PrepareOne(claims[0][0]).error(), "");
    Restart();
    EXPECT_EQ(UnprepareOne(claims[0][0]), "");
  }
  EXPECT_EQ(cycles, 1000);
  EXPECT_EQ(failures, 0) << first_failure;
  EXPECT_TRUE(dirs.CdiFiles().empty());
  EXPECT_TRUE(Records()->empty());
  EXPECT_TRUE(driver.prepared().empty());
  std::string reg = plugin->endpoints().registration_socket;
  std::string dra = plugin->endpoints().dra_socket;
  plugin->Stop();
  EXPECT_FALSE(fs::exists(reg));
  EXPECT_FALSE(fs::exists(dra));
  for (const auto& e : fs::directory_iterator(dirs.registrar()))
    ADD_FAILURE() << "left: " << e.path();
}

}  // namespace
}  // namespace dra::driver::testing

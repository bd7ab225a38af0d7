// The kubelet client (dra/driver/kubelet_client.h) against the SDK's plugin
// and against a scripted plugin that breaks the kubelet's rules.
#include "driver/kubelet_client.h"

#include <gtest/gtest.h>

#include <fstream>
#include <mutex>

#include "sdk_plugin_test_util.h"

namespace dra::driver::testing {
namespace {

class KubeletClientTest : public PluginFixture {
 protected:
  void SetUp() override {}  // each test starts the plugin it needs
};

TEST_F(KubeletClientTest, RegistersWithV1AndPreparesInPlainTypes) {
  Start();
  driver::KubeletClient kubelet(plugin->endpoints().registration_socket);
  ASSERT_TRUE(kubelet.Register().ok());
  EXPECT_EQ(kubelet.dra_service(), kDraPluginV1);
  EXPECT_EQ(kubelet.info().name(), kDriverName);
  EXPECT_EQ(plugin->registration_status(), "registered");

  ClaimSpec c = SimpleClaim("a", "uid-a", {"dev-0", "dev-1"});
  c.results[1].share_id = "share-1";
  WriteClaim(dirs.claims(), c);
  auto prepared = kubelet.NodePrepareResources({Ref(c)});
  ASSERT_TRUE(prepared.ok()) << prepared.error();
  ASSERT_EQ(prepared->size(), 1u);
  const ClaimPrepareResult& r = prepared->at("uid-a");
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(r.devices.size(), 2u);
  EXPECT_EQ(r.devices[0].device, "dev-0");
  EXPECT_EQ(r.devices[0].pool, "node-1");
  EXPECT_EQ(r.devices[0].request_names, std::vector<std::string>{"gpu"});
  EXPECT_FALSE(r.devices[0].share_id.has_value());
  EXPECT_EQ(r.devices[1].share_id, "share-1");
  std::vector<std::string> ids;
  for (const auto& d : r.devices)
    ids.insert(ids.end(), d.cdi_device_ids.begin(), d.cdi_device_ids.end());
  EXPECT_FALSE(ids.empty());
  EXPECT_EQ(ResolveCdiIds(dirs.cdi(), ids), "");

  auto unprepared = kubelet.NodeUnprepareResources({Ref(c)});
  ASSERT_TRUE(unprepared.ok()) << unprepared.error();
  EXPECT_EQ(unprepared->at("uid-a"), "");
  EXPECT_TRUE(dirs.CdiFiles().empty());
}

TEST_F(KubeletClientTest, FallsBackToV1beta1) {
  PluginOptions o = Options();
  o.serve_v1 = false;
  Start(o);
  driver::KubeletClient kubelet(plugin->endpoints().registration_socket);
  ASSERT_TRUE(kubelet.Register().ok());
  EXPECT_EQ(kubelet.dra_service(), kDraPluginV1beta1);
  ClaimSpec c = SimpleClaim("b", "uid-b");
  WriteClaim(dirs.claims(), c);
  auto prepared = kubelet.NodePrepareResources({Ref(c)});
  ASSERT_TRUE(prepared.ok()) << prepared.error();
  ASSERT_EQ(prepared->at("uid-b").devices.size(), 1u);
  EXPECT_FALSE(prepared->at("uid-b").devices[0].cdi_device_ids.empty());
  auto unprepared = kubelet.NodeUnprepareResources({Ref(c)});
  ASSERT_TRUE(unprepared.ok()) << unprepared.error();
  EXPECT_EQ(unprepared->at("uid-b"), "");
}

TEST_F(KubeletClientTest, PerClaimErrorsAreReturnedPerClaim) {
  Start();
  driver::KubeletClient kubelet(plugin->endpoints().registration_socket);
  ASSERT_TRUE(kubelet.Register().ok());
  ClaimSpec missing = SimpleClaim("missing", "uid-m");  // no manifest written
  auto prepared = kubelet.NodePrepareResources({Ref(missing)});
  ASSERT_TRUE(prepared.ok()) << prepared.error();
  EXPECT_NE(prepared->at("uid-m").error.find("not found"), std::string::npos)
      << prepared->at("uid-m").error;
}

TEST_F(KubeletClientTest, FindsTheDriversRegistrationSocket) {
  Start();
  // Neither a dot file nor a regular file is a candidate.
  std::ofstream(dirs.registrar() + "/not-a-socket") << "x";
  auto sockets = ListRegistrationSockets(dirs.registrar());
  ASSERT_TRUE(sockets.ok()) << sockets.error();
  EXPECT_EQ(*sockets, std::vector<std::string>{plugin->endpoints().registration_socket});
  auto found = FindRegistrationSocket(dirs.registrar(), kDriverName);
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_EQ(*found, plugin->endpoints().registration_socket);
  auto other = FindRegistrationSocket(dirs.registrar(), "nic.example.com");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().find("driver gpu.example.com"), std::string::npos) << other.error();
  auto none = ListRegistrationSockets(dirs.root() + "/absent");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find("/absent"), std::string::npos);
}

TEST_F(KubeletClientTest, CallsBeforeRegistrationOrWithoutPluginFail) {
  KubeletClientOptions fast;
  fast.dial_timeout = std::chrono::milliseconds(200);
  fast.get_info_timeout = std::chrono::milliseconds(200);
  driver::KubeletClient kubelet(dirs.registrar() + "/nobody.sock", fast);
  auto prepared = kubelet.NodePrepareResources({});
  ASSERT_FALSE(prepared.ok());
  EXPECT_EQ(prepared.error(), "NodePrepareResources: plugin is not registered");
  Status s = kubelet.Register();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("GetInfo on " + dirs.registrar() + "/nobody.sock"), std::string::npos)
      << s.error();
  EXPECT_NE(s.error().find("DeadlineExceeded"), std::string::npos) << s.error();
}

// A plugin whose GetInfo and DRAPlugin answers are scripted.
class ScriptedPlugin : public pluginregistration::Registration::Service,
                       public drav1::DRAPlugin::Service {
 public:
  grpc::Status GetInfo(grpc::ServerContext*, const pluginregistration::InfoRequest*,
                       pluginregistration::PluginInfo* out) override {
    *out = info;
    return grpc::Status::OK;
  }
  grpc::Status NotifyRegistrationStatus(grpc::ServerContext*,
                                        const pluginregistration::RegistrationStatus* in,
                                        pluginregistration::RegistrationStatusResponse*) override {
    std::lock_guard lock(mu);
    notifications.push_back((in->plugin_registered() ? "registered" : "rejected: ") + in->error());
    return grpc::Status::OK;
  }
  grpc::Status NodePrepareResources(grpc::ServerContext*, const drav1::NodePrepareResourcesRequest*,
                                    drav1::NodePrepareResourcesResponse* out) override {
    *out = prepare_answer;
    return grpc::Status::OK;
  }

  pluginregistration::PluginInfo info;
  drav1::NodePrepareResourcesResponse prepare_answer;
  std::mutex mu;
  std::vector<std::string> notifications;
};

class ScriptedPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    socket_ = dirs_.registrar() + "/scripted.sock";
    plugin_.info.set_type("DRAPlugin");
    plugin_.info.set_name("scripted.example.com");
    plugin_.info.add_supported_versions(kDraPluginV1);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("unix:" + socket_, grpc::InsecureServerCredentials());
    builder.RegisterService(static_cast<pluginregistration::Registration::Service*>(&plugin_));
    builder.RegisterService(static_cast<drav1::DRAPlugin::Service*>(&plugin_));
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
  }
  void TearDown() override { server_->Shutdown(); }
  std::vector<std::string> Notifications() {
    std::lock_guard lock(plugin_.mu);
    return plugin_.notifications;
  }

  KubeletDirs dirs_;
  std::string socket_;
  ScriptedPlugin plugin_;
  std::unique_ptr<grpc::Server> server_;
};

TEST_F(ScriptedPluginTest, EmptyEndpointMeansTheRegistrationSocket) {
  driver::KubeletClient kubelet(socket_);
  ASSERT_TRUE(kubelet.Register().ok());
  EXPECT_EQ(Notifications(), std::vector<std::string>{"registered"});
  auto prepared = kubelet.NodePrepareResources({});
  ASSERT_TRUE(prepared.ok()) << prepared.error();
  EXPECT_TRUE(prepared->empty());
}

TEST_F(ScriptedPluginTest, WrongTypeIsRejectedAndTold) {
  plugin_.info.set_type("CSIPlugin");
  driver::KubeletClient kubelet(socket_);
  Status s = kubelet.Register();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("no handler registered for plugin type: CSIPlugin"), std::string::npos)
      << s.error();
  ASSERT_EQ(Notifications().size(), 1u);
  EXPECT_EQ(Notifications()[0], "rejected: " + s.error());
  EXPECT_EQ(kubelet.dra_service(), "");
}

TEST_F(ScriptedPluginTest, UnsupportedVersionsAreRejected) {
  plugin_.info.clear_supported_versions();
  plugin_.info.add_supported_versions("v2.DRAPlugin");
  driver::KubeletClient kubelet(socket_);
  Status s = kubelet.Register();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("it offers [v2.DRAPlugin]"), std::string::npos) << s.error();
  EXPECT_EQ(Notifications().size(), 1u);
}

TEST_F(ScriptedPluginTest, AnswersOutsideTheRequestFailTheCall) {
  driver::KubeletClient kubelet(socket_);
  ASSERT_TRUE(kubelet.Register().ok());
  (*plugin_.prepare_answer.mutable_claims())["other-uid"];
  auto unknown = kubelet.NodePrepareResources({{"default", "a", "uid-a"}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error(),
            "NodePrepareResources: returned result for unknown claim UID other-uid");
  plugin_.prepare_answer.clear_claims();
  (*plugin_.prepare_answer.mutable_claims())["uid-a"];
  auto skipped =
      kubelet.NodePrepareResources({{"default", "a", "uid-a"}, {"default", "b", "uid-b"}});
  ASSERT_FALSE(skipped.ok());
  EXPECT_EQ(skipped.error(), "NodePrepareResources: skipped 1 ResourceClaims");
  // The scripted plugin has no NodeUnprepareResources: a gRPC error.
  auto unprepared = kubelet.NodeUnprepareResources({{"default", "a", "uid-a"}});
  ASSERT_FALSE(unprepared.ok());
  EXPECT_NE(unprepared.error().find("code = Unimplemented"), std::string::npos)
      << unprepared.error();
}

}  // namespace
}  // namespace dra::driver::testing

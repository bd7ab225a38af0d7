// The conformance checks 1 to 33 of docs/DRIVER-SDK.md against
// `dra driver example` in its three modes; nvml_conformance_test.cc runs the
// same tests against `dra driver nvml` on the fake NVML. Item numbers are
// given with each test.
#include <set>
#include <thread>

#include "dra/api/codec.h"
#include "dra/api/validation.h"
#include "driver/example/example_driver.h"
#include "driver_conformance.h"

namespace dra::driver::testing {
namespace {

std::vector<std::string> Ids(const drav1::NodePrepareResourceResponse& r) {
  std::vector<std::string> ids;
  for (const auto& d : r.devices())
    ids.insert(ids.end(), d.cdi_device_ids().begin(), d.cdi_device_ids().end());
  return ids;
}

std::vector<api::ResourceSlice> ReadSlices(const std::string& path) {
  std::vector<api::ResourceSlice> out;
  Result<std::vector<json::YamlDocument>> docs = json::ParseYaml(ReadFile(path));
  EXPECT_TRUE(docs.ok()) << (docs.ok() ? "" : docs.error());
  if (!docs.ok()) return out;
  for (const json::YamlDocument& doc : *docs) {
    if (doc.empty || doc.root.is_null()) continue;
    api::DecodeOutcome o = api::DecodeDocument(doc.root, {});
    for (const api::DecodeError& e : o.errors) ADD_FAILURE() << e.message;
    for (api::DecodedObject& obj : o.objects) {
      if (auto* s = std::get_if<api::ResourceSlice>(&obj.object)) out.push_back(std::move(*s));
    }
  }
  return out;
}

// Items 1, 2, 3, 4, 7: sockets, GetInfo, NotifyRegistrationStatus, and every
// advertised service answering.
TEST_P(ConformanceTest, Registration) {
  StartPlugin();
  const PluginEndpoints& ep = plugin_->endpoints();
  fs::path reg(ep.registration_socket);
  EXPECT_EQ(reg.parent_path().string(), dirs_.registrar());
  EXPECT_NE(reg.filename().string().front(), '.');
  EXPECT_LE(ep.registration_socket.size(), 108u);
  EXPECT_TRUE(IsSocket(ep.registration_socket));
  EXPECT_TRUE(IsSocket(ep.dra_socket));

  EXPECT_EQ(info_.type(), "DRAPlugin");
  EXPECT_EQ(info_.name(), GetParam().driver_name);
  EXPECT_TRUE(fs::path(info_.endpoint()).is_absolute());
  EXPECT_EQ(info_.endpoint(), ep.dra_socket);
  std::vector<std::string> versions(info_.supported_versions().begin(),
                                    info_.supported_versions().end());
  ASSERT_FALSE(versions.empty());
  EXPECT_EQ(versions[0], "v1.DRAPlugin");
  std::set<std::string> allowed = {"v1.DRAPlugin", "v1beta1.DRAPlugin"};
  if (GetParam().reports_health) {
    allowed.insert({"v1.DRAResourceHealth", "v1alpha1.DRAResourceHealth"});
    EXPECT_NE(std::find(versions.begin(), versions.end(), "v1.DRAResourceHealth"), versions.end());
    EXPECT_NE(std::find(versions.begin(), versions.end(), "v1alpha1.DRAResourceHealth"),
              versions.end());
  }
  for (const std::string& v : versions) EXPECT_TRUE(allowed.contains(v)) << v;

  // Item 3: a failed registration does not hurt (the answer may be an
  // error, as upstream's helper gives); GetInfo keeps working (4).
  (void)client_->Notify(false, "kubelet says no");
  for (int i = 0; i < 3; ++i) {
    pluginregistration::PluginInfo again;
    ASSERT_TRUE(client_->GetInfo(again).ok());
    EXPECT_EQ(again.name(), GetParam().driver_name);
  }

  // Item 7: every advertised service answers.
  drav1::NodePrepareResourcesResponse r1;
  EXPECT_TRUE(client_->PrepareV1({}, r1).ok());
  drav1beta1::NodePrepareResourcesResponse r2;
  EXPECT_TRUE(client_->PrepareV1beta1({}, r2).ok());
  if (GetParam().reports_health) {
    auto h1 = client_->WatchHealthV1();
    ::v1::NodeWatchResourcesResponse m1;
    EXPECT_TRUE(h1->Read(m1));
    h1->Cancel();
    auto h2 = client_->WatchHealthV1alpha1();
    ::v1alpha1::NodeWatchResourcesResponse m2;
    EXPECT_TRUE(h2->Read(m2));
    h2->Cancel();
  }
}

// Item 5: stale sockets are replaced at start-up and removed on shutdown.
TEST_P(ConformanceTest, StaleSocketsReplacedAndRemovedOnStop) {
  StartPlugin();
  std::string reg = plugin_->endpoints().registration_socket;
  std::string dra = plugin_->endpoints().dra_socket;
  StopPlugin();
  EXPECT_FALSE(fs::exists(reg));
  EXPECT_FALSE(fs::exists(dra));
  std::ofstream(reg) << "stale";
  std::ofstream(dra) << "stale";
  StartPlugin();
  EXPECT_TRUE(IsSocket(reg));
  EXPECT_TRUE(IsSocket(dra));
  drav1::NodePrepareResourcesResponse r;
  EXPECT_TRUE(client_->PrepareV1({}, r).ok());
}

// Item 6: rolling update between two instances with different pod UIDs.
TEST_P(ConformanceTest, RollingUpdate) {
  options_.pod_uid = "pod-old";
  StartPlugin();
  std::unique_ptr<Driver> new_driver = GetParam().make();
  PluginOptions new_options = options_;
  new_options.pod_uid = "pod-new";
  auto new_plugin = Plugin::Start(*new_driver, *claims_, *publisher_, new_options);
  ASSERT_TRUE(new_plugin.ok()) << new_plugin.error();
  EXPECT_NE((*new_plugin)->endpoints().registration_socket,
            plugin_->endpoints().registration_socket);
  EXPECT_NE((*new_plugin)->endpoints().dra_socket, plugin_->endpoints().dra_socket);
  KubeletClient new_client((*new_plugin)->endpoints().registration_socket);
  new_client.Register();

  ClaimSpec c = Claim("rolling", {GetParam().device_a});
  WriteClaim(dirs_.claims(), c);
  drav1::NodePrepareResourcesResponse prepared;
  ASSERT_TRUE(client_->PrepareV1({Ref(c)}, prepared).ok());
  ASSERT_EQ(prepared.claims().at(c.uid).error(), "");
  drav1::NodeUnprepareResourcesResponse unprepared;
  ASSERT_TRUE(new_client.UnprepareV1({Ref(c)}, unprepared).ok());
  EXPECT_EQ(unprepared.claims().at(c.uid).error(), "");
  EXPECT_EQ(ResolveCdiIds(dirs_.cdi(), Ids(prepared.claims().at(c.uid))).empty(), false);

  std::string new_reg = (*new_plugin)->endpoints().registration_socket;
  StopPlugin();
  EXPECT_TRUE(IsSocket(new_reg));
  pluginregistration::PluginInfo info;
  EXPECT_TRUE(new_client.GetInfo(info).ok());
  drav1::NodePrepareResourcesResponse again;
  ASSERT_TRUE(new_client.PrepareV1({Ref(c)}, again).ok());
  EXPECT_EQ(again.claims().at(c.uid).error(), "");
  (*new_plugin)->Stop();
}

// Item 8: an empty prepare, both API versions.
TEST_P(ConformanceTest, EmptyPrepare) {
  StartPlugin();
  drav1::NodePrepareResourcesResponse r1;
  ASSERT_TRUE(client_->PrepareV1({}, r1).ok());
  EXPECT_TRUE(r1.claims().empty());
  drav1beta1::NodePrepareResourcesResponse r2;
  ASSERT_TRUE(client_->PrepareV1beta1({}, r2).ok());
  EXPECT_TRUE(r2.claims().empty());
}

// Items 9, 10, 12, 13, 21, 23, 24, 25: one entry per claim, idempotence,
// entries that match the allocation (base request names, own results only),
// CDI IDs that resolve in valid, claim-specific spec files.
TEST_P(ConformanceTest, PrepareMatchesAllocationAndIsIdempotent) {
  StartPlugin();
  ClaimSpec a = Claim("a", {GetParam().device_a});
  a.results[0].request = "req0/small";  // a subrequest: the entry names "req0"
  a.results.push_back({"foreign", "other.example.com", "node-1", "x-0", {}, false});
  ClaimSpec b = Claim("b", {GetParam().device_b});
  WriteClaim(dirs_.claims(), a);
  WriteClaim(dirs_.claims(), b);

  drav1::NodePrepareResourcesResponse first;
  ASSERT_TRUE(client_->PrepareV1({Ref(a), Ref(b)}, first).ok());
  ASSERT_EQ(first.claims().size(), 2u);
  for (const auto& [uid, r] : first.claims()) {
    EXPECT_TRUE(uid == a.uid || uid == b.uid) << uid;
    EXPECT_EQ(r.error(), "") << uid;
  }
  const auto& ra = first.claims().at(a.uid);
  ASSERT_EQ(ra.devices_size(), 1);  // not the other driver's result
  EXPECT_EQ(ra.devices(0).pool_name(), "node-1");
  EXPECT_EQ(ra.devices(0).device_name(), GetParam().device_a);
  EXPECT_EQ(std::vector<std::string>(ra.devices(0).request_names().begin(),
                                     ra.devices(0).request_names().end()),
            std::vector<std::string>{"req0"});
  EXPECT_FALSE(ra.devices(0).has_share_id());
  EXPECT_EQ(ResolveCdiIds(dirs_.cdi(), Ids(ra)), "");
  EXPECT_EQ(ResolveCdiIds(dirs_.cdi(), Ids(first.claims().at(b.uid))), "");
  bool embeds_uid = false;
  for (const std::string& id : Ids(ra)) embeds_uid |= id.find(a.uid) != std::string::npos;
  EXPECT_TRUE(embeds_uid);  // item 25

  // Item 23: every spec parses strictly, is valid, has the minimum version.
  std::map<std::string, std::string> contents;
  for (const std::string& name : dirs_.CdiFiles()) {
    std::string text = ReadFile(dirs_.cdi() + "/" + name);
    contents[name] = text;
    auto spec = cdi::DecodeJson(text);
    ASSERT_TRUE(spec.ok()) << name << ": " << spec.error();
    EXPECT_TRUE(cdi::Validate(*spec).ok()) << name;
    for (const cdi::Device& d : spec->devices) EXPECT_FALSE(d.edits.Empty()) << name;
    auto tree = json::ParseJson(text);
    ASSERT_TRUE(tree.ok());
    EXPECT_EQ(tree->Find("cdiVersion")->text, cdi::MinimumVersion(*spec)) << name;
  }

  // Item 10: the same answer again, files untouched.
  drav1::NodePrepareResourcesResponse second;
  ASSERT_TRUE(client_->PrepareV1({Ref(a), Ref(b)}, second).ok());
  EXPECT_EQ(second.SerializeAsString().size(), first.SerializeAsString().size());
  EXPECT_EQ(Ids(second.claims().at(a.uid)), Ids(ra));
  EXPECT_EQ(Ids(second.claims().at(b.uid)), Ids(first.claims().at(b.uid)));
  for (const auto& [name, text] : contents)
    EXPECT_EQ(ReadFile(dirs_.cdi() + "/" + name), text) << name;
  EXPECT_EQ(dirs_.CdiFiles().size(), contents.size());

  // v1beta1 answers the same.
  drav1beta1::NodePrepareResourcesResponse beta;
  ASSERT_TRUE(client_->PrepareV1beta1({Ref(a)}, beta).ok());
  const auto& rb = beta.claims().at(a.uid);
  ASSERT_EQ(rb.devices_size(), 1);
  EXPECT_EQ(rb.devices(0).device_name(), GetParam().device_a);
  EXPECT_EQ(std::vector<std::string>(rb.devices(0).cdi_device_ids().begin(),
                                     rb.devices(0).cdi_device_ids().end()),
            Ids(ra));
}

// Item 12: share_id is returned iff the allocation has a shareID (v1 only).
TEST_P(ConformanceTest, ShareIdOnlyInV1) {
  StartPlugin();
  ClaimSpec c = Claim("shared", {GetParam().device_a});
  c.results[0].share_id = "6f1b3c2a-1d2e-4f5a-8b9c-0d1e2f3a4b5c";
  WriteClaim(dirs_.claims(), c);
  drav1::NodePrepareResourcesResponse r;
  ASSERT_TRUE(client_->PrepareV1({Ref(c)}, r).ok());
  const auto& entry = r.claims().at(c.uid);
  ASSERT_EQ(entry.error(), "");
  ASSERT_EQ(entry.devices_size(), 1);
  ASSERT_TRUE(entry.devices(0).has_share_id());
  EXPECT_EQ(entry.devices(0).share_id(), *c.results[0].share_id);
  EXPECT_EQ(ResolveCdiIds(dirs_.cdi(), Ids(entry)), "");
  drav1beta1::NodePrepareResourcesResponse beta;
  ASSERT_TRUE(client_->PrepareV1beta1({Ref(c)}, beta).ok());
  EXPECT_EQ(beta.claims().at(c.uid).devices_size(), 1);  // the v1beta1 Device has no share_id field
}

// Items 11 and 30: prepared state and slices survive a restart.
TEST_P(ConformanceTest, RestartKeepsPreparedClaimsAndSlices) {
  StartPlugin();
  ClaimSpec c = Claim("durable", {GetParam().device_a, GetParam().device_b});
  WriteClaim(dirs_.claims(), c);
  drav1::NodePrepareResourcesResponse before;
  ASSERT_TRUE(client_->PrepareV1({Ref(c)}, before).ok());
  ASSERT_EQ(before.claims().at(c.uid).error(), "");
  std::string slices = ReadFile(dirs_.slices());
  ASSERT_FALSE(slices.empty());
  StopPlugin();
  EXPECT_EQ(ReadFile(dirs_.slices()), slices);  // shutdown keeps slices (30)
  StartPlugin();
  EXPECT_FALSE(ReadFile(dirs_.slices()).empty());  // re-published
  drav1::NodePrepareResourcesResponse after;
  ASSERT_TRUE(client_->PrepareV1({Ref(c)}, after).ok());
  EXPECT_EQ(after.claims().at(c.uid).error(), "");
  EXPECT_EQ(Ids(after.claims().at(c.uid)), Ids(before.claims().at(c.uid)));
  EXPECT_EQ(ResolveCdiIds(dirs_.cdi(), Ids(after.claims().at(c.uid))), "");
}

// Items 14 and 15: bad claims fail on their own, leave nothing that blocks a
// later retry, and do not stop the good claims of the batch.
TEST_P(ConformanceTest, BadClaimsFailPerClaimAndRecover) {
  StartPlugin();
  ClaimSpec good = Claim("good", {GetParam().device_a});
  ClaimSpec missing = Claim("missing", {GetParam().device_b});
  ClaimSpec unallocated = Claim("unallocated", {GetParam().device_b});
  unallocated.allocated = false;
  ClaimSpec wrong_uid = Claim("wronguid", {GetParam().device_b});
  ClaimSpec bad_device = Claim("baddevice", {"no-such-device"});
  for (const ClaimSpec* c : {&good, &unallocated, &bad_device}) WriteClaim(dirs_.claims(), *c);
  ClaimSpec stored = wrong_uid;
  stored.uid = "uid-someone-else";
  WriteClaim(dirs_.claims(), stored);

  drav1::NodePrepareResourcesResponse r;
  ASSERT_TRUE(
      client_
          ->PrepareV1({Ref(good), Ref(missing), Ref(unallocated), Ref(wrong_uid), Ref(bad_device)},
                      r)
          .ok());
  EXPECT_EQ(r.claims().at(good.uid).error(), "");
  EXPECT_EQ(ResolveCdiIds(dirs_.cdi(), Ids(r.claims().at(good.uid))), "");
  for (const ClaimSpec* c : {&missing, &unallocated, &wrong_uid, &bad_device}) {
    EXPECT_NE(r.claims().at(c->uid).error(), "") << c->name;
    EXPECT_EQ(r.claims().at(c->uid).devices_size(), 0) << c->name;
  }
  EXPECT_NE(r.claims().at(bad_device.uid).error().find("no-such-device"), std::string::npos)
      << r.claims().at(bad_device.uid).error();
  // Only the good claim has a spec file.
  EXPECT_EQ(dirs_.CdiFiles().size(), 1u);

  // Fixed claims now prepare (one after the other: they share a device).
  WriteClaim(dirs_.claims(), missing);
  drav1::NodePrepareResourcesResponse retry;
  ASSERT_TRUE(client_->PrepareV1({Ref(missing)}, retry).ok());
  EXPECT_EQ(retry.claims().at(missing.uid).error(), "");
  drav1::NodeUnprepareResourcesResponse u;
  ASSERT_TRUE(client_->UnprepareV1({Ref(missing)}, u).ok());
  WriteClaim(dirs_.claims(), wrong_uid);
  ASSERT_TRUE(client_->PrepareV1({Ref(wrong_uid)}, retry).ok());
  EXPECT_EQ(retry.claims().at(wrong_uid.uid).error(), "");
}

// Items 16, 17, 18: unprepare of unknown claims, twice, and of claims gone
// from the API; afterwards the CDI spec is gone.
TEST_P(ConformanceTest, Unprepare) {
  StartPlugin();
  drav1::NodeUnprepareResourcesResponse unknown;
  ASSERT_TRUE(client_->UnprepareV1({{"default", "never", "uid-never"}}, unknown).ok());
  EXPECT_EQ(unknown.claims().at("uid-never").error(), "");

  ClaimSpec c = Claim("gone", {GetParam().device_a});
  WriteClaim(dirs_.claims(), c);
  drav1::NodePrepareResourcesResponse p;
  ASSERT_TRUE(client_->PrepareV1({Ref(c)}, p).ok());
  std::vector<std::string> ids = Ids(p.claims().at(c.uid));
  ASSERT_EQ(ResolveCdiIds(dirs_.cdi(), ids), "");
  RemoveClaim(dirs_.claims(), c);  // item 17
  for (int i = 0; i < 2; ++i) {
    drav1::NodeUnprepareResourcesResponse u;
    ASSERT_TRUE(client_->UnprepareV1({Ref(c)}, u).ok());
    EXPECT_EQ(u.claims().at(c.uid).error(), "") << "round " << i;
  }
  EXPECT_NE(ResolveCdiIds(dirs_.cdi(), ids), "");  // item 18
  EXPECT_TRUE(dirs_.CdiFiles().empty());
  drav1beta1::NodeUnprepareResourcesResponse beta;
  ASSERT_TRUE(client_->UnprepareV1beta1({Ref(c)}, beta).ok());
  EXPECT_EQ(beta.claims().at(c.uid).error(), "");
}

// Items 19 and 22: concurrent prepare/unprepare of different claims while an
// observer checks that every visible .json spec file is complete.
TEST_P(ConformanceTest, ConcurrentClaimsAndCompleteFiles) {
  StartPlugin();
  // One device per claim: the SDK refuses to prepare a device for two claims.
  std::vector<std::string> devices = {GetParam().device_a, GetParam().device_b};
  devices.insert(devices.end(), GetParam().more_devices.begin(), GetParam().more_devices.end());
  const int kClaims = static_cast<int>(devices.size());
  std::vector<ClaimSpec> claims;
  for (int i = 0; i < kClaims; ++i) {
    claims.push_back(Claim("c" + std::to_string(i), {devices[i]}));
    WriteClaim(dirs_.claims(), claims.back());
  }
  std::atomic<bool> done = false;
  std::atomic<int> partial = 0;
  std::thread observer([&] {
    while (!done) {
      for (const auto& e : fs::directory_iterator(dirs_.cdi())) {
        std::string name = e.path().filename().string();
        if (!name.ends_with(".json")) continue;
        std::string text = ReadFile(e.path().string());
        if (text.empty() && !fs::exists(e.path())) continue;  // removed meanwhile
        if (!cdi::DecodeJson(text).ok() && fs::exists(e.path())) ++partial;
      }
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> workers;
  std::atomic<int> failures = 0;
  for (int i = 0; i < kClaims; ++i) {
    workers.emplace_back([&, i] {
      KubeletClient client(plugin_->endpoints().registration_socket);
      pluginregistration::PluginInfo info;
      if (!client.GetInfo(info).ok()) {
        ++failures;
        return;
      }
      for (int round = 0; round < 3; ++round) {
        drav1::NodePrepareResourcesResponse p;
        if (!client.PrepareV1({Ref(claims[i])}, p).ok() ||
            p.claims().at(claims[i].uid).error() != "")
          ++failures;
        drav1::NodeUnprepareResourcesResponse u;
        if (!client.UnprepareV1({Ref(claims[i])}, u).ok() ||
            u.claims().at(claims[i].uid).error() != "")
          ++failures;
      }
    });
  }
  for (auto& w : workers) w.join();
  done = true;
  observer.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(partial, 0);
  EXPECT_TRUE(dirs_.CdiFiles().empty());
}

// Items 26 and 27: the published slices.
TEST_P(ConformanceTest, ResourceSlices) {
  StartPlugin();
  std::vector<api::ResourceSlice> slices = ReadSlices(dirs_.slices());
  ASSERT_FALSE(slices.empty());
  std::set<std::string> devices;
  for (std::size_t i = 0; i < slices.size(); ++i) {
    const api::ResourceSlice& s = slices[i];
    EXPECT_EQ(s.spec.driver, GetParam().driver_name);
    EXPECT_EQ(s.spec.node_name, "node-1");
    EXPECT_EQ(s.spec.pool.name, "node-1");
    EXPECT_GE(s.spec.pool.generation, 1);
    EXPECT_EQ(s.spec.pool.resource_slice_count, static_cast<std::int64_t>(slices.size()));
    ASSERT_EQ(s.metadata.owner_references.size(), 1u);
    EXPECT_EQ(s.metadata.owner_references[0].kind, "Node");
    EXPECT_EQ(s.metadata.owner_references[0].name, "node-1");
    EXPECT_EQ(s.metadata.owner_references[0].uid, "node-uid-1");
    EXPECT_EQ(s.metadata.owner_references[0].controller, true);
    std::string name = s.metadata.name.empty() ? s.metadata.generate_name : s.metadata.name;
    EXPECT_NE(name.find("-" + GetParam().driver_name + "-node-1-"), std::string::npos) << name;
    bool limited = !s.spec.shared_counters.empty();
    for (const api::Device& d : s.spec.devices) {
      EXPECT_TRUE(devices.insert(d.name).second) << "duplicate " << d.name;
      EXPECT_LE(d.attributes.size() + d.capacity.size(), 32u) << d.name;
      limited |= !d.taints.empty() || !d.consumes_counters.empty();
    }
    EXPECT_LE(s.spec.devices.size(), limited ? 64u : 128u);
    api::ValidationOptions vo;
    for (const auto& e : api::ValidateResourceSlice(s, vo)) ADD_FAILURE() << e.ToString();
  }
  EXPECT_TRUE(devices.contains(GetParam().device_a));
  EXPECT_TRUE(devices.contains(GetParam().device_b));
}

// Items 28, 31, 32, 33: a device turning unhealthy re-publishes the pool with
// a new generation and reaches both health streams within a send period.
TEST_P(ConformanceTest, HealthAndInventoryChanges) {
  if (!GetParam().reports_health) GTEST_SKIP() << "driver does not advertise health";
  StartPlugin();
  auto v1 = client_->WatchHealthV1();
  auto v1alpha1 = client_->WatchHealthV1alpha1();
  ::v1::NodeWatchResourcesResponse m;
  ASSERT_TRUE(v1->Read(m));
  std::set<std::string> slice_devices;
  std::int64_t generation = 0;
  for (const api::ResourceSlice& s : ReadSlices(dirs_.slices())) {
    generation = s.spec.pool.generation;
    for (const api::Device& d : s.spec.devices) slice_devices.insert(d.name);
  }
  std::set<std::string> health_devices;
  for (const auto& d : m.devices()) {
    EXPECT_EQ(d.device().pool_name(), "node-1");
    EXPECT_EQ(d.health(), ::v1::HEALTHY) << d.device().device_name();
    EXPECT_LE(d.message().size(), 1024u);
    health_devices.insert(d.device().device_name());
  }
  EXPECT_EQ(health_devices, slice_devices);  // item 31
  ::v1alpha1::NodeWatchResourcesResponse a;
  ASSERT_TRUE(v1alpha1->Read(a));
  EXPECT_EQ(a.devices_size(), m.devices_size());  // item 32
  // Periodic re-send (every 200 ms here).
  ASSERT_TRUE(v1->Read(m));
  EXPECT_EQ(m.devices_size(), static_cast<int>(health_devices.size()));

  GetParam().make_unhealthy(*driver_);
  auto unhealthy = [&](const ::v1::NodeWatchResourcesResponse& r) {
    for (const auto& d : r.devices()) {
      if (d.device().device_name() == GetParam().device_a) return d.health() == ::v1::UNHEALTHY;
    }
    return false;
  };
  // Item 33: the next message or the one after (a send already under way)
  // shows the change.
  bool seen = false;
  for (int i = 0; i < 2 && !seen; ++i) {
    ASSERT_TRUE(v1->Read(m));
    seen = unhealthy(m);
  }
  EXPECT_TRUE(seen);
  bool seen_alpha = false;
  for (int i = 0; i < 3 && !seen_alpha; ++i) {
    ASSERT_TRUE(v1alpha1->Read(a));
    for (const auto& d : a.devices()) {
      if (d.device().device_name() == GetParam().device_a)
        seen_alpha = d.health() == ::v1alpha1::UNHEALTHY;
    }
  }
  EXPECT_TRUE(seen_alpha);

  // Item 28: the taint is published (by the SDK's publisher thread) as one
  // consistent pool: a new generation or an in-place update of all slices.
  std::vector<api::ResourceSlice> after;
  auto tainted = [&] {
    after = ReadSlices(dirs_.slices());
    for (const api::ResourceSlice& s : after) {
      for (const api::Device& d : s.spec.devices) {
        if (d.name == GetParam().device_a && !d.taints.empty()) return true;
      }
    }
    return false;
  };
  ASSERT_TRUE(WaitFor(tainted));
  for (const api::ResourceSlice& s : after) {
    EXPECT_GE(s.spec.pool.generation, generation);
    EXPECT_EQ(s.spec.pool.generation, after[0].spec.pool.generation);
    EXPECT_EQ(s.spec.pool.resource_slice_count, static_cast<std::int64_t>(after.size()));
  }

  // The streams stay open until shutdown, then end.
  StopPlugin();
  while (v1->Read(m)) {
  }
  while (v1alpha1->Read(a)) {
  }
}

DriverCase ExampleCase(const std::string& label, example::SharingMode mode, const std::string& a,
                       const std::string& b, std::vector<std::string> more) {
  DriverCase c;
  c.label = label;
  c.driver_name = "gpu.example.com";
  c.make = [mode]() -> std::unique_ptr<Driver> {
    example::ExampleDriverOptions o;
    o.node_name = "node-1";
    o.num_devices = 4;
    o.mode = mode;
    return std::make_unique<example::ExampleDriver>(o);
  };
  c.device_a = a;
  c.device_b = b;
  c.more_devices = std::move(more);
  c.reports_health = true;
  c.make_unhealthy = [a](Driver& d) {
    Status s = static_cast<example::ExampleDriver&>(d).SetGpuHealth(example::GpuOfDevice(a), false,
                                                                    "xid-79");
    ASSERT_TRUE(s.ok()) << s.error();
  };
  return c;
}

INSTANTIATE_TEST_SUITE_P(
    Example, ConformanceTest,
    ::testing::Values(ExampleCase("Exclusive", example::SharingMode::kExclusive, "gpu-0", "gpu-1",
                                  {"gpu-2", "gpu-3"}),
                      ExampleCase("MigPartitions", example::SharingMode::kPartitions,
                                  "gpu-0-mig-1g10gb-19-0", "gpu-1-mig-3g40gb-9-4",
                                  {"gpu-0-mig-1g10gb-19-1", "gpu-2-mig-2g20gb-14-4", "gpu-3"}),
                      ExampleCase("MultipleAllocations", example::SharingMode::kMultipleAllocations,
                                  "gpu-0", "gpu-1", {"gpu-2", "gpu-3"})),
    [](const ::testing::TestParamInfo<DriverCase>& info) { return info.param.label; });

}  // namespace
}  // namespace dra::driver::testing

// The SDK's Kubernetes side against a small in-memory resourceslices and
// resourceclaims API on loopback: what the publisher writes, in which order
// and with which preconditions; adopting server-side changes without a write
// loop; dropped fields named by feature gate; refusals reported with Events;
// the claim source's Exists; the status writer's apply patch. The same code
// runs against the real kube-apiserver in tests/cluster/driver_test.sh.
#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "dra/driver/kubernetes.h"
#include "dra/json/value.h"
#include "kube/fake_server.h"

namespace dra::driver {
namespace {

using kube::testing::FakeRequest;
using kube::testing::FakeResponse;
using kube::testing::FakeServer;
using kube::testing::JsonResponse;
using kube::testing::StatusResponse;

json::Value* Member(json::Value& object, std::string_view key) {
  for (auto& m : object.members) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

void Set(json::Value& object, const std::string& key, json::Value value) {
  if (json::Value* v = Member(object, key)) {
    *v = std::move(value);
    return;
  }
  object.members.push_back(json::Member{key, std::move(value), {}});
}

std::string Query(const std::string& target, const std::string& key) {
  auto q = target.find('?');
  if (q == std::string::npos) return "";
  std::string rest = target.substr(q + 1);
  for (std::size_t start = 0; start <= rest.size();) {
    auto amp = rest.find('&', start);
    std::string pair =
        rest.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
    if (pair.rfind(key + "=", 0) == 0) return pair.substr(key.size() + 1);
    if (amp == std::string::npos) break;
    start = amp + 1;
  }
  return "";
}

// resourceslices (cluster scope) and events, kept in memory.
class FakeApi {
 public:
  bool drop_taints = false;         // as a server with DRADeviceTaints off
  bool stamp_taint_time = false;    // as a server that sets taints' timeAdded
  std::string refuse_writes;        // non-empty: 422 with this message
  std::vector<std::string> writes;  // "POST name", "PUT name", "DELETE name"
  std::vector<std::string> events;  // Event messages
  std::vector<std::string> delete_bodies;

  FakeResponse Handle(const FakeRequest& r) {
    std::lock_guard lock(mu_);
    std::string path = r.target.substr(0, r.target.find('?'));
    if (path == "/apis/resource.k8s.io") {
      return JsonResponse(
          200, R"({"kind":"APIGroup","apiVersion":"v1","name":"resource.k8s.io",)"
               R"("versions":[{"groupVersion":"resource.k8s.io/v1","version":"v1"}],)"
               R"("preferredVersion":{"groupVersion":"resource.k8s.io/v1","version":"v1"}})");
    }
    if (path == "/api/v1/namespaces/default/events" && r.method == "POST") {
      auto e = json::ParseJson(r.body);
      events.push_back(e.ok() && e->Find("message") ? e->Find("message")->text : "?");
      return JsonResponse(201, r.body);
    }
    const std::string base = "/apis/resource.k8s.io/v1/resourceslices";
    if (path.rfind(base, 0) != 0) return StatusResponse(404, "NotFound", "no route " + path);
    std::string name = path.size() > base.size() ? path.substr(base.size() + 1) : "";
    if (r.method == "GET" && name.empty()) {
      std::string items;
      for (const auto& [n, text] : slices_) items += (items.empty() ? "" : ",") + text;
      return JsonResponse(200, R"({"kind":"ResourceSliceList","apiVersion":"resource.k8s.io/v1",)"
                               R"("metadata":{"resourceVersion":")" +
                                   std::to_string(rv_) + R"("},"items":[)" + items + "]}");
    }
    if (r.method == "DELETE") {
      writes.push_back("DELETE " + name);
      delete_bodies.push_back(r.body);
      if (slices_.erase(name) == 0) return StatusResponse(404, "NotFound", "not found");
      return JsonResponse(200, R"({"kind":"Status","apiVersion":"v1","status":"Success"})");
    }
    if (r.method != "POST" && r.method != "PUT") return StatusResponse(405, "MethodNotAllowed", "");
    auto body = json::ParseJson(r.body);
    if (!body.ok()) return StatusResponse(400, "BadRequest", body.error());
    json::Value object = std::move(*body);
    json::Value& meta = *Member(object, "metadata");
    if (r.method == "POST") {
      name = Member(meta, "generateName")->text + "x" + std::to_string(++names_);
      Set(meta, "name", json::Value::String(name));
      Set(meta, "uid", json::Value::String("uid-" + name));
    } else if (slices_.count(name) == 0) {
      return StatusResponse(404, "NotFound", "not found");
    } else {
      auto stored = json::ParseJson(slices_[name]);
      std::string want = stored->Find("metadata")->Find("resourceVersion")->text;
      const json::Value* sent = meta.Find("resourceVersion");
      if (sent == nullptr || sent->text != want) {
        return StatusResponse(409, "Conflict", "the object has been modified");
      }
    }
    writes.push_back(r.method + " " + name);
    if (!refuse_writes.empty()) return StatusResponse(422, "Invalid", refuse_writes);
    Set(meta, "resourceVersion", json::Value::String(std::to_string(++rv_)));
    if (json::Value* spec = Member(object, "spec"); spec != nullptr) {
      if (json::Value* devices = Member(*spec, "devices"); devices != nullptr) {
        for (auto& d : devices->items) {
          json::Value* taints = Member(d, "taints");
          if (taints == nullptr) continue;
          if (drop_taints) {
            std::erase_if(d.members, [](const json::Member& m) { return m.key == "taints"; });
            continue;
          }
          for (auto& t : taints->items) {
            if (stamp_taint_time && Member(t, "timeAdded") == nullptr) {
              Set(t, "timeAdded", json::Value::String("2026-12-01T10:00:00Z"));
            }
          }
        }
      }
    }
    slices_[name] = json::ToJson(object);
    return JsonResponse(r.method == "POST" ? 201 : 200, slices_[name]);
  }

  // Deletes a slice behind the publisher's back.
  void Remove(const std::string& name) {
    std::lock_guard lock(mu_);
    slices_.erase(name);
  }
  std::vector<std::string> Names() {
    std::lock_guard lock(mu_);
    std::vector<std::string> out;
    for (const auto& [n, t] : slices_) out.push_back(n);
    return out;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::string> slices_;
  int rv_ = 100;
  int names_ = 0;
};

std::shared_ptr<kube::Client> ClientFor(const FakeServer& server) {
  kube::RestConfig config;
  config.server = server.url();
  config.qps = -1;
  auto client = kube::Client::New(config);
  EXPECT_TRUE(client.ok()) << (client.ok() ? "" : client.error());
  return *client;
}

Inventory Devices(int n, bool tainted = false) {
  Pool pool;
  for (int i = 0; i < n; ++i) {
    api::Device d;
    d.name = "gpu-" + std::to_string(i);
    if (tainted) {
      api::DeviceTaint t;
      t.key = "gpu.example.com/unhealthy";
      t.value = "ecc";
      t.effect = "NoSchedule";
      d.taints.push_back(t);
    }
    pool.devices.push_back(std::move(d));
  }
  Inventory inventory;
  inventory.pools.push_back(std::move(pool));
  return inventory;
}

class KubePublishing : public ::testing::Test {
 protected:
  KubePublishing() : server_([this](const FakeRequest& r) { return api_.Handle(r); }) {
    KubeSlicePublisherOptions options;
    options.driver_name = "gpu.example.com";
    options.node_name = "node-1";
    options.event_target.name = "node-1";
    options.event_target.uid = "node-uid";
    publisher_ = NewKubeSlicePublisher(ClientFor(server_), options);
  }

  // What the Plugin does: list, build against what is there, publish.
  Status Publish(const Inventory& inventory) {
    auto existing = publisher_->List();
    if (!existing.ok()) return existing.failure();
    auto slices = BuildResourceSlices("gpu.example.com", SliceOwner{"node-1", "node-uid"},
                                      inventory, *existing);
    if (!slices.ok()) return slices.failure();
    return publisher_->Publish(*slices);
  }

  FakeApi api_;
  FakeServer server_;
  std::unique_ptr<SlicePublisher> publisher_;
};

TEST_F(KubePublishing, CreatesThenWritesOnlyChanges) {
  ASSERT_TRUE(Publish(Devices(200)).ok());
  // 200 plain devices: two slices of at most 128, created with generateName.
  ASSERT_EQ(api_.writes.size(), 2u);
  EXPECT_EQ(api_.writes[0], "POST 00000-gpu.example.com-node-1-x1");
  EXPECT_EQ(api_.writes[1], "POST 00001-gpu.example.com-node-1-x2");
  auto listed = publisher_->List();
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].spec.pool.generation, 1);
  EXPECT_EQ((*listed)[0].metadata.owner_references.at(0).uid, "node-uid");
  EXPECT_EQ((*listed)[0].spec.node_name, "node-1");

  api_.writes.clear();
  ASSERT_TRUE(Publish(Devices(200)).ok());
  EXPECT_TRUE(api_.writes.empty()) << api_.writes[0];

  // One device fewer changes one slice: one update, same generation.
  ASSERT_TRUE(Publish(Devices(199)).ok());
  ASSERT_EQ(api_.writes.size(), 1u);
  EXPECT_EQ(api_.writes[0], "PUT 00001-gpu.example.com-node-1-x2");
}

TEST_F(KubePublishing, DeletesObsoleteSlicesFirstWithPreconditions) {
  ASSERT_TRUE(Publish(Devices(200)).ok());
  api_.writes.clear();
  ASSERT_TRUE(Publish(Devices(3)).ok());
  ASSERT_EQ(api_.writes.size(), 2u);
  EXPECT_EQ(api_.writes[0], "DELETE 00001-gpu.example.com-node-1-x2");
  EXPECT_EQ(api_.writes[1], "PUT 00000-gpu.example.com-node-1-x1");
  auto body = json::ParseJson(api_.delete_bodies.at(0));
  ASSERT_TRUE(body.ok()) << api_.delete_bodies[0];
  const json::Value* pre = body->Find("preconditions");
  ASSERT_NE(pre, nullptr) << api_.delete_bodies[0];
  EXPECT_EQ(pre->Find("uid")->text, "uid-00001-gpu.example.com-node-1-x2");
  EXPECT_FALSE(pre->Find("resourceVersion")->text.empty());
}

TEST_F(KubePublishing, RestoresASliceDeletedBySomeoneElse) {
  ASSERT_TRUE(Publish(Devices(200)).ok());
  api_.Remove("00000-gpu.example.com-node-1-x1");
  api_.writes.clear();
  ASSERT_TRUE(Publish(Devices(200)).ok());
  // The missing slice is created again; a new slice moves the pool to a new
  // generation, so the other one is rewritten with it.
  ASSERT_EQ(api_.writes.size(), 2u);
  EXPECT_EQ(api_.writes[0], "PUT 00001-gpu.example.com-node-1-x2");
  EXPECT_EQ(api_.writes[1], "POST 00000-gpu.example.com-node-1-x3");
  auto listed = publisher_->List();
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ(listed->at(0).spec.pool.generation, 2);
  EXPECT_EQ(listed->at(1).spec.pool.generation, 2);
}

TEST_F(KubePublishing, TaintTimesStampedByTheServerAreNotAChangeAndAreKept) {
  api_.stamp_taint_time = true;
  ASSERT_TRUE(Publish(Devices(2, true)).ok());
  api_.writes.clear();
  ASSERT_TRUE(Publish(Devices(2, true)).ok());
  EXPECT_TRUE(api_.writes.empty()) << api_.writes[0];
  // A real change keeps the stamped time of the unchanged taint.
  Inventory changed = Devices(2, true);
  changed.pools[0].devices[1].attributes["index"].int_value = 1;
  ASSERT_TRUE(Publish(changed).ok());
  ASSERT_EQ(api_.writes.size(), 1u);
  auto listed = publisher_->List();
  ASSERT_TRUE(listed.ok());
  const api::DeviceTaint& kept = listed->at(0).spec.devices.at(0).taints.at(0);
  EXPECT_TRUE(kept.time_added.set);
}

TEST_F(KubePublishing, DroppedFieldsNameTheFeatureGateOnceThenNoWriteLoop) {
  api_.drop_taints = true;
  Status first = Publish(Devices(2, true));
  ASSERT_FALSE(first.ok());
  EXPECT_NE(first.error().find("the API server dropped fields that were sent; probably disabled "
                               "feature gates: DRADeviceTaints"),
            std::string::npos)
      << first.error();
  ASSERT_EQ(api_.events.size(), 1u);
  EXPECT_NE(api_.events[0].find("DRADeviceTaints"), std::string::npos);
  api_.writes.clear();
  EXPECT_TRUE(Publish(Devices(2, true)).ok());
  EXPECT_TRUE(api_.writes.empty()) << api_.writes[0];
}

TEST_F(KubePublishing, RefusedWritesAreErrorsWithOneEventAMinute) {
  api_.refuse_writes = "spec.devices[0].name: Invalid value: \"x\"";
  for (int i = 0; i < 3; ++i) {
    Status s = Publish(Devices(1));
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().find("create ResourceSlice 00000-gpu.example.com-node-1-*: "),
              std::string::npos)
        << s.error();
    EXPECT_NE(s.error().find("spec.devices[0].name: Invalid value"), std::string::npos)
        << s.error();
  }
  EXPECT_EQ(api_.events.size(), 1u);
  api_.refuse_writes.clear();
  EXPECT_TRUE(Publish(Devices(1)).ok());
}

TEST_F(KubePublishing, ListUsesTheDriverAndNodeFieldSelector) {
  ASSERT_TRUE(publisher_->List().ok());
  bool seen = false;
  for (const auto& r : server_.requests()) {
    if (r.method == "GET" && r.target.rfind("/apis/resource.k8s.io/v1/resourceslices", 0) == 0) {
      EXPECT_EQ(Query(r.target, "fieldSelector"),
                "spec.driver%3Dgpu.example.com%2Cspec.nodeName%3Dnode-1");
      seen = true;
    }
  }
  EXPECT_TRUE(seen);
}

TEST(KubeClaims, ExistsTellsGoneFromUnknown) {
  FakeServer server([](const FakeRequest& r) -> FakeResponse {
    if (r.target == "/apis/resource.k8s.io") {
      return JsonResponse(200,
                          R"({"kind":"APIGroup","apiVersion":"v1","name":"resource.k8s.io",)"
                          R"("versions":[{"groupVersion":"resource.k8s.io/v1","version":"v1"}]})");
    }
    const std::string prefix = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims/";
    if (r.target == prefix + "here") {
      return JsonResponse(200, R"({"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1",)"
                               R"("metadata":{"name":"here","namespace":"default","uid":"u1"},)"
                               R"("spec":{"devices":{}}})");
    }
    if (r.target == prefix + "broken") return StatusResponse(500, "InternalError", "etcd is down");
    return StatusResponse(404, "NotFound", "resourceclaims.resource.k8s.io \"gone\" not found");
  });
  auto claims = NewKubeClaimSource(ClientFor(server));
  EXPECT_TRUE(*claims->Exists("default", "here", "u1"));
  EXPECT_FALSE(*claims->Exists("default", "here", "u2"));  // replaced
  EXPECT_FALSE(*claims->Exists("default", "gone", "u1"));
  auto broken = claims->Exists("default", "broken", "u1");
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().find("etcd is down"), std::string::npos) << broken.error();
  auto got = claims->Get("default", "gone");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error(),
            "get ResourceClaim default/gone: Error from server (NotFound): "
            "resourceclaims.resource.k8s.io \"gone\" not found");
}

TEST(KubeClaims, DeviceStatusIsAnApplyPatchOfTheStatusSubresource) {
  FakeServer server(
      [](const FakeRequest&) { return JsonResponse(200, R"({"kind":"ResourceClaim"})"); });
  auto writer = NewKubeDeviceStatusWriter(ClientFor(server), "gpu.example.com");
  api::AllocatedDeviceStatus status;
  status.pool = "node-1";
  status.device = "gpu-0";
  status.data = api::RawExtension{R"({"uuid":"GPU-1"})"};
  ASSERT_TRUE(writer->Write("ml", "train-0", {status}).ok());
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  const FakeRequest& r = requests[0];
  EXPECT_EQ(r.method, "PATCH");
  EXPECT_EQ(r.target.substr(0, r.target.find('?')),
            "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims/train-0/status");
  EXPECT_EQ(Query(r.target, "fieldManager"), "gpu.example.com");
  EXPECT_EQ(Query(r.target, "force"), "true");
  EXPECT_EQ(r.Header("content-type"), "application/apply-patch+yaml");
  auto body = json::ParseJson(r.body);
  ASSERT_TRUE(body.ok()) << r.body;
  EXPECT_EQ(body->Find("spec"), nullptr) << "only status fields may be applied: " << r.body;
  const json::Value& entry = body->Find("status")->Find("devices")->items.at(0);
  EXPECT_EQ(entry.Find("driver")->text, "gpu.example.com");
  EXPECT_EQ(entry.Find("device")->text, "gpu-0");
  EXPECT_EQ(entry.Find("data")->Find("uuid")->text, "GPU-1");

  status.driver = "other.example.com";
  Status wrong = writer->Write("ml", "train-0", {status});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error(),
            "status of device node-1/gpu-0: driver other.example.com is not "
            "gpu.example.com");
}

}  // namespace
}  // namespace dra::driver

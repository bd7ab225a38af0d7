// Partitionable devices and shared counters (DRAPartitionableDevices): cases of
// upstream's shared allocator suite (release v0.37.2, see allocator_test_util.h), one
// test each, plus the release's counter cases:
// partitionable-devices-counter-quantities-are-not-modified,
// -counter-cache-scoped-by-pool-ID and -counter-cache-not-crossed-between-
// driver-schemas (counters are per driver and pool, not per pool name:
// kubernetes/kubernetes#140435), -taint-releases-counter and
// -constraint-releases-counter (a rejected candidate gives its counters back),
// and partitionable-consumable-capacity-backtrack-releases-counter (undoing a
// shared pick releases its counters); the last three were fixed by
// kubernetes/kubernetes#140431.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const Features kPD = Feat("PartitionableDevices");
const Features kPDPL = Feat("PartitionableDevices,PrioritizedList");

std::string Memory(const std::string& q) {
  return Sel(R"(device.capacity["driver-a"].memory.compareTo(quantity(")" + q + R"(")) >= 0)");
}
const std::string kOneRequest = ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)});
const std::string kTwoRequests =
    ClaimYaml("claim-0", {Exact("req-0", "class-a", 1), Exact("req-1", "class-a", 1)});
const std::string kInvalidPools = "error: invalid resource pools were encountered\n";

TEST(CatalogI, AllDevicesWithConsumedCounters) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=4Gi")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:memory=8Gi") +
             ClaimYaml("claim-0", {AllOf("req-0", "class-a")}),
         Variants(kPD), std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n");
}

TEST(CatalogI, PartitionableDevicesSingleDevice) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=4Gi")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:memory=8Gi") +
             kOneRequest,
         Variants(kPD), std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n");
}

// Counter values beyond int64 (1e19) are compared exactly.
TEST(CatalogI, PartitionableDevicesCounterQuantitiesAreNotModified) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:c=9000000000000000000") + ", " +
                     CounterDevice("device-2", "counter-set-1:c=1")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:c=10000000000000000000") +
             Allocated({"driver-a/pool-1/device-1"}) + kOneRequest,
         Variants(kPD), std::string(kNode1) + "req-0 driver-a/pool-1/device-2\n");
}

const std::string kTwoDriversClaims = ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}) +
                                      ClaimYaml("claim-1", {Exact("req-1", "class-b", 1)});

// driver-a/pool-1 and driver-b/pool-1 have independent counters (older upstream
// allocators keyed them by pool name; fixed by kubernetes/kubernetes#140435).
TEST(CatalogI, PartitionableDevicesCounterCacheScopedByPoolID) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:c=1")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "counter-set-1:c=1") +
             Devices("slice-3", "node-1", Pool("pool-1", 2), "driver-b",
                     CounterDevice("device-2", "counter-set-1:c=2")) +
             CounterSlice("slice-4", "node-1", Pool("pool-1", 2), "driver-b", "counter-set-1:c=2") +
             kTwoDriversClaims,
         Variants(kPD),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n--\n" + kNode1 +
             "req-1 driver-b/pool-1/device-2\n");
}

// Counters per driver and pool: driver-b's device over-consumes its own counter
// set and must not be checked against driver-a's.
TEST(CatalogI, PartitionableDevicesCounterCacheNotCrossedBetweenDriverSchemas) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:c=1")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "counter-set-1:c=1") +
             Devices("slice-3", "node-1", Pool("pool-1", 2), "driver-b",
                     CounterDevice("device-2", "counter-set-2:d=2")) +
             CounterSlice("slice-4", "node-1", Pool("pool-1", 2), "driver-b", "counter-set-2:d=1") +
             kTwoDriversClaims,
         Variants(kPD), kUnschedulable);
}

// The tainted device's counters are given back, so device-2 fits (older
// upstream allocators kept them; fixed by kubernetes/kubernetes#140431).
TEST(CatalogI, PartitionableDevicesTaintReleasesCounter) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:c=1", false,
                               ", taints: [{key: taint-key, value: taint-value, effect: "
                               "NoSchedule}]") +
                     ", " + CounterDevice("device-2", "counter-set-1:c=1")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "counter-set-1:c=1") +
             kOneRequest,
         Variants(Feat("PartitionableDevices,DeviceTaints")),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-2\n");
}

// Candidates refused by the constraint give their counters back too.
TEST(CatalogI, PartitionableDevicesConstraintReleasesCounter) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:c=1", false,
                               ", attributes: {stringAttribute: {string: red}}") +
                     ", " +
                     CounterDevice("device-2", "counter-set-1:c=1", false,
                                   ", attributes: {stringAttribute: {string: blue}}") +
                     ", " +
                     CounterDevice("device-3", "counter-set-1:c=1", false,
                                   ", attributes: {stringAttribute: {string: blue}}")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "counter-set-1:c=2") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)},
                       "{matchAttribute: driver-a/stringAttribute}"),
         Variants(kPD),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-2\nreq-0 driver-a/pool-1/device-3\n");
}

// Undoing the shared pick of device-1 releases its counter, so device-3 fits for
// req-1 (older upstream allocators kept it; fixed by kubernetes/kubernetes#140431).
TEST(CatalogI, PartitionableConsumableCapacityBacktrackReleasesCounter) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:c=1", false,
                               ", attributes: {kind: {string: shared}}, allowMultipleAllocations: "
                               "true") +
                     ", {name: device-2, attributes: {kind: {string: shared}}}, " +
                     CounterDevice("device-3", "counter-set-1:c=1", false,
                                   ", attributes: {kind: {string: counteronly}}")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "counter-set-1:c=1") +
             ClaimYaml("claim-0",
                       {Exact("req-0", "class-a", 1,
                              Sel(R"(device.attributes["driver-a"].kind == "shared")")),
                        Exact("req-1", "class-a", 1,
                              Sel(R"(device.attributes["driver-a"].kind == "counteronly")"))}),
         Variants(Feat("PartitionableDevices,ConsumableCapacity")),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-2\nreq-1 driver-a/pool-1/device-3\n");
}

const std::string kFourSixFour =
    Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
            CounterDevice("device-1", "counter-set-1:memory=4Gi", true) + ", " +
                CounterDevice("device-2", "counter-set-1:memory=6Gi", true) + ", " +
                CounterDevice("device-3", "counter-set-1:memory=4Gi", true)) +
    CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "counter-set-1:memory=8Gi");

TEST(CatalogI, PartitionableDevicesPrioritizedList) {
  Expect(kFourSixFour +
             ClaimYaml("claim-0",
                       {Exact("req-0", "class-a", 1),
                        FirstAvailable("req-1", {Sub("subReq-0", "class-a", 1, Memory("6Gi")),
                                                 Sub("subReq-1", "class-a", 1, Memory("4Gi"))})}),
         Variants(kPDPL),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1\nreq-1/subReq-1 driver-a/pool-1/device-3\n");
}

TEST(CatalogI, PartitionableDevicesMultipleDevices) {
  Expect(kFourSixFour + kTwoRequests, Variants(kPD),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\nreq-1 driver-a/pool-1/device-3\n");
}

TEST(CatalogI, PartitionableDevicesMultipleCapacityPools) {
  Expect(
      Devices(
          "slice-1", "node-1", Pool("pool-1", 2), "driver-a",
          CounterDevice("device-1", "counter-set-1:memory=4Gi;counter-set-2:cpus=4", true) + ", " +
              CounterDevice("device-2", "counter-set-1:memory=6Gi;counter-set-2:cpus=6", true) +
              ", " +
              CounterDevice("device-3", "counter-set-1:memory=4Gi;counter-set-2:cpus=4", true)) +
          CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                       "counter-set-1:memory=18Gi;counter-set-2:cpus=8") +
          ClaimYaml("claim-0",
                    {Exact("req-0", "class-a", 1),
                     FirstAvailable("req-1", {Sub("subReq-0", "class-a", 1, Memory("6Gi")),
                                              Sub("subReq-1", "class-a", 1, Memory("4Gi"))})}),
      Variants(kPDPL),
      std::string(kNode1) +
          "req-0 driver-a/pool-1/device-1\nreq-1/subReq-1 driver-a/pool-1/device-3\n");
}

TEST(CatalogI, PartitionableDevicesMultipleCounters) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1",
                               "counter-set-1:memory=4Gi,cpus=6;counter-set-2:cpus=4,memory=2Gi",
                               true) +
                     ", " +
                     CounterDevice(
                         "device-2",
                         "counter-set-1:memory=6Gi,cpus=4;counter-set-2:cpus=6,memory=6Gi", true) +
                     ", " +
                     CounterDevice(
                         "device-3",
                         "counter-set-1:memory=4Gi,cpus=4;counter-set-2:cpus=4,memory=4Gi", true)) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:cpus=8,memory=18Gi;counter-set-2:cpus=12,memory=18Gi") +
             kTwoRequests,
         Variants(kPD),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-2\nreq-1 driver-a/pool-1/device-3\n");
}

TEST(CatalogI, PartitionableDevicesMultiplePools) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:cpus=6,memory=4Gi", true) + ", " +
                     CounterDevice("device-2", "counter-set-1:cpus=4,memory=6Gi", true) + ", " +
                     CounterDevice("device-3", "counter-set-1:cpus=4,memory=4Gi", true)) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:cpus=8,memory=18Gi") +
             Devices("slice-3", "node-1", Pool("pool-2", 2), "driver-a",
                     CounterDevice("device-1", "counter-set-1:cpus=6,memory=4Gi", true) + ", " +
                         CounterDevice("device-2", "counter-set-1:cpus=1,memory=7Gi", true) + ", " +
                         CounterDevice("device-3", "counter-set-1:cpus=1,memory=7Gi", true)) +
             CounterSlice("slice-4", "node-1", Pool("pool-2", 2), "driver-a",
                          "counter-set-1:cpus=8,memory=18Gi") +
             Allocated({"driver-a/pool-1/device-2", "driver-a/pool-1/device-3",
                        "driver-a/pool-2/device-1"}) +
             kTwoRequests,
         Variants(kPD),
         std::string(kNode1) + "req-0 driver-a/pool-2/device-2\nreq-1 driver-a/pool-2/device-3\n");
}

TEST(CatalogI, PartitionableDevicesUnusedCountersInCounterSet) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=5Gi") + ", " +
                     CounterDevice("device-2", "counter-set-1:memory=4Gi") + ", " +
                     CounterDevice("device-3", "counter-set-1:memory=4Gi")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:memory=8Gi,unused=1Gi") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)}),
         Variants(kPD),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-2\nreq-0 driver-a/pool-1/device-3\n");
}

// The pool announces one slice but has two: incomplete.
TEST(CatalogI, PartitionableDevicesNoCapacityAvailable) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=4Gi", true) + ", " +
                     CounterDevice("device-2", "counter-set-1:memory=16Gi", true)) +
             CounterSlice("slice-2", "node-1", "pool-1", "driver-a", "counter-set-1:memory=18Gi") +
             Allocated({"driver-a/pool-1/device-2"}) + kOneRequest,
         Variants(kPD), kUnschedulable);
}

TEST(CatalogI, PartitionableDevicesOverallocatedCapacityPool) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=4Gi", true) + ", " +
                     CounterDevice("device-2", "counter-set-1:memory=20Gi", true)) +
             CounterSlice("slice-2", "node-1", "pool-1", "driver-a", "counter-set-1:memory=18Gi") +
             Allocated({"driver-a/pool-1/device-2"}) + kOneRequest,
         Variants(kPD), kUnschedulable);
}

TEST(CatalogI, PartitionableDevicesDisabledDeviceConsumesCounters) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=4Gi")) +
             CounterSlice("slice-2", "node-1", "pool-1", "driver-a", "counter-set-1:memory=18Gi") +
             kOneRequest,
         Variants({}), kUnschedulable);
}

TEST(CatalogI, PartitionableDevicesDisabledOtherDeviceDoNotConsumeCounters) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=4Gi") + ", {name: device-2}") +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:memory=18Gi") +
             kOneRequest,
         Variants({}), std::string(kNode1) + "req-0 driver-a/pool-1/device-2\n");
}

TEST(CatalogI, PartitionableDevicesDisabledPerDeviceNodeSelection) {
  Expect(
      Devices("slice-1", "per-device", "pool-1", "driver-a", "{name: device-2, nodeName: node-1}") +
          kOneRequest,
      Variants({}), kUnschedulable);
}

TEST(CatalogI, PartitionableDevicesPerDeviceNodeSelectionNodename) {
  Expect(
      Devices(
          "slice-1", "per-device", Pool("pool-1", 2), "driver-a",
          CounterDevice("device-1", "counter-set-1:memory=4Gi", true, ", nodeName: node-1") + ", " +
              CounterDevice("device-2", "counter-set-1:memory=6Gi", true, ", nodeName: node-2")) +
          CounterSlice("slice-2", "per-device", Pool("pool-1", 2), "driver-a",
                       "counter-set-1:memory=18Gi") +
          ClaimYaml("claim-0",
                    {FirstAvailable("req-0", {Sub("subReq-0", "class-a", 1, Memory("6Gi")),
                                              Sub("subReq-1", "class-a", 1, Memory("4Gi"))})}),
      Variants(kPDPL), std::string(kNode1) + "req-0/subReq-1 driver-a/pool-1/device-1\n");
}

TEST(CatalogI, PartitionableDevicesPerDeviceNodeSelectionNodeSelector) {
  Expect(Devices("slice-1", "per-device", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=4Gi", true,
                               ", nodeSelector: " + LabelSelector("region", "region-1"))) +
             CounterSlice("slice-2", "per-device", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:memory=18Gi") +
             kOneRequest,
         Variants(kPDPL), "node: { E[region In region-1] }\nreq-0 driver-a/pool-1/device-1\n");
}

TEST(CatalogI, PartitionableDevicesPerDeviceNodeSelectionNodeSelectorMultipleDevices) {
  Expect(Devices(
             "slice-1", "per-device", Pool("pool-1", 2), "driver-a",
             CounterDevice("device-1", "counter-set-1:memory=4Gi", true,
                           ", nodeSelector: " + LabelSelector("region", "region-1")) +
                 ", " +
                 CounterDevice("device-2", "counter-set-1:memory=4Gi", true, ", nodeName: node-1") +
                 ", " +
                 CounterDevice("device-3", "counter-set-1:memory=4Gi", true, ", allNodes: true")) +
             CounterSlice("slice-2", "per-device", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:memory=18Gi") +
             Devices("slice-3", "node-1", Pool("pool-2", 2), "driver-b",
                     CounterDevice("device-1", "counter-set-2:memory=4Gi", true) + ", " +
                         CounterDevice("device-2", "counter-set-2:memory=4Gi", true) + ", " +
                         CounterDevice("device-3", "counter-set-2:memory=4Gi", true)) +
             CounterSlice("slice-4", "node-1", Pool("pool-2", 2), "driver-b",
                          "counter-set-2:memory=12Gi") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 3), Exact("req-1", "class-b", 3)}),
         Variants(kPDPL),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1\nreq-0 driver-a/pool-1/device-2\n"
             "req-0 driver-a/pool-1/device-3\nreq-1 driver-b/pool-2/device-1\n"
             "req-1 driver-b/pool-2/device-2\nreq-1 driver-b/pool-2/device-3\n");
}

// The exclusive cpuN counters and the special attribute force req-0 onto
// {device-2, device-3}.
TEST(CatalogI, PartitionableDevicesWithAttributeSelector) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:cpu1=1;counter-set-2:mem=10Gi", false,
                               ", attributes: {special: {bool: true}}") +
                     ", " +
                     CounterDevice("device-2", "counter-set-1:cpu2=1;counter-set-2:mem=10Gi", false,
                                   ", attributes: {special: {bool: false}}") +
                     ", " +
                     CounterDevice("device-3", "counter-set-1:cpu3=1;counter-set-2:mem=10Gi", false,
                                   ", attributes: {special: {bool: false}}")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:cpu1=1,cpu2=1,cpu3=1;counter-set-2:mem=30Gi") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2),
                                   Exact("req-1", "class-a", 1,
                                         Sel(R"(device.attributes["driver-a"].special)"))}),
         Variants(kPD),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-2\nreq-0 driver-a/pool-1/device-3\n"
             "req-1 driver-a/pool-1/device-1\n");
}

TEST(CatalogI, PartitionableDevicesSameCounterSetNameInDifferentResourceSlices) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 4), "driver-a", "{name: device-1}") +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 4), "driver-a", "counter-set-1:") +
             Devices("slice-3", "node-1", Pool("pool-1", 4), "driver-a", "{name: device-2}") +
             CounterSlice("slice-4", "node-1", Pool("pool-1", 4), "driver-a", "counter-set-1:") +
             kOneRequest,
         Variants(kPD), kInvalidPools);
}

TEST(CatalogI, PartitionableDevicesDeviceCounterConsumptionReferencesUnknownCounterSet) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-2:")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "counter-set-1:") +
             kOneRequest,
         Variants(kPD), kInvalidPools);
}

TEST(CatalogI, PartitionableDevicesDeviceCounterConsumptionReferencesUnknownCounterInCounterSet) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=8Gi")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:other-memory=8Gi") +
             kOneRequest,
         Variants(kPD), kInvalidPools);
}

TEST(CatalogI, PartitionableDevicesDeviceCounterConsumptionReferencesCounterSetInOtherPool) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=8Gi")) +
             CounterSlice("slice-2", "node-1", "pool-2", "driver-a", "counter-set-1:memory=8Gi") +
             kOneRequest,
         Variants(kPD), kInvalidPools);
}

// Counter sets span nodes: device-3 on node-2 is allocated and uses 6Gi of the
// shared 8Gi.
TEST(CatalogI, PartitionableDevicesDevicesOnDifferentNodesConsumeSameCounterSet) {
  Expect(
      CounterSlice("slice-1", "node-1", Pool("pool-1", 3), "driver-a", "counter-set-1:memory=8Gi") +
          Devices("slice-2", "node-1", Pool("pool-1", 3), "driver-a",
                  CounterDevice("device-1", "counter-set-1:memory=6Gi", true) + ", " +
                      CounterDevice("device-2", "counter-set-1:memory=2Gi", true)) +
          Devices("slice-3", "node-2", Pool("pool-1", 3), "driver-a",
                  CounterDevice("device-3", "counter-set-1:memory=6Gi")) +
          Allocated({"driver-a/pool-1/device-3"}) +
          ClaimYaml("claim-0",
                    {FirstAvailable("req-0", {Sub("subReq-0", "class-a", 1, Memory("6Gi")),
                                              Sub("subReq-1", "class-a", 1, Memory("2Gi"))})}),
      Variants(kPDPL), std::string(kNode1) + "req-0/subReq-1 driver-a/pool-1/device-2\n");
}

TEST(CatalogI, PartitionableDevicesDevicesConsumeCounterSetInDifferentNodes) {
  RunOptions node2;
  node2.node = "node-2";
  Expect(
      CounterSlice("slice-1", "node-1", Pool("pool-1", 3), "driver-a", "counter-set-1:memory=8Gi") +
          Devices("slice-2", "node-1", Pool("pool-1", 3), "driver-a",
                  CounterDevice("device-1", "counter-set-1:memory=6Gi", true)) +
          Devices("slice-3", "node-2", Pool("pool-1", 3), "driver-a",
                  CounterDevice("device-2", "counter-set-1:memory=6Gi", true) + ", " +
                      CounterDevice("device-3", "counter-set-1:memory=2Gi", true)) +
          Allocated({"driver-a/pool-1/device-1"}) + kOneRequest,
      Variants(kPD), "node: { F[metadata.name In node-2] }\nreq-0 driver-a/pool-1/device-3\n",
      node2);
}

TEST(CatalogI, PartitionableDevicesValidationErrorOnNonTargetingSlice) {
  Expect(
      CounterSlice("slice-1", "node-1", Pool("pool-1", 3), "driver-a", "counter-set-1:memory=8Gi") +
          Devices("slice-2", "node-1", Pool("pool-1", 3), "driver-a",
                  CounterDevice("device-1", "counter-set-1:memory=6Gi", true)) +
          Devices("slice-3", "node-2", Pool("pool-1", 3), "driver-a",
                  CounterDevice("device-3", "counter-set-2:memory=6Gi")) +
          kOneRequest,
      Variants(kPD), kInvalidPools);
}

}  // namespace
}  // namespace dra::allocator::catalog

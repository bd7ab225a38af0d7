#include "testing/scenario_generator.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <variant>

#include "dra/api/validation.h"
#include "dra/cel/selector_checker.h"

namespace dra::testing {
namespace {

api::FeatureGates AllDraGatesOn() {
  api::FeatureGates g;
  EXPECT_TRUE(g.Apply("DRADeviceTaints=true,DRADeviceTaintRules=true,DRAConsumableCapacity=true,"
                      "DRADeviceBindingConditions=true,DRAPartitionableDevices=true,"
                      "DRAListTypeAttributes=true")
                  .ok());
  return g;
}

// Every field error of every object, as "<kind>/<name>: <error>".
std::vector<std::string> Invalid(const GeneratedScenario& s) {
  cel::CelSelectorChecker checker;
  api::ValidationOptions options;
  options.gates = AllDraGatesOn();
  options.selector_checker = &checker;
  options.namespace_labels = [](std::string_view) -> std::optional<api::StringMap> {
    return api::StringMap{{"resource.kubernetes.io/admin-access", "true"}};
  };
  std::vector<std::string> out;
  for (const api::Object& o : s.objects) {
    api::FieldErrors errors;
    if (const auto* x = std::get_if<api::ResourceSlice>(&o))
      errors = ValidateResourceSlice(*x, options);
    if (const auto* x = std::get_if<api::DeviceClass>(&o))
      errors = ValidateDeviceClass(*x, options);
    if (const auto* x = std::get_if<api::ResourceClaim>(&o))
      errors = ValidateResourceClaim(*x, options);
    if (const auto* x = std::get_if<api::DeviceTaintRule>(&o)) {
      errors = ValidateDeviceTaintRule(*x, options);
    }
    for (const api::FieldError& e : errors) {
      out.push_back(std::string(api::KindOf(o)) + "/" + api::MetaOf(o).name + ": " + e.ToString());
    }
  }
  return out;
}

TEST(ScenarioGenerator, SameSeedSameManifest) {
  GeneratorParams p = *ProfileParams("all");
  p.seed = 42;
  Result<std::string> a = ManifestYaml(GenerateScenario(p));
  Result<std::string> b = ManifestYaml(GenerateScenario(p));
  ASSERT_TRUE(a.ok()) << a.error();
  ASSERT_TRUE(b.ok()) << b.error();
  EXPECT_EQ(*a, *b);
  p.seed = 43;
  Result<std::string> c = ManifestYaml(GenerateScenario(p));
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_NE(*a, *c);
}

TEST(ScenarioGenerator, HeaderNamesNodeAndGates) {
  GeneratorParams p = *ProfileParams("all");
  p.seed = 7;
  GeneratedScenario s = GenerateScenario(p);
  Result<std::string> yaml = ManifestYaml(s);
  ASSERT_TRUE(yaml.ok()) << yaml.error();
  EXPECT_EQ(yaml->rfind("# dra-gen: seed=7\n# dra-gen: node=node-0\n# dra-gen: feature-gates=" +
                            s.feature_gates + "\n",
                        0),
            0u);
  api::FeatureGates parsed;
  ASSERT_TRUE(parsed.Apply(s.feature_gates).ok());
  EXPECT_EQ(parsed.ChangedString(), s.gates.ChangedString());
}

// Validity under all DRA gates, over every profile and many seeds.
TEST(ScenarioGenerator, EveryProfileGeneratesValidObjects) {
  for (const std::string& profile : ProfileNames()) {
    GeneratorParams p = *ProfileParams(profile);
    if (profile == "bench") p.nodes = 8;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      p.seed = seed;
      std::vector<std::string> invalid = Invalid(GenerateScenario(p));
      EXPECT_TRUE(invalid.empty()) << profile << " seed " << seed << ": " << invalid.front();
    }
  }
}

// The "all" profile covers every feature knob and several gate sets.
TEST(ScenarioGenerator, AllProfileCoversFeaturesAndGates) {
  GeneratorParams p = *ProfileParams("all");
  std::set<std::string> seen;
  std::set<std::string> gate_sets;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    p.seed = seed;
    GeneratedScenario s = GenerateScenario(p);
    gate_sets.insert(s.feature_gates);
    for (const api::Object& o : s.objects) {
      if (const auto* slice = std::get_if<api::ResourceSlice>(&o)) {
        if (!slice->spec.shared_counters.empty()) seen.insert("counters");
        if (slice->spec.per_device_node_selection) seen.insert("per-device-nodes");
        if (slice->spec.all_nodes || slice->spec.node_selector) seen.insert("network");
        for (const api::Device& d : slice->spec.devices) {
          if (!d.taints.empty()) seen.insert("taint");
          if (d.allow_multiple_allocations) seen.insert("multi");
          if (!d.binding_conditions.empty()) seen.insert("binding");
          for (const auto& [n, a] : d.attributes) {
            if (!a.int_values.empty() || !a.string_values.empty()) seen.insert("list-attr");
          }
          for (const auto& [n, c] : d.capacity) {
            if (c.request_policy) seen.insert("policy");
          }
        }
      }
      if (std::holds_alternative<api::DeviceTaintRule>(o)) seen.insert("taint-rule");
      if (const auto* c = std::get_if<api::ResourceClaim>(&o)) {
        if (c->status.allocation) seen.insert("in-use");
        for (const auto& k : c->spec.devices.constraints) {
          if (k.match_attribute) seen.insert("match");
          if (k.distinct_attribute) seen.insert("distinct");
        }
        for (const auto& r : c->spec.devices.requests) {
          if (!r.first_available.empty()) seen.insert("first-available");
          if (r.exactly && r.exactly->allocation_mode == "All") seen.insert("all-mode");
          if (r.exactly && r.exactly->admin_access) seen.insert("admin");
          if (r.exactly && r.exactly->capacity) seen.insert("capacity-request");
          if (r.exactly && !r.exactly->tolerations.empty()) seen.insert("toleration");
        }
      }
    }
  }
  for (const char* want :
       {"counters", "per-device-nodes", "network", "taint", "multi", "binding", "list-attr",
        "policy", "taint-rule", "in-use", "match", "distinct", "first-available", "all-mode",
        "admin", "capacity-request", "toleration"}) {
    EXPECT_TRUE(seen.count(want)) << want;
  }
  EXPECT_GE(gate_sets.size(), 20u);
}

TEST(ScenarioGenerator, AllocatorScenarioSortsObjects) {
  GeneratorParams p = *ProfileParams("admin");
  p.seed = 3;
  GeneratedScenario g = GenerateScenario(p);
  allocator::Scenario s = ToAllocatorScenario(g);
  EXPECT_EQ(s.claims.size(), static_cast<std::size_t>(p.claims));
  EXPECT_FALSE(s.snapshot.slices.empty());
  EXPECT_EQ(s.nodes.size(), static_cast<std::size_t>(p.nodes));
  for (const api::ResourceClaim& c : s.snapshot.allocated_claims) {
    EXPECT_TRUE(c.status.allocation.has_value());
  }
  EXPECT_TRUE(s.snapshot.features.admin_access);
}

TEST(ScenarioGenerator, UnknownProfileIsAnError) {
  Result<GeneratorParams> p = ProfileParams("nope");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("valid: small, all"), std::string::npos) << p.error();
}

}  // namespace
}  // namespace dra::testing

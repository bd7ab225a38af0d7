// A scenario: the objects of one or more manifests sorted into what the
// allocator needs. Claims with status.allocation are in use (the snapshot's
// allocated claims); the others are to be allocated, in input order.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dra/allocator/allocator.h"
#include "dra/api/manifest.h"

namespace dra::allocator {

struct Scenario {
  Snapshot snapshot;
  std::vector<api::ResourceClaim> claims;  // to allocate
  std::vector<api::Node> nodes;
  // Objects the allocator does not read (Pods, templates, ...), by kind.
  std::vector<std::string> ignored_kinds;
};

// Fails on the first read or decode error ("<source>: document <n>: <message>").
Result<Scenario> ScenarioFromManifests(const api::ManifestSet& set, const Features& features);

// Parses YAML or JSON text (several documents allowed), e.g. for tests and fuzzing.
Result<Scenario> ParseScenario(std::string_view text, const Features& features);

// The node named `name`, or a node with only that name when the scenario has none.
api::Node FindNode(const Scenario& scenario, const std::string& name);

}  // namespace dra::allocator

// Filter's equivalence cache. The allocator's verdict for a list of claims on
// a node depends only on the claims' specs, the node, and the in-use state of
// the pools the node sees (the allocator and the node objects never change
// during a Scheduler's life). Allocator::StateVersion summarizes the last, so
// a verdict stored under (node, claim-spec signature, state version) answers
// every later attempt with equal specs until an allocation touches one of the
// node's pools. Scheduling one pod changes one node's pools, so consecutive
// pods of one template mostly hit.
//
// Only feasibility and the prioritized-list score are stored, never results
// (the chosen node's are built afresh) nor errors (their texts name claims).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "dra/api/resource.h"

namespace dra::scheduler {

class FilterMemo {
 public:
  struct Verdict {
    bool feasible = false;
    // DynamicResources' raw score of the allocation found (prioritized lists).
    std::int64_t score = 0;
  };

  explicit FilterMemo(std::size_t nodes) : nodes_(nodes) {}

  // The id of a claim list's specs (metadata and status ignored): equal ids,
  // equal specs in the same order. Not thread-safe; call before the parallel
  // Filter. May forget every stored verdict to bound memory.
  std::uint64_t Signature(std::span<const api::ResourceClaim> claims);

  // Per node, safe while no two threads touch the same node at once (Filter
  // evaluates each node at most once per attempt).
  const Verdict* Find(std::size_t node, std::uint64_t signature, std::uint64_t version) const;
  void Store(std::size_t node, std::uint64_t signature, std::uint64_t version, Verdict verdict);

 private:
  struct Entry {
    std::uint64_t signature;
    std::uint64_t version;
    Verdict verdict;
  };
  // Bounds: signatures remembered, and verdicts kept per node (the oldest
  // slot is reused first).
  static constexpr std::size_t kMaxSignatures = 4096;
  static constexpr std::size_t kEntriesPerNode = 64;

  struct NodeEntries {
    std::vector<Entry> entries;
    std::size_t next = 0;  // slot to reuse when full
  };
  std::vector<NodeEntries> nodes_;
  std::unordered_map<std::string, std::uint64_t> ids_;
  // Ids are never reused, so a verdict stored under a forgotten signature
  // can never answer for another.
  std::uint64_t next_id_ = 0;
};

}  // namespace dra::scheduler

#include "scheduler/filter_memo.h"

#include "dra/api/codec.h"

namespace dra::scheduler {

std::uint64_t FilterMemo::Signature(std::span<const api::ResourceClaim> claims) {
  // The v1 encoding of each spec is canonical: equal specs, equal bytes.
  std::string key;
  api::ResourceClaim spec_only;
  for (const api::ResourceClaim& claim : claims) {
    spec_only.spec = claim.spec;
    Result<std::string> encoded = api::EncodeObject(spec_only, api::ApiVersion::kV1);
    key += encoded.ok() ? *encoded : encoded.error();
    key += '\n';  // never inside compact JSON
  }
  auto it = ids_.find(key);
  if (it != ids_.end()) return it->second;
  if (ids_.size() >= kMaxSignatures) {
    ids_.clear();
    for (NodeEntries& n : nodes_) n = NodeEntries{};
  }
  const std::uint64_t id = next_id_++;
  ids_.emplace(std::move(key), id);
  return id;
}

const FilterMemo::Verdict* FilterMemo::Find(std::size_t node, std::uint64_t signature,
                                            std::uint64_t version) const {
  for (const Entry& e : nodes_[node].entries) {
    if (e.signature == signature) return e.version == version ? &e.verdict : nullptr;
  }
  return nullptr;
}

void FilterMemo::Store(std::size_t node, std::uint64_t signature, std::uint64_t version,
                       Verdict verdict) {
  NodeEntries& n = nodes_[node];
  for (Entry& e : n.entries) {
    if (e.signature == signature) {
      e.version = version;
      e.verdict = verdict;
      return;
    }
  }
  if (n.entries.size() < kEntriesPerNode) {
    n.entries.push_back({signature, version, verdict});
    return;
  }
  n.entries[n.next] = {signature, version, verdict};
  n.next = (n.next + 1) % kEntriesPerNode;
}

}  // namespace dra::scheduler

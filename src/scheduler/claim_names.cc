#include "scheduler/claim_names.h"

namespace dra::scheduler {

std::string ClaimNamePrefix(const std::string& pod_name, const std::string& entry_name) {
  // 63 characters at most for a label-compatible name: 57 + "-" + 5 random.
  constexpr std::size_t kMaxBase = 57;
  std::string prefix = pod_name + "-" + entry_name + "-";
  if (prefix.size() <= kMaxBase) return prefix;
  std::size_t total = prefix.size();
  return pod_name.substr(0, pod_name.size() * kMaxBase / total) + "-" +
         entry_name.substr(0, entry_name.size() * kMaxBase / total);
}

}  // namespace dra::scheduler

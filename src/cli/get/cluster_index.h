// What device, pool and claim rows share: allocations indexed by device,
// pools grouped from their slices (newest generation only), the node a slice
// or device is available on, taints with those of DeviceTaintRules, and the
// --node/--driver/--class device filter.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cli/get/cluster_objects.h"
#include "dra/api/quantity.h"
#include "dra/cel/program.h"
#include "dra/util/result.h"

namespace dra::cli::get {

// Row filters, as the command's flags give them; empty = no filter.
struct GetFilters {
  std::string node;
  std::string driver;
  std::string device_class;
  std::string namespace_ = "default";  // `get claims` only
  bool all_namespaces = false;
};

// "namespace/name".
std::string QualifiedName(const api::ObjectMeta& meta);

// One allocation result of a claim. REQUIRES: the claims outlive it.
struct AllocationRef {
  const api::ResourceClaim* claim;
  const api::DeviceRequestAllocationResult* result;
  bool admin_access() const { return result->admin_access.value_or(false); }
};

// Every allocation result of every claim, by (driver, pool, device).
class AllocationIndex {
 public:
  // REQUIRES: `claims` outlives the index and is not modified.
  explicit AllocationIndex(const std::vector<api::ResourceClaim>& claims);
  // The results naming that device, in claim order; empty when none.
  const std::vector<AllocationRef>& Find(std::string_view driver, std::string_view pool,
                                         std::string_view device) const;

 private:
  std::unordered_map<std::string, std::vector<AllocationRef>> by_device_;
  std::vector<AllocationRef> none_;
};

// A pool as the allocator sees it: the slices of its newest generation.
struct PoolSlices {
  std::string_view driver;
  std::string_view pool;
  std::int64_t generation = 0;
  std::int64_t resource_slice_count = 0;          // spec.pool.resourceSliceCount (the largest seen)
  std::vector<const api::ResourceSlice*> slices;  // newest generation, input order
  bool complete() const { return static_cast<std::int64_t>(slices.size()) == resource_slice_count; }
};

// A total and what allocations take of it (shared counters, consumable
// capacity), exact.
struct Use {
  api::Quantity total;
  api::Quantity consumed;
};

// A pool's shared counters: counter set -> counter -> use.
using CounterLedger = std::map<std::string, std::map<std::string, Use>>;

// The counters of the pool's slices, nothing consumed (zero in each total's
// format, so that sums print as the total does: "40Gi").
CounterLedger PoolCounters(const PoolSlices& pool);
// Adds what `device` (an allocated one) consumes.
void Consume(CounterLedger& ledger, const api::Device& device);
// Whether what the ledger leaves covers what `device` consumes; a counter set
// or counter the pool does not have never does (the allocator rejects the
// device). `partly_consumed`, when given, is set when a counter the device
// draws on is partly consumed.
bool FitsCounters(const CounterLedger& ledger, const api::Device& device,
                  bool* partly_consumed = nullptr);

// Pools sorted by (driver, pool). REQUIRES: `slices` outlives the result.
std::vector<PoolSlices> GroupPools(const std::vector<api::ResourceSlice>& slices);

// kubectl-like rendering of a node selector: one term as "k in (a,b),k2",
// terms joined by " || "; a lone matchFields metadata.name In [n] is "n".
std::string NodeSelectorText(const api::NodeSelector& selector);

// Where a device is available: the node name, the node selector's text,
// "<all nodes>", or "<per device>" (for a slice with perDeviceNodeSelection
// and device == nullptr).
std::string NodeColumn(const api::ResourceSlice& slice, const api::Device* device);

// A taint on a device: its own (rule empty) or one a DeviceTaintRule adds.
struct RowTaint {
  const api::DeviceTaint* taint;
  std::string_view rule;
};

class TaintIndex {
 public:
  // REQUIRES: `rules` outlives the index.
  explicit TaintIndex(const std::vector<api::DeviceTaintRule>& rules);
  // The device's own taints, then those of matching rules sorted by rule name.
  std::vector<RowTaint> TaintsOf(const api::ResourceSlice& slice, const api::Device& device) const;

 private:
  std::vector<const api::DeviceTaintRule*> rules_;
};

// Which devices --node, --driver and --class keep.
class DeviceFilter {
 public:
  // Fails when --class names no DeviceClass of `objects`, or a selector of
  // the class does not compile. REQUIRES: `objects` outlives the filter.
  static Result<DeviceFilter> Make(const ClusterObjects& objects, const GetFilters& filters);

  bool Matches(const api::ResourceSlice& slice, const api::Device& device) const;
  // Whether anything but --driver is set (devices must be looked at).
  bool filters_devices() const { return node_ != nullptr || !programs_.empty() || has_class_; }

 private:
  std::string driver_;
  std::shared_ptr<api::Node> node_;  // the --node Node, or one assumed from its name
  bool has_class_ = false;
  std::vector<std::shared_ptr<const cel::Program>> programs_;
};

}  // namespace dra::cli::get

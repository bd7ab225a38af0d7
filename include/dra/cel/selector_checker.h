// The CEL engine behind API validation of `…cel.expression` fields, after the
// 10 KiB length check: compile errors, non-bool results and the estimated-cost
// limit, reported with kube-apiserver's error types and texts.
#pragma once

#include <array>

#include "dra/api/validation.h"
#include "dra/cel/compile_cache.h"

namespace dra::cel {

class CelSelectorChecker final : public api::SelectorChecker {
 public:
  CelSelectorChecker();

  // New or changed expressions compile in the strict NewExpressions
  // environment shaped by the gates; unchanged stored ones in the lenient
  // StoredExpressions environment.
  void Check(std::string_view expression, const std::string& field, bool stored,
             const api::FeatureGates& gates, api::FieldErrors& errors) const override;
  std::uint64_t CheckDerivedAttribute(std::string_view expression, const std::string& field,
                                      const api::FeatureGates& gates,
                                      api::FieldErrors& errors) const override;

 private:
  mutable CompileCache stored_;
  // NewExpressions, indexed by (DRAConsumableCapacity, DRAListTypeAttributes).
  mutable std::array<CompileCache, 4> strict_;
  // Derived attributes, indexed the same way.
  mutable std::array<CompileCache, 4> derived_;
};

}  // namespace dra::cel

// The CEL engine behind API validation of `…cel.expression` fields (spec
// api.md 4.11 steps 2 and 3): compile errors, non-bool results and the cost
// limit, reported with kube-apiserver's error types and texts.
#pragma once

#include "dra/api/validation.h"
#include "dra/cel/compile_cache.h"

namespace dra::cel {

class CelSelectorChecker final : public api::SelectorChecker {
 public:
  void Check(std::string_view expression, const std::string& field, bool stored,
             const api::FeatureGates& gates, api::FieldErrors& errors) const override;

 private:
  mutable CompileCache cache_;
};

}  // namespace dra::cel

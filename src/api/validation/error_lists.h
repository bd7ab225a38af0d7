// How kube-apiserver merges its two validators
// (ValidateDeclarativelyWithMigrationChecks in
// k8s.io/apiserver/pkg/registry/rest/validate.go), modelled by emitting what
// the client sees: hand-written (HV) errors in HV order, minus those
// suppressed by a beta declarative twin, then the declarative (DV) errors in
// DV order, with DV texts and paths.
#pragma once

#include <iterator>
#include <utility>

#include "dra/api/field_error.h"

namespace dra::api::validation {

struct ErrorLists {
  FieldErrors hv;
  FieldErrors dv;

  FieldErrors Merged() && {
    hv.insert(hv.end(), std::make_move_iterator(dv.begin()), std::make_move_iterator(dv.end()));
    return std::move(hv);
  }
};

}  // namespace dra::api::validation

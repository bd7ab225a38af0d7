// apimachinery keeps a Quantity either in a fast form (int64 mantissa and a
// power-of-ten scale) or in an arbitrary-precision form, and the Kubernetes
// CEL library's asInteger()/isInteger() succeed only in the fast form. The
// api layer models values exactly but not that representation, so the CEL
// layer tracks it beside each quantity (k8s.io/apiserver pkg/cel/library/quantity.go).
#pragma once

#include <cstdint>
#include <string_view>

namespace dra::cel {

enum QuantityForm : std::uint8_t {
  kQuantityFormUnknown = 0,  // derive from the quantity's text
  kQuantityFormFast = 1,
  kQuantityFormDecimal = 2,
};

// The form apimachinery's parser picks for `text`. REQUIRES: valid text.
QuantityForm QuantityFormOfText(std::string_view text);

}  // namespace dra::cel

#include "allocator/node_match.h"

#include <algorithm>
#include <charconv>
#include <string_view>

namespace dra::allocator {
namespace {

bool ParseInt(std::string_view s, std::int64_t& out) {
  if (s.empty()) return false;
  const char* b = s.data();
  if (*b == '+') ++b;
  auto [p, ec] = std::from_chars(b, s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

Status CheckExpression(const api::NodeSelectorRequirement& r) {
  const std::string& op = r.operator_;
  if (op == "In" || op == "NotIn") {
    if (r.values.empty()) return Error{"for 'in', 'notin' operators, values set can't be empty"};
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (!r.values.empty()) {
      return Error{"values set must be empty for exists and does not exist"};
    }
  } else if (op == "Gt" || op == "Lt") {
    std::int64_t v;
    if (r.values.size() != 1)
      return Error{"for 'Gt', 'Lt' operators, exactly one value is required"};
    if (!ParseInt(r.values[0], v)) {
      return Error{"for 'Gt', 'Lt' operators, the value must be an integer"};
    }
  } else {
    return Error{"\"" + op + "\" is not a valid label selector operator"};
  }
  return {};
}

Status CheckField(const api::NodeSelectorRequirement& r) {
  if (r.operator_ != "In" && r.operator_ != "NotIn") {
    return Error{"\"" + r.operator_ + "\" is not a valid field selector operator"};
  }
  if (r.values.size() != 1)
    return Error{"unexpected number of value (" + std::to_string(r.values.size()) +
                 ") for node field selector operator"};
  return {};
}

bool ExpressionMatches(const api::NodeSelectorRequirement& r, const api::StringMap& labels) {
  auto it = labels.find(r.key);
  bool has = it != labels.end();
  const std::string& op = r.operator_;
  if (op == "Exists") return has;
  if (op == "DoesNotExist") return !has;
  if (op == "In" || op == "NotIn") {
    bool in = has && std::find(r.values.begin(), r.values.end(), it->second) != r.values.end();
    return op == "In" ? in : !in;
  }
  // Gt / Lt: the label must exist and be an integer.
  std::int64_t label, bound;
  if (!has || !ParseInt(it->second, label) || !ParseInt(r.values[0], bound)) return false;
  return op == "Gt" ? label > bound : label < bound;
}

bool FieldMatches(const api::NodeSelectorRequirement& r, std::string_view node_name) {
  std::string_view value = r.key == "metadata.name" ? node_name : "";
  bool in = value == r.values[0];
  return r.operator_ == "In" ? in : !in;
}

}  // namespace

Result<bool> NodeSelectorMatches(const api::NodeSelector& selector, NodeRef node) {
  for (const api::NodeSelectorTerm& term : selector.node_selector_terms) {
    for (const auto& r : term.match_expressions) {
      if (Status s = CheckExpression(r); !s.ok()) return s.failure();
    }
    for (const auto& r : term.match_fields) {
      if (Status s = CheckField(r); !s.ok()) return s.failure();
    }
  }
  const std::string_view name = node.name();
  for (const api::NodeSelectorTerm& term : selector.node_selector_terms) {
    if (term.match_expressions.empty() && term.match_fields.empty()) continue;
    bool ok = std::all_of(term.match_expressions.begin(), term.match_expressions.end(),
                          [&](const auto& r) { return ExpressionMatches(r, node.labels()); });
    if (ok && !name.empty()) {
      ok = std::all_of(term.match_fields.begin(), term.match_fields.end(),
                       [&](const auto& r) { return FieldMatches(r, name); });
    }
    if (ok) return true;
  }
  return false;
}

Result<bool> NodeMatches(std::optional<std::string_view> node_name,
                         const std::optional<bool>& all_nodes,
                         const std::optional<api::NodeSelector>& selector, NodeRef node) {
  if (node_name && !node_name->empty()) return *node_name == node.name();
  if (all_nodes.value_or(false)) return true;
  if (selector) return NodeSelectorMatches(*selector, node);
  return false;
}

}  // namespace dra::allocator

// Node matching with required-node-affinity semantics (k8s.io/component-helpers
// scheduling/corev1/nodeaffinity).
#include "allocator/node_match.h"

#include <gtest/gtest.h>

namespace dra::allocator {
namespace {

api::Node Node1() {
  api::Node n;
  n.metadata.name = "node-1";
  n.metadata.labels = {{"region", "region-1"}, {"cores", "8"}};
  return n;
}

api::NodeSelector Expr(const std::string& key, const std::string& op,
                       std::vector<std::string> values) {
  api::NodeSelectorRequirement r;
  r.key = key;
  r.operator_ = op;
  for (auto& v : values) r.values.push_back(v);
  api::NodeSelectorTerm t;
  t.match_expressions.push_back(r);
  api::NodeSelector s;
  s.node_selector_terms.push_back(t);
  return s;
}

bool Matches(const api::NodeSelector& s) {
  Result<bool> r = NodeSelectorMatches(s, Node1());
  EXPECT_TRUE(r.ok()) << r.error();
  return r.ok() && *r;
}

TEST(NodeMatch, Operators) {
  EXPECT_TRUE(Matches(Expr("region", "In", {"region-1", "x"})));
  EXPECT_FALSE(Matches(Expr("region", "NotIn", {"region-1"})));
  EXPECT_TRUE(Matches(Expr("missing", "NotIn", {"a"})));
  EXPECT_TRUE(Matches(Expr("region", "Exists", {})));
  EXPECT_TRUE(Matches(Expr("missing", "DoesNotExist", {})));
  EXPECT_TRUE(Matches(Expr("cores", "Gt", {"4"})));
  EXPECT_FALSE(Matches(Expr("cores", "Lt", {"4"})));
  EXPECT_FALSE(Matches(Expr("region", "Gt", {"4"})));  // not an integer label
}

TEST(NodeMatch, ParseProblemsAreErrors) {
  EXPECT_FALSE(NodeSelectorMatches(Expr("region", "Near", {"x"}), Node1()).ok());
  EXPECT_FALSE(NodeSelectorMatches(Expr("region", "In", {}), Node1()).ok());
  EXPECT_FALSE(NodeSelectorMatches(Expr("cores", "Gt", {"four"}), Node1()).ok());
  EXPECT_FALSE(NodeSelectorMatches(Expr("region", "Exists", {"x"}), Node1()).ok());
}

TEST(NodeMatch, FieldsAndEmptyTerms) {
  api::NodeSelector s;
  api::NodeSelectorTerm empty;
  s.node_selector_terms.push_back(empty);
  EXPECT_FALSE(Matches(s));  // a term without requirements matches nothing
  api::NodeSelectorRequirement f;
  f.key = "metadata.name";
  f.operator_ = "In";
  f.values = {"node-1"};
  api::NodeSelectorTerm t;
  t.match_fields.push_back(f);
  s.node_selector_terms.push_back(t);
  EXPECT_TRUE(Matches(s));
}

TEST(NodeMatch, FirstApplicableRuleWins) {
  api::Node n = Node1();
  EXPECT_TRUE(*NodeMatches(std::string("node-1"), std::nullopt, std::nullopt, n));
  EXPECT_FALSE(*NodeMatches(std::string("node-2"), true, std::nullopt, n));
  EXPECT_TRUE(*NodeMatches(std::nullopt, true, std::nullopt, n));
  EXPECT_FALSE(*NodeMatches(std::nullopt, std::nullopt, std::nullopt, n));
}

}  // namespace
}  // namespace dra::allocator

// Constraints over list-type attributes with DRAListTypeAttributes, after the
// list-attribute cases of upstream's shared allocator suite.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;

Features Lists() {
  Features f = Base();
  f.list_type_attributes = true;
  return f;
}

std::string Devices(const std::vector<std::string>& attrs) {
  std::string out;
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    out += (i ? ", " : "") + std::string("{name: device-") + std::to_string(i + 1) +
           ", attributes: {a: " + attrs[i] + "}}";
  }
  return Slice("slice-1", "pool-1", out);
}

std::string CountWith(int count, const std::string& kind) {
  return Claim("claim-0", OneRequest("req-0", "class-a", count) + "    constraints:\n    - {" +
                              kind + ": driver-a/a}\n");
}

dra::allocator::Outcome OutcomeOf(const std::vector<std::string>& attrs, int count,
                                  const std::string& kind, const Features& f = Lists()) {
  return Allocate(Devices(attrs) + CountWith(count, kind), f).result.outcome;
}

constexpr auto kAllocated = dra::allocator::Outcome::kAllocated;
constexpr auto kUnschedulable = dra::allocator::Outcome::kUnschedulable;

TEST(ListAttributes, MatchAttributeIntersectsSets) {
  EXPECT_EQ(OutcomeOf({"{string: x}", "{string: x}"}, 2, "matchAttribute"), kAllocated);
  EXPECT_EQ(OutcomeOf({"{strings: [a, b]}", "{strings: [b, c]}"}, 2, "matchAttribute"), kAllocated);
  EXPECT_EQ(OutcomeOf({"{strings: [a, b]}", "{strings: [b, c]}", "{strings: [a, c]}"}, 3,
                      "matchAttribute"),
            kUnschedulable);
  EXPECT_EQ(OutcomeOf({"{strings: [a]}", "{strings: [b]}"}, 2, "matchAttribute"), kUnschedulable);
  EXPECT_EQ(OutcomeOf({"{string: b}", "{strings: [a, b]}"}, 2, "matchAttribute"), kAllocated);
  EXPECT_EQ(OutcomeOf({"{string: c}", "{strings: [a, b]}"}, 2, "matchAttribute"), kUnschedulable);
  EXPECT_EQ(OutcomeOf({"{ints: [1, 2]}", "{ints: [2, 3]}"}, 2, "matchAttribute"), kAllocated);
  EXPECT_EQ(OutcomeOf({"{bools: [true]}", "{bools: [true, false]}"}, 2, "matchAttribute"),
            kAllocated);
  EXPECT_EQ(OutcomeOf({"{versions: [1.0.0, 2.0.0]}", "{versions: [2.0.0]}"}, 2, "matchAttribute"),
            kAllocated);
}

TEST(ListAttributes, FeatureOffListsNeverMatchASecondDevice) {
  EXPECT_EQ(OutcomeOf({"{strings: [a, b]}", "{strings: [a, b]}"}, 2, "matchAttribute", Base()),
            kUnschedulable);
  EXPECT_EQ(OutcomeOf({"{strings: [a]}", "{strings: [b]}"}, 2, "distinctAttribute", Base()),
            kUnschedulable);
}

TEST(ListAttributes, DistinctAttributeRefusesSharedElements) {
  Outcome o = Allocate(Devices({"{strings: [a, b]}", "{strings: [b, c]}", "{strings: [d]}"}) +
                           CountWith(2, "distinctAttribute"),
                       Lists());
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-1 req-0:driver-a/pool-1/device-3"));
  EXPECT_EQ(OutcomeOf({"{string: a}", "{string: a}"}, 2, "distinctAttribute"), kUnschedulable);
  EXPECT_EQ(OutcomeOf({"{string: a}", "{strings: [a, b]}"}, 2, "distinctAttribute"),
            kUnschedulable);
  EXPECT_EQ(OutcomeOf({"{ints: [1]}", "{ints: [1, 2]}", "{ints: [3]}"}, 2, "distinctAttribute"),
            kAllocated);
}

// Removing a device during backtracking widens the running intersection
// again (older upstream allocators kept it narrowed): after
// D1+D2 fail for req-1, D1+D3 share "a" and req-1 gets D2.
TEST(ListAttributes, MatchIntersectionWidensOnBacktracking) {
  std::string slice = Slice("slice-1", "pool-1",
                            "{name: d1, attributes: {a: {strings: [a, b]}, pick: {bool: false}}}, "
                            "{name: d2, attributes: {a: {strings: [b]}, pick: {bool: true}}}, "
                            "{name: d3, attributes: {a: {strings: [a]}, pick: {bool: false}}}");
  std::string claim = Claim("claim-0", R"(
    requests:
    - {name: req-0, exactly: {deviceClassName: class-a, count: 2}}
    - name: req-1
      exactly:
        deviceClassName: class-a
        selectors: [{cel: {expression: 'device.attributes["driver-a"].pick'}}]
    constraints:
    - {requests: [req-0], matchAttribute: driver-a/a}
)");
  EXPECT_THAT(Allocate(slice + claim, Lists()).devices,
              ::testing::ElementsAre(
                  "req-0:driver-a/pool-1/d1 req-0:driver-a/pool-1/d3 req-1:driver-a/pool-1/d2"));
}

}  // namespace
}  // namespace dra::allocator::testing

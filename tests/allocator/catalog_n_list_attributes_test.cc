// List-type attributes (DRAListTypeAttributes): cases of upstream's shared
// allocator suite (release v0.37.2, see allocator_test_util.h), one test each, plus the
// release's list-attributes-match-constraint-backtrack-needs-intersection-restore
// (set-mode matchAttribute widens again when a device is removed),
// numanode-matchattribute-*, list-attributes-distinct-constraint-
// single-request-count-3-* and -backtrack-needs-remove (distinct values are
// compared with every device in scope, and removing a device forgets only its
// values).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const Features kLists = Feat("ListTypeAttributes");
const Features kListsCC = Feat("ListTypeAttributes,ConsumableCapacity");

// Devices device-1, device-2, ... with attribute `name` set to the given
// values (flow mappings such as "{strings: [a, b]}").
std::string AttrDevices(const std::string& name, const std::vector<std::string>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    out += (i ? ", " : "") + std::string("{name: device-") + std::to_string(i + 1) +
           ", attributes: {" + name + ": " + values[i] + "}}";
  }
  return Devices("slice-1", "node-1", "pool-1", "driver-a", out);
}
std::string Count(int n, const std::string& kind, const std::string& attribute) {
  return ClaimYaml("claim-0", {Exact("req-0", "class-a", n)},
                   "{" + kind + ": driver-a/" + attribute + "}");
}
std::string Picked(std::initializer_list<int> devices) {
  std::string out = kNode1;
  for (int d : devices) out += "req-0 driver-a/pool-1/device-" + std::to_string(d) + "\n";
  return out;
}

TEST(CatalogN, ListAttributesMatchConstaintScalarStringValues) {
  Expect(AttrDevices("stringAttribute", {"{string: value1}", "{string: value1}"}) +
             Count(2, "matchAttribute", "stringAttribute"),
         Variants(kLists), Picked({1, 2}));
}

TEST(CatalogN, ListAttributesMatchConstaintListOfStringValuesWithCommonElements) {
  Expect(AttrDevices("stringAttribute", {"{strings: [value1, value2, value3]}",
                                         "{strings: [value2, value3, value4]}"}) +
             Count(2, "matchAttribute", "stringAttribute"),
         Variants(kLists), Picked({1, 2}));
}

TEST(CatalogN, ListAttributesMatchConstaintListOfStringValuesWithPartiallyCommonElements) {
  Expect(
      AttrDevices("stringAttribute", {"{strings: [value1, value2]}", "{strings: [value2, value3]}",
                                      "{strings: [value3, value1]}"}) +
          Count(3, "matchAttribute", "stringAttribute"),
      Variants(kLists), kUnschedulable);
}

// After device-2 narrows the intersection to {value1} and is removed again, it
// is {value1, value2} once more, so device-3 and device-4 fit (older upstream
// allocators kept it narrowed; fixed in this release).
TEST(CatalogN, ListAttributesMatchConstraintBacktrackNeedsIntersectionRestore) {
  Expect(AttrDevices("stringAttribute", {"{strings: [value1, value2]}", "{strings: [value1]}",
                                         "{strings: [value2]}", "{strings: [value2]}"}) +
             Count(3, "matchAttribute", "stringAttribute"),
         Variants(kLists), Picked({1, 3, 4}));
}

// Two requests with the same name, as upstream's case has them.
TEST(CatalogN, ListAttributesMatchConstaintListOfStringValuesWithoutCommonElements) {
  Expect(AttrDevices("stringAttribute",
                     {"{strings: [value1, value2]}", "{strings: [value3, value4]}"}) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1), Exact("req-0", "class-a", 1)},
                       "{matchAttribute: driver-a/stringAttribute}"),
         Variants(kLists), kUnschedulable);
}

TEST(CatalogN, ListAttributesMatchConstaintMixedScalarAndListOfStringValuesWithCommonElements) {
  Expect(AttrDevices("stringAttribute", {"{string: value1}", "{strings: [value1, value2]}"}) +
             Count(2, "matchAttribute", "stringAttribute"),
         Variants(kLists), Picked({1, 2}));
}

TEST(CatalogN,
     ListAttributesMatchConstaintMixedScalarAndListOfStringValuesWithPartiallyCommonElements) {
  Expect(AttrDevices("stringAttribute", {"{string: value1}", "{strings: [value1, value2]}",
                                         "{strings: [value2, value3]}"}) +
             Count(3, "matchAttribute", "stringAttribute"),
         Variants(kLists), kUnschedulable);
}

TEST(CatalogN, ListAttributesMatchConstaintMixedScalarAndListOfStringValuesWithoutCommonElements) {
  Expect(AttrDevices("stringAttribute", {"{string: value1}", "{strings: [value2, value3]}"}) +
             Count(2, "matchAttribute", "stringAttribute"),
         Variants(kLists), kUnschedulable);
}

TEST(CatalogN, ListAttributesMatchConstaintListOfIntValuesWithCommonElements) {
  Expect(AttrDevices("numa", {"{ints: [0, 1, 2]}", "{ints: [1, 2, 3]}"}) +
             Count(2, "matchAttribute", "numa"),
         Variants(kLists), Picked({1, 2}));
}

const std::string kNumaNode = "resource.kubernetes.io/numaNode";

TEST(CatalogN, NumanodeMatchattributeOverlappingListsAreCoPlaced) {
  Expect(AttrDevices(kNumaNode, {"{ints: [4]}", "{ints: [4, 5, 6, 7]}"}) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)},
                       "{matchAttribute: " + kNumaNode + "}"),
         Variants(kLists), Picked({1, 2}));
}

TEST(CatalogN, NumanodeMatchattributeDisjointListsAreNotAllocated) {
  Expect(AttrDevices(kNumaNode, {"{ints: [0]}", "{ints: [4, 5, 6, 7]}"}) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)},
                       "{matchAttribute: " + kNumaNode + "}"),
         Variants(kLists), kUnschedulable);
}

TEST(CatalogN, ListAttributesMatchConstaintListOfBoolValuesWithCommonElements) {
  Expect(AttrDevices("boolAttribute", {"{bools: [true, false]}", "{bools: [true]}"}) +
             Count(2, "matchAttribute", "boolAttribute"),
         Variants(kLists), Picked({1, 2}));
}

TEST(CatalogN, ListAttributesMatchConstaintListOfVersionValuesWithCommonElements) {
  Expect(AttrDevices("driverVersion",
                     {"{versions: [1.0.0, 1.1.0, 2.0.0]}", "{versions: [1.1.0, 2.0.0, 2.1.0]}"}) +
             Count(2, "matchAttribute", "driverVersion"),
         Variants(kLists), Picked({1, 2}));
}

TEST(CatalogN, ListAttributesMatchConstaintWithEmptyOrUnknownType) {
  ExpectError(AttrDevices("stringAttribute", {"{}", "{strings: []}"}) +
                  Count(2, "matchAttribute", "stringAttribute"),
              Variants(kLists), "unsupported attribute value");
}

TEST(CatalogN, ListAttributesDisabledMatchConstraintWithLists) {
  Expect(AttrDevices("stringAttribute", {"{strings: [value1, value2, value3]}",
                                         "{strings: [value2, value3, value4]}"}) +
             Count(2, "matchAttribute", "stringAttribute"),
         Variants({}), kUnschedulable);
}

TEST(CatalogN, ListAttributesDistinctConstraintScalarStringValuesAllDistinct) {
  Expect(AttrDevices("stringAttribute", {"{string: value1}", "{string: value2}"}) +
             Count(2, "distinctAttribute", "stringAttribute"),
         Variants(kListsCC), Picked({1, 2}));
}

TEST(CatalogN, ListAttributesDistinctConstraintScalarStringValuesNotDistinct) {
  Expect(AttrDevices("stringAttribute", {"{string: value1}", "{string: value1}"}) +
             Count(2, "distinctAttribute", "stringAttribute"),
         Variants(kListsCC), kUnschedulable);
}

// The third device is compared with both earlier ones, not only the last
// (fixed in this release).
TEST(CatalogN, ListAttributesDistinctConstraintSingleRequestCount3NotDistinct) {
  Expect(
      AttrDevices("stringAttribute", {"{string: value1}", "{string: value2}", "{string: value1}"}) +
          Count(3, "distinctAttribute", "stringAttribute"),
      Variants(kListsCC), kUnschedulable);
}

TEST(CatalogN, ListAttributesDistinctConstraintSingleRequestCount3AllDistinct) {
  Expect(
      AttrDevices("stringAttribute", {"{string: value1}", "{string: value2}", "{string: value3}"}) +
          Count(3, "distinctAttribute", "stringAttribute"),
      Variants(kListsCC), Picked({1, 2, 3}));
}

TEST(CatalogN, ListAttributesDistinctConstraintListOfStringValuesAllDistinct) {
  Expect(
      AttrDevices("stringAttribute", {"{strings: [value1, value2]}", "{strings: [value2, value3]}",
                                      "{strings: [value3, value4]}"}) +
          Count(2, "distinctAttribute", "stringAttribute"),
      Variants(kListsCC), Picked({1, 3}));
}

TEST(CatalogN, ListAttributesDistinctConstraintListOfStringValuesWithCommonElements) {
  Expect(AttrDevices("stringAttribute", {"{strings: [value1, value2, value3]}",
                                         "{strings: [value2, value4, value5]}"}) +
             Count(2, "distinctAttribute", "stringAttribute"),
         Variants(kListsCC), kUnschedulable);
}

TEST(CatalogN, ListAttributesDistinctConstraintMixedScalarAndListAllDistinct) {
  Expect(AttrDevices("stringAttribute", {"{string: value1}", "{strings: [value1, value2]}",
                                         "{strings: [value2, value3]}"}) +
             Count(2, "distinctAttribute", "stringAttribute"),
         Variants(kListsCC), Picked({1, 3}));
}

TEST(CatalogN, ListAttributesDistinctConstraintMixedScalarAndListWithCommonElements) {
  Expect(AttrDevices("stringAttribute", {"{string: value1}", "{strings: [value1, value2]}"}) +
             Count(2, "distinctAttribute", "stringAttribute"),
         Variants(kListsCC), kUnschedulable);
}

TEST(CatalogN, ListAttributesDistinctConstraintListOfIntValuesAllDistinct) {
  Expect(AttrDevices("numa", {"{ints: [0, 1]}", "{ints: [1, 2]}", "{ints: [2, 3]}"}) +
             Count(2, "distinctAttribute", "numa"),
         Variants(kListsCC), Picked({1, 3}));
}

TEST(CatalogN, ListAttributesDistinctConstraintListOfBoolValuesAllDistinct) {
  Expect(AttrDevices("boolAttribute",
                     {"{bools: [true]}", "{bools: [true, false]}", "{bools: [false]}"}) +
             Count(2, "distinctAttribute", "boolAttribute"),
         Variants(kListsCC), Picked({1, 3}));
}

TEST(CatalogN, ListAttributesDistinctConstraintListOfVersionValuesAllDistinct) {
  Expect(AttrDevices("driverVersion", {"{versions: [1.0.0, 1.1.0]}", "{versions: [1.1.0, 2.0.0]}",
                                       "{versions: [2.0.0, 2.1.0]}"}) +
             Count(2, "distinctAttribute", "driverVersion"),
         Variants(kListsCC), Picked({1, 3}));
}

// An empty list is a valid value; an attribute without any value is a CEL
// conversion error.
TEST(CatalogN, ListAttributesDistinctConstaintWithEmptyOrUnknownType) {
  ExpectError(AttrDevices("driverVersion", {"{versions: []}", "{}"}) +
                  Count(2, "distinctAttribute", "driverVersion"),
              Variants(kListsCC), "unsupported attribute value");
}

TEST(CatalogN, ListAttributesDisabledDistinctConstraintWithLists) {
  Expect(AttrDevices("stringAttribute", {"{strings: [value1, value2, value3]}",
                                         "{strings: [value2, value3, value4]}"}) +
             Count(2, "distinctAttribute", "stringAttribute"),
         Variants(Feat("ConsumableCapacity")), kUnschedulable);
}

// Removing a device takes exactly its values out of the distinct state (fixed
// in this release).
TEST(CatalogN, ListAttributesDistinctConstraintBacktrackNeedsRemove) {
  Expect(
      Devices(
          "slice-1", "node-1", "pool-1", "driver-a",
          "{name: device-1, attributes: {stringAttribute: {strings: [value1, value2, value3]}}}, "
          "{name: device-2, attributes: {stringAttribute: {strings: [value3, value4, value5]}}}, "
          "{name: device-3, attributes: {stringAttribute: {strings: [value1, value2]}}}, "
          "{name: device-4, attributes: {stringAttribute: {strings: [value3, value4]}}}, "
          "{name: device-0, attributes: {stringAttribute: {strings: [value5, value6]}}}") +
          ClaimYaml(
              "claim-0",
              {Exact("req-0", "class-a", 1), Exact("req-1", "class-a", 1),
               Exact("req-2", "class-a", 1)},
              "{distinctAttribute: driver-a/stringAttribute, requests: [req-0, req-1, req-2]}"),
      Variants(kListsCC),
      std::string(kNode1) +
          "req-0 driver-a/pool-1/device-3\nreq-1 driver-a/pool-1/device-4\n"
          "req-2 driver-a/pool-1/device-0\n");
}

}  // namespace
}  // namespace dra::allocator::catalog

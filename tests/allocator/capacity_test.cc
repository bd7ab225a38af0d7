// Consumable capacity (KEP-5075) on its own: what one pick consumes under a
// capacity's requestPolicy, and whether it fits next to earlier
// consumption, following calculateConsumedValue and the policy checks of
// k8s.io/dynamic-resource-allocation's structured allocator (v1.37.2):
//   no request        -> requestPolicy.default, else the whole value;
//   no policy         -> the request;
//   validRange        -> max(request, min), rounded up to min + k*step;
//   validValues       -> the smallest valid value >= the request.
#include "allocator/capacity.h"

#include <gtest/gtest.h>

#include <string>

namespace dra::allocator {
namespace {

using api::Quantity;

Quantity Q(std::string_view s) { return Quantity::MustParse(s); }

api::DeviceCapacity RangeCapacity(std::string_view value, std::string_view min,
                                  std::optional<std::string_view> step,
                                  std::optional<std::string_view> max = std::nullopt) {
  api::DeviceCapacity c;
  c.value = Q(value);
  api::CapacityRequestPolicyRange range;
  range.min = Q(min);
  if (step) range.step = Q(*step);
  if (max) range.max = Q(*max);
  c.request_policy.emplace();
  c.request_policy->valid_range = range;
  return c;
}

api::DeviceCapacity ValuesCapacity(std::string_view value,
                                   std::initializer_list<std::string_view> values) {
  api::DeviceCapacity c;
  c.value = Q(value);
  c.request_policy.emplace();
  for (std::string_view v : values) c.request_policy->valid_values.push_back(Q(v));
  return c;
}

// The consumption of `capacity` for `requested` (none when empty), compared
// by value with `want`.
void ExpectConsumes(const api::DeviceCapacity& capacity, std::string_view requested,
                    std::string_view want) {
  Quantity r = requested.empty() ? Quantity() : Q(requested);
  Result<Quantity> got = Consumption(capacity, requested.empty() ? nullptr : &r, false);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(got->Compare(Q(want)), 0)
      << "request " << requested << ": got " << got->String() << ", want " << want;
}

TEST(CapacityConsumptionTest, WithoutRequestOrPolicy) {
  api::DeviceCapacity plain;
  plain.value = Q("40Gi");
  ExpectConsumes(plain, "", "40Gi");      // the whole device
  ExpectConsumes(plain, "10Gi", "10Gi");  // exactly what is asked
  api::DeviceCapacity with_default = plain;
  with_default.request_policy.emplace();
  with_default.request_policy->default_ = Q("4Gi");
  ExpectConsumes(with_default, "", "4Gi");
  ExpectConsumes(with_default, "6Gi", "6Gi");
}

TEST(CapacityConsumptionTest, RangeRoundsUpToMinAndSteps) {
  api::DeviceCapacity c = RangeCapacity("8Gi", "1Gi", "1Gi", "8Gi");
  ExpectConsumes(c, "100Mi", "1Gi");  // below min: min
  ExpectConsumes(c, "1Gi", "1Gi");
  ExpectConsumes(c, "1537Mi", "2Gi");
  ExpectConsumes(c, "2Gi", "2Gi");
  // Steps count from min, not from zero: min 2, step 3 gives 2, 5, 8, ...
  api::DeviceCapacity odd = RangeCapacity("20", "2", "3");
  ExpectConsumes(odd, "1", "2");
  ExpectConsumes(odd, "5", "5");
  ExpectConsumes(odd, "6", "8");
  // Without a step any request from min on is taken as it is.
  api::DeviceCapacity no_step = RangeCapacity("20", "2", std::nullopt);
  ExpectConsumes(no_step, "7", "7");
  ExpectConsumes(no_step, "1", "2");
}

TEST(CapacityConsumptionTest, ValidValuesRoundUp) {
  api::DeviceCapacity c = ValuesCapacity("8Gi", {"1Gi", "4Gi", "8Gi"});
  ExpectConsumes(c, "512Mi", "1Gi");
  ExpectConsumes(c, "2Gi", "4Gi");
  ExpectConsumes(c, "8Gi", "8Gi");
  ExpectConsumes(c, "9Gi", "9Gi");  // above every valid value: unchanged
}

api::Device DeviceWith(const std::string& name, api::DeviceCapacity capacity) {
  api::Device d;
  d.capacity.emplace(name, std::move(capacity));
  return d;
}

bool Fits(const api::Device& d, const CapacityMap& requests,
          const CapacityMap* aggregated = nullptr, const CapacityMap* picking = nullptr) {
  Result<bool> r = CapacityFits(d, &requests, aggregated, picking, false);
  EXPECT_TRUE(r.ok()) << r.error();
  return r.ok() && *r;
}

TEST(CapacityFitsTest, SumsEarlierAndCurrentConsumption) {
  api::Device d = DeviceWith("memory", RangeCapacity("8Gi", "1Gi", "1Gi"));
  EXPECT_TRUE(Fits(d, {{"memory", Q("8Gi")}}));
  EXPECT_FALSE(Fits(d, {{"memory", Q("9Gi")}}));
  const CapacityMap four{{"memory", Q("4Gi")}};
  const CapacityMap two{{"memory", Q("2Gi")}};
  EXPECT_TRUE(Fits(d, four, &four));
  EXPECT_TRUE(Fits(d, two, &four, &two));
  // 1.5Gi is consumed as 2Gi: 4 + 2 + 2 = 8 fits, 4 + 2 + 3 does not.
  EXPECT_TRUE(Fits(d, {{"memory", Q("1536Mi")}}, &four, &two));
  EXPECT_FALSE(Fits(d, {{"memory", Q("2049Mi")}}, &four, &two));
}

TEST(CapacityFitsTest, PolicyViolationsAndUnknownNames) {
  // A request above the range's max does not fit, even with room left.
  api::Device ranged = DeviceWith("memory", RangeCapacity("8Gi", "1Gi", "1Gi", "4Gi"));
  EXPECT_TRUE(Fits(ranged, {{"memory", Q("4Gi")}}));
  EXPECT_FALSE(Fits(ranged, {{"memory", Q("5Gi")}}));
  // A request above every valid value is no valid value.
  api::Device valued = DeviceWith("memory", ValuesCapacity("16Gi", {"1Gi", "4Gi"}));
  EXPECT_TRUE(Fits(valued, {{"memory", Q("3Gi")}}));
  EXPECT_FALSE(Fits(valued, {{"memory", Q("5Gi")}}));
  // A capacity the device does not have.
  EXPECT_FALSE(Fits(ranged, {{"bandwidth", Q("1")}}));
}

}  // namespace
}  // namespace dra::allocator

// --feature-gates as kube-apiserver parses it (k8s.io/component-base
// featuregate: "Name=bool" pairs, unknown names and locked gates refused).
#include "dra/api/feature_gates.h"

#include <gtest/gtest.h>

namespace dra::api {
namespace {

TEST(FeatureGatesTest, DefaultsOf137) {
  FeatureGates gates;
  EXPECT_TRUE(gates.Enabled(Feature::kDRAConsumableCapacity));
  EXPECT_FALSE(gates.Enabled(Feature::kDRADerivedAttributes));
  EXPECT_FALSE(gates.Enabled(Feature::kDRAResourcePoolStatus));
  EXPECT_TRUE(gates.Enabled(Feature::kDeclarativeValidationBeta));
}

TEST(FeatureGatesTest, ApplySetsAllOrNothing) {
  FeatureGates gates;
  ASSERT_TRUE(gates.Apply("DRADerivedAttributes=true, DRAConsumableCapacity=false").ok());
  EXPECT_TRUE(gates.Enabled(Feature::kDRADerivedAttributes));
  EXPECT_FALSE(gates.Enabled(Feature::kDRAConsumableCapacity));
  EXPECT_EQ(gates.ChangedString(), "DRAConsumableCapacity=false,DRADerivedAttributes=true");

  FeatureGates untouched;
  Status s = untouched.Apply("DRADerivedAttributes=true,NoSuchGate=true");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "unrecognized feature gate: NoSuchGate");
  EXPECT_FALSE(untouched.Enabled(Feature::kDRADerivedAttributes));

  s = untouched.Apply("DRAPrioritizedList=false");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(),
            "cannot set feature gate DRAPrioritizedList to false, feature is locked to true");
}

TEST(FeatureGatesTest, DeclarativeValidationBetaOffIsRefused) {
  FeatureGates gates;
  Status s = gates.Apply("DeclarativeValidationBeta=false");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("not supported"), std::string::npos) << s.error();
  EXPECT_TRUE(gates.Apply("DeclarativeValidationBeta=true").ok());
}

}  // namespace
}  // namespace dra::api

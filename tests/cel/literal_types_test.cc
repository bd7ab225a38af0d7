// Homogeneous aggregate literals: element types must agree, but dyn is
// assignable both ways, as in cel-go's checker.
#include <gtest/gtest.h>

#include "dra/cel/program.h"

namespace dra::cel {
namespace {

TEST(LiteralTypes, DynMixesWithTypedElements) {
  EXPECT_TRUE(Compile("[dyn(1), 2].size() == 2").ok());
  EXPECT_TRUE(Compile("[1, dyn('a')].size() == 2").ok());
  EXPECT_TRUE(Compile("{'a': dyn(1), 'b': 2}.size() == 2").ok());
  EXPECT_TRUE(Compile("[[1], [dyn(2)]].size() == 2").ok());
}

TEST(LiteralTypes, DifferentConcreteTypesAreRejected) {
  Compilation c = Compile("[1, 'a'].size() == 2");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error.detail.find("expected type 'int' but found 'string'"), std::string::npos)
      << c.error.detail;
  EXPECT_FALSE(Compile("{'a': 1, 'b': true}.size() == 2").ok());
}

}  // namespace
}  // namespace dra::cel

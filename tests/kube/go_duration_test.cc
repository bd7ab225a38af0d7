// FormatGoDuration against Go's time.Duration.String: the durationTests
// table of Go's src/time/time_test.go, restricted to whole milliseconds.
#include "kube/go_duration.h"

#include <gtest/gtest.h>

#include <chrono>

namespace dra::kube {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

TEST(GoDurationTest, GoDurationTestsTable) {
  EXPECT_EQ(FormatGoDuration(milliseconds(0)), "0s");
  EXPECT_EQ(FormatGoDuration(milliseconds(3300)), "3.3s");
  EXPECT_EQ(FormatGoDuration(minutes(4) + seconds(5)), "4m5s");
  EXPECT_EQ(FormatGoDuration(minutes(4) + milliseconds(5001)), "4m5.001s");
  EXPECT_EQ(FormatGoDuration(hours(5) + minutes(6) + milliseconds(7001)), "5h6m7.001s");
}

// Below one second Go switches to the millisecond unit; from one second on,
// the fraction of a second follows "s" with trailing zeros dropped.
TEST(GoDurationTest, SubSecondAndFractions) {
  EXPECT_EQ(FormatGoDuration(milliseconds(1)), "1ms");
  EXPECT_EQ(FormatGoDuration(milliseconds(500)), "500ms");
  EXPECT_EQ(FormatGoDuration(milliseconds(999)), "999ms");
  EXPECT_EQ(FormatGoDuration(milliseconds(1000)), "1s");
  EXPECT_EQ(FormatGoDuration(milliseconds(1500)), "1.5s");
  EXPECT_EQ(FormatGoDuration(milliseconds(1050)), "1.05s");
  EXPECT_EQ(FormatGoDuration(milliseconds(1001)), "1.001s");
}

// Once a larger unit appears, every smaller one is written, zero or not
// (time.Hour.String() is "1h0m0s", time.Minute.String() is "1m0s").
TEST(GoDurationTest, LargerUnitsWriteTheSmallerOnes) {
  EXPECT_EQ(FormatGoDuration(seconds(30)), "30s");
  EXPECT_EQ(FormatGoDuration(minutes(1)), "1m0s");
  EXPECT_EQ(FormatGoDuration(minutes(5)), "5m0s");
  EXPECT_EQ(FormatGoDuration(hours(1)), "1h0m0s");
  EXPECT_EQ(FormatGoDuration(hours(1) + seconds(1)), "1h0m1s");
  EXPECT_EQ(FormatGoDuration(hours(100)), "100h0m0s");
}

// A negative duration is the positive one with a leading "-".
TEST(GoDurationTest, Negative) {
  EXPECT_EQ(FormatGoDuration(milliseconds(-500)), "-500ms");
  EXPECT_EQ(FormatGoDuration(milliseconds(-3300)), "-3.3s");
  EXPECT_EQ(FormatGoDuration(-(hours(1) + minutes(30))), "-1h30m0s");
}

}  // namespace
}  // namespace dra::kube

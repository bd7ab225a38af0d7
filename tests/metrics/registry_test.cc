// The Prometheus text format of Registry::Expose, checked against the format's
// rules (prometheus/docs exposition_formats.md, text format 0.0.4): HELP and
// TYPE lines, label escaping, cumulative histogram buckets with +Inf, _sum
// and _count. promtool checks the same output in tests/cluster/driver_test.sh.
#include "dra/metrics/registry.h"

#include <gtest/gtest.h>

#include <thread>

namespace dra::metrics {
namespace {

TEST(Registry, CountersAndGaugesWithLabels) {
  Registry r;
  Family& ops = r.Counter("dra_ops_total", "Operations done", {"operation", "result"});
  ops.Add({"prepare", "success"});
  ops.Add({"prepare", "success"}, 2);
  ops.Add({"prepare", "error"});
  ops.Add({"prepare", "error"}, -5);  // counters never go down
  r.Gauge("dra_up", "Whether it runs").Set({}, 1);
  EXPECT_EQ(r.Expose(),
            "# HELP dra_ops_total Operations done\n"
            "# TYPE dra_ops_total counter\n"
            "dra_ops_total{operation=\"prepare\",result=\"error\"} 1\n"
            "dra_ops_total{operation=\"prepare\",result=\"success\"} 3\n"
            "# HELP dra_up Whether it runs\n"
            "# TYPE dra_up gauge\n"
            "dra_up 1\n");
  EXPECT_EQ(ops.Value({"prepare", "success"}), 3);
  EXPECT_EQ(&r.Counter("dra_ops_total", "ignored"), &ops);
}

TEST(Registry, EscapesLabelValuesAndHelp) {
  Registry r;
  r.Gauge("g", "line one\nback\\slash", {"l"}).Set({"a\"b\\c\nd"}, 0.25);
  EXPECT_EQ(r.Expose(),
            "# HELP g line one\\nback\\\\slash\n"
            "# TYPE g gauge\n"
            "g{l=\"a\\\"b\\\\c\\nd\"} 0.25\n");
}

TEST(Registry, HistogramBucketsAreCumulative) {
  Registry r;
  Family& h = r.Histogram("d_seconds", "Durations", {"op"}, {0.1, 1});
  h.Observe({"x"}, 0.05);
  h.Observe({"x"}, 0.1);  // an observation equal to a bound counts in it
  h.Observe({"x"}, 0.5);
  h.Observe({"x"}, 7);
  EXPECT_EQ(r.Expose(),
            "# HELP d_seconds Durations\n"
            "# TYPE d_seconds histogram\n"
            "d_seconds_bucket{op=\"x\",le=\"0.1\"} 2\n"
            "d_seconds_bucket{op=\"x\",le=\"1\"} 3\n"
            "d_seconds_bucket{op=\"x\",le=\"+Inf\"} 4\n"
            "d_seconds_sum{op=\"x\"} 7.65\n"
            "d_seconds_count{op=\"x\"} 4\n");
}

TEST(Registry, CollectorsRunBeforeEachExposeAndClearDropsSeries) {
  Registry r;
  Family& g = r.Gauge("pools", "Devices per pool", {"pool"});
  int round = 0;
  r.AddCollector([&] {
    g.Clear();
    ++round;
    g.Set({"pool-" + std::to_string(round)}, round);
  });
  EXPECT_NE(r.Expose().find("pools{pool=\"pool-1\"} 1\n"), std::string::npos);
  std::string second = r.Expose();
  EXPECT_EQ(second.find("pool-1"), std::string::npos);
  EXPECT_NE(second.find("pools{pool=\"pool-2\"} 2\n"), std::string::npos);
}

TEST(Registry, ReleaseRunsAfterTheTextIsWritten) {
  Registry r;
  Family& g = r.Gauge("pods", "Pods", {"pod"});
  int collected = 0;
  r.AddCollector([&] { g.Set({"p" + std::to_string(++collected)}, 1); }, [&] { g.Clear(); });
  EXPECT_NE(r.Expose().find("pods{pod=\"p1\"} 1\n"), std::string::npos);
  EXPECT_EQ(g.Value({"p1"}), 0);  // released once written
  std::string second = r.Expose();
  EXPECT_EQ(second.find("p1"), std::string::npos);
  EXPECT_NE(second.find("pods{pod=\"p2\"} 1\n"), std::string::npos);
}

TEST(Registry, WrittenFamiliesAreWrittenAtEachExposeInNameOrder) {
  Registry r;
  r.Gauge("b_stored", "Stored").Set({}, 1);
  int writes = 0;
  r.Written("a_written", "Written \\ help", Type::kGauge, {"pod", "node"}, [&](SampleWriter& w) {
    ++writes;
    w.Write({"p\"1\"", "n\\1\n"}, 2);
    w.Write({"p2", ""}, 0.5);
  });
  r.Written("c_total", "Counted", Type::kCounter, {}, [](SampleWriter& w) { w.Write({}, 3); });
  EXPECT_EQ(r.Expose(),
            "# HELP a_written Written \\\\ help\n"
            "# TYPE a_written gauge\n"
            "a_written{pod=\"p\\\"1\\\"\",node=\"n\\\\1\\n\"} 2\n"
            "a_written{pod=\"p2\",node=\"\"} 0.5\n"
            "# HELP b_stored Stored\n"
            "# TYPE b_stored gauge\n"
            "b_stored 1\n"
            "# HELP c_total Counted\n"
            "# TYPE c_total counter\n"
            "c_total 3\n");
  (void)r.Expose();
  EXPECT_EQ(writes, 2);
  EXPECT_THROW(r.Written("h", "x", Type::kHistogram, {}, [](SampleWriter&) {}),
               std::invalid_argument);
}

TEST(Registry, ExposeToASinkGivesTheSameTextInPieces) {
  Registry r;
  r.Counter("a_total", "A", {"x"}).Add({"1"});
  r.Histogram("b_seconds", "B").Observe({}, 0.3);
  for (int i = 0; i < 300; ++i) r.Gauge("c_stored", "C", {"i"}).Set({std::to_string(i)}, i);
  r.Written("d_written", "D", Type::kGauge, {"pod"}, [](SampleWriter& w) {
    for (int i = 0; i < 20000; ++i) w.Write({"pod-" + std::to_string(i)}, i);
  });
  std::vector<std::string> pieces;
  r.Expose([&](std::string_view piece) { pieces.emplace_back(piece); });
  std::string joined;
  for (const std::string& p : pieces) {
    joined += p;
    EXPECT_LE(p.size(), 64u * 1024 + 256);  // a piece, plus the line that passed it
    EXPECT_FALSE(p.empty());
  }
  EXPECT_GT(pieces.size(), 5u);
  EXPECT_EQ(joined, r.Expose());
}

TEST(Registry, BadNamesAreProgrammingErrors) {
  Registry r;
  EXPECT_THROW(r.Counter("1abc", "x"), std::invalid_argument);
  EXPECT_THROW(r.Counter("a-b", "x"), std::invalid_argument);
  EXPECT_THROW(r.Gauge("ok", "x", {"le"}), std::invalid_argument);
  EXPECT_THROW(r.Gauge("ok2", "x", {"a:b"}), std::invalid_argument);
  EXPECT_NO_THROW(r.Gauge("ns:sub_name", "x", {"_l1"}));
}

TEST(Registry, ConcurrentUpdatesAreAllCounted) {
  Registry r;
  Family& c = r.Counter("n_total", "n", {"t"});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) c.Add({"x"});
    });
  }
  for (int i = 0; i < 20; ++i) (void)r.Expose();
  for (auto& t : threads) t.join();
  EXPECT_EQ(c.Value({"x"}), 40000);
}

}  // namespace
}  // namespace dra::metrics

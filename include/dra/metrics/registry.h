// Prometheus metrics: counters, gauges and histograms with labels, exposed in
// the Prometheus text format (version 0.0.4), for the driver SDK's and
// `dra serve`'s /metrics endpoints.
//
//   metrics::Registry registry;
//   metrics::Family& prepares = registry.Counter(
//       "dra_driver_prepare_requests_total", "NodePrepareResources calls", {"result"});
//   prepares.Add({"success"});
//   std::string text = registry.Expose();
//
// Thread-safety: every method of Registry and Family may be called from any
// thread at any time. A Family reference stays valid as long as its Registry.
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dra/util/mutex.h"

namespace dra::metrics {

enum class Type { kCounter, kGauge, kHistogram };

// Appends the samples of a written family (Registry::Written) to the text.
class SampleWriter {
 public:
  // One sample; `values` in the order of the family's label names. The
  // caller writes each series once.
  void Write(std::initializer_list<std::string_view> values, double v);

 private:
  friend class Family;
  SampleWriter(std::string& out, const std::string& name, const std::vector<std::string>& labels,
               const std::function<void(std::string&)>* spill)
      : out_(out), name_(name), labels_(labels), spill_(spill) {}
  std::string& out_;
  const std::string& name_;
  const std::vector<std::string>& labels_;
  const std::function<void(std::string&)>* spill_;  // Registry::Expose(sink)'s; may be null
};

// Writes a written family's samples; called with no lock of the family held.
using WriteSamples = std::function<void(SampleWriter&)>;

// The default buckets of a latency histogram in seconds (client_golang's
// DefBuckets).
std::vector<double> DefaultBuckets();

// One metric family: a name, a type and its series, one per set of label
// values (given in the order of the family's label names).
class Family {
 public:
  Family(std::string name, std::string help, Type type, std::vector<std::string> labels,
         std::vector<double> buckets, WriteSamples write = {});

  // Counter or gauge: adds `v` (a counter ignores negative v).
  void Add(const std::vector<std::string>& values, double v = 1);
  // Gauge: sets the series.
  void Set(const std::vector<std::string>& values, double v);
  // Histogram: counts one observation.
  void Observe(const std::vector<std::string>& values, double v);
  // Drops every series (for gauges recomputed by a collector).
  void Clear();
  // The value of a counter or gauge series; 0 when it does not exist.
  double Value(const std::vector<std::string>& values) const;

  // Appends the family's HELP, TYPE and sample lines to `out`; with
  // `spill`, hands `out` to it whenever it has grown long (spill empties it).
  void Expose(std::string& out, const std::function<void(std::string&)>* spill = nullptr) const;

  const std::string& name() const { return name_; }

 private:
  struct Series {
    double value = 0;                   // counter, gauge; histogram: the sum
    std::vector<std::uint64_t> counts;  // histogram: per bucket, not cumulative
    std::uint64_t count = 0;            // histogram
  };

  Series& At(const std::vector<std::string>& values) DRA_REQUIRES(mu_);

  const std::string name_;
  const std::string help_;
  const Type type_;
  const std::vector<std::string> labels_;
  const std::vector<double> buckets_;  // upper bounds, ascending, without +Inf
  const WriteSamples write_;           // a written family: its samples, instead of series_
  mutable Mutex mu_;
  std::map<std::vector<std::string>, Series> series_ DRA_GUARDED_BY(mu_);
};

class Registry {
 public:
  // A family is created on first use of its name; asking again for the same
  // name returns the same family (its type, help and labels are the first
  // call's). Names and label names must match [a-zA-Z_:][a-zA-Z0-9_:]*
  // (label names without ':'); a bad name is a programming error (throws
  // std::invalid_argument).
  Family& Counter(const std::string& name, const std::string& help,
                  std::vector<std::string> labels = {});
  Family& Gauge(const std::string& name, const std::string& help,
                std::vector<std::string> labels = {});
  Family& Histogram(const std::string& name, const std::string& help,
                    std::vector<std::string> labels = {},
                    std::vector<double> buckets = DefaultBuckets());

  // A counter or gauge whose samples `write` appends at each Expose, after
  // the collectors: for large families recomputed from a snapshot, which
  // then are neither stored nor sorted between expositions. Its series must
  // not be set through the Family.
  Family& Written(const std::string& name, const std::string& help, Type type,
                  std::vector<std::string> labels, WriteSamples write);

  // Runs before each Expose, e.g. to recompute gauges from current state.
  // Collectors run one at a time, in the order added, and no other Expose
  // runs from the first collector until the text is written.
  void AddCollector(std::function<void()> collect);
  // Also runs `release` after each Expose has written its text, under the
  // same exclusion, e.g. to clear series that are refilled by `collect`
  // each time and need not be held in between.
  void AddCollector(std::function<void()> collect, std::function<void()> release);

  // Every family, sorted by name, in the text format.
  std::string Expose();
  // The same text given to `sink` in pieces of about 64 KiB as it is
  // written, so that it is never held whole (4.6 MB for dra serve on 5,000
  // nodes). `sink` runs while collectors are excluded: it must not call
  // Expose.
  void Expose(const std::function<void(std::string_view)>& sink);

 private:
  // The text into `out`, handed to `spill` as it grows when given; both
  // Expose forms.
  void Write(std::string& out, const std::function<void(std::string&)>* spill);
  Family& Get(const std::string& name, const std::string& help, Type type,
              std::vector<std::string> labels, std::vector<double> buckets,
              WriteSamples write = {});

  Mutex mu_;
  std::map<std::string, std::unique_ptr<Family>> families_ DRA_GUARDED_BY(mu_);
  Mutex collect_mu_;  // held through each Expose, collectors included
  std::vector<std::function<void()>> collectors_ DRA_GUARDED_BY(collect_mu_);
  std::vector<std::function<void()>> releasers_ DRA_GUARDED_BY(collect_mu_);
  std::size_t last_size_ DRA_GUARDED_BY(collect_mu_) = 0;  // of the last text
};

// The Content-Type of Expose's text.
inline constexpr const char* kTextContentType = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace dra::metrics

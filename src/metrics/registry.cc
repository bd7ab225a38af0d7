// Metric families and the Prometheus text exposition format.
#include "dra/metrics/registry.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace dra::metrics {
namespace {

// Registry::Expose(sink) hands the text over in pieces of about this size.
constexpr std::size_t kSpillBytes = 64 * 1024;

bool ValidName(const std::string& name, bool allow_colon) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool letter =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (allow_colon && c == ':');
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

// Sample values: Go's shortest representation, +Inf, -Inf and NaN as the
// format spells them.
void AppendNumber(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "NaN";
  } else if (std::isinf(v)) {
    out += v > 0 ? "+Inf" : "-Inf";
  } else {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, ec == std::errc() ? end : buf);
  }
}

// HELP text escapes backslash and newline; label values also escape '"'.
void AppendEscaped(std::string& out, std::string_view text, bool quote) {
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (quote && c == '"') {
      out += "\\\"";
    } else {
      out += c;
    }
  }
}

void AppendLabels(std::string& out, const std::vector<std::string>& names,
                  const std::vector<std::string>& values, const std::string* le) {
  if (names.empty() && le == nullptr) return;
  out += '{';
  bool first = true;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!first) out += ',';
    first = false;
    out += names[i];
    out += "=\"";
    AppendEscaped(out, i < values.size() ? values[i] : std::string(), true);
    out += '"';
  }
  if (le != nullptr) {
    if (!first) out += ',';
    out += "le=\"" + *le + "\"";
  }
  out += '}';
}

}  // namespace

std::vector<double> DefaultBuckets() {
  return {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
}

Family::Family(std::string name, std::string help, Type type, std::vector<std::string> labels,
               std::vector<double> buckets, WriteSamples write)
    : name_(std::move(name)),
      help_(std::move(help)),
      type_(type),
      labels_(std::move(labels)),
      buckets_(std::move(buckets)),
      write_(std::move(write)) {}

void SampleWriter::Write(std::initializer_list<std::string_view> values, double v) {
  out_ += name_;
  if (!labels_.empty()) {
    out_ += '{';
    auto value = values.begin();
    for (std::size_t i = 0; i < labels_.size(); ++i) {
      if (i > 0) out_ += ',';
      out_ += labels_[i];
      out_ += "=\"";
      if (value != values.end()) AppendEscaped(out_, *value++, true);
      out_ += '"';
    }
    out_ += '}';
  }
  out_ += ' ';
  AppendNumber(out_, v);
  out_ += '\n';
  if (spill_ != nullptr && out_.size() >= kSpillBytes) (*spill_)(out_);
}

Family::Series& Family::At(const std::vector<std::string>& values) {
  Series& s = series_[values];
  if (type_ == Type::kHistogram && s.counts.empty()) s.counts.assign(buckets_.size(), 0);
  return s;
}

void Family::Add(const std::vector<std::string>& values, double v) {
  if (type_ == Type::kCounter && v < 0) return;
  MutexLock lock(mu_);
  At(values).value += v;
}

void Family::Set(const std::vector<std::string>& values, double v) {
  MutexLock lock(mu_);
  At(values).value = v;
}

void Family::Observe(const std::vector<std::string>& values, double v) {
  MutexLock lock(mu_);
  Series& s = At(values);
  s.value += v;
  ++s.count;
  auto it = std::lower_bound(buckets_.begin(), buckets_.end(), v);
  if (it != buckets_.end()) ++s.counts[static_cast<std::size_t>(it - buckets_.begin())];
}

void Family::Clear() {
  MutexLock lock(mu_);
  series_.clear();
}

double Family::Value(const std::vector<std::string>& values) const {
  MutexLock lock(mu_);
  auto it = series_.find(values);
  return it == series_.end() ? 0 : it->second.value;
}

void Family::Expose(std::string& out, const std::function<void(std::string&)>* spill) const {
  static constexpr const char* kTypeNames[] = {"counter", "gauge", "histogram"};
  out += "# HELP " + name_ + " ";
  AppendEscaped(out, help_, false);
  out += "\n# TYPE " + name_ + " " + kTypeNames[static_cast<int>(type_)] + "\n";
  if (write_) {
    SampleWriter writer(out, name_, labels_, spill);
    write_(writer);
    return;
  }
  MutexLock lock(mu_);
  for (const auto& [values, s] : series_) {
    if (spill != nullptr && out.size() >= kSpillBytes) (*spill)(out);
    if (type_ != Type::kHistogram) {
      out += name_;
      AppendLabels(out, labels_, values, nullptr);
      out += ' ';
      AppendNumber(out, s.value);
      out += '\n';
      continue;
    }
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i <= buckets_.size(); ++i) {
      std::string le = "+Inf";
      if (i < buckets_.size()) {
        cumulative += s.counts[i];
        le.clear();
        AppendNumber(le, buckets_[i]);
      }
      out += name_ + "_bucket";
      AppendLabels(out, labels_, values, &le);
      out += ' ' + std::to_string(i < buckets_.size() ? cumulative : s.count) + '\n';
    }
    out += name_ + "_sum";
    AppendLabels(out, labels_, values, nullptr);
    out += ' ';
    AppendNumber(out, s.value);
    out += '\n' + name_ + "_count";
    AppendLabels(out, labels_, values, nullptr);
    out += ' ' + std::to_string(s.count) + '\n';
  }
}

Family& Registry::Get(const std::string& name, const std::string& help, Type type,
                      std::vector<std::string> labels, std::vector<double> buckets,
                      WriteSamples write) {
  if (!ValidName(name, true)) throw std::invalid_argument("metric name " + name);
  for (const auto& l : labels) {
    if (!ValidName(l, false) || l == "le") throw std::invalid_argument("label name " + l);
  }
  std::sort(buckets.begin(), buckets.end());
  MutexLock lock(mu_);
  auto& slot = families_[name];
  if (!slot) {
    slot = std::make_unique<Family>(name, help, type, std::move(labels), std::move(buckets),
                                    std::move(write));
  }
  return *slot;
}

Family& Registry::Counter(const std::string& name, const std::string& help,
                          std::vector<std::string> labels) {
  return Get(name, help, Type::kCounter, std::move(labels), {});
}

Family& Registry::Gauge(const std::string& name, const std::string& help,
                        std::vector<std::string> labels) {
  return Get(name, help, Type::kGauge, std::move(labels), {});
}

Family& Registry::Histogram(const std::string& name, const std::string& help,
                            std::vector<std::string> labels, std::vector<double> buckets) {
  return Get(name, help, Type::kHistogram, std::move(labels), std::move(buckets));
}

Family& Registry::Written(const std::string& name, const std::string& help, Type type,
                          std::vector<std::string> labels, WriteSamples write) {
  if (type == Type::kHistogram) throw std::invalid_argument("written histogram " + name);
  return Get(name, help, type, std::move(labels), {}, std::move(write));
}

void Registry::AddCollector(std::function<void()> collect) {
  MutexLock lock(collect_mu_);
  collectors_.push_back(std::move(collect));
}

void Registry::AddCollector(std::function<void()> collect, std::function<void()> release) {
  MutexLock lock(collect_mu_);
  collectors_.push_back(std::move(collect));
  releasers_.push_back(std::move(release));
}

void Registry::Expose(const std::function<void(std::string_view)>& sink) {
  std::string out;
  out.reserve(kSpillBytes + kSpillBytes / 4);
  const std::function<void(std::string&)> spill = [&sink](std::string& text) {
    sink(text);
    text.clear();
  };
  Write(out, &spill);
}

std::string Registry::Expose() {
  std::string out;
  Write(out, nullptr);
  return out;
}

void Registry::Write(std::string& out, const std::function<void(std::string&)>* spill) {
  // Held until the text is written: a collector that clears and refills its
  // families must not run while another exposition reads them.
  MutexLock collecting(collect_mu_);
  for (auto& c : collectors_) c();
  std::vector<const Family*> families;
  {
    MutexLock lock(mu_);
    for (const auto& [name, f] : families_) families.push_back(f.get());
  }
  // A whole text is sized as the last one, so that a large one is one
  // allocation rather than a chain of doublings.
  if (spill == nullptr) out.reserve(last_size_ + last_size_ / 8);
  for (const Family* f : families) f->Expose(out, spill);
  if (spill != nullptr && !out.empty()) (*spill)(out);
  for (auto& r : releasers_) r();
  if (spill == nullptr) last_size_ = out.size();
}

}  // namespace dra::metrics

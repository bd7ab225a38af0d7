#include "kube/go_duration.h"

#include <cstdint>
#include <string>

namespace dra::kube {
namespace {

// "1.5" from 1500 thousandths: trailing zeros of the fraction dropped.
std::string WithFraction(std::int64_t whole, std::int64_t thousandths) {
  std::string out = std::to_string(whole);
  if (thousandths == 0) return out;
  std::string frac = std::to_string(1000 + thousandths).substr(1);
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return out + "." + frac;
}

}  // namespace

std::string FormatGoDuration(std::chrono::milliseconds d) {
  std::int64_t ms = d.count();
  if (ms == 0) return "0s";
  std::string sign;
  if (ms < 0) {
    sign = "-";
    ms = -ms;
  }
  if (ms < 1000) return sign + std::to_string(ms) + "ms";
  std::int64_t total_seconds = ms / 1000;
  std::int64_t frac = ms % 1000;
  std::int64_t hours = total_seconds / 3600;
  std::int64_t minutes = (total_seconds / 60) % 60;
  std::int64_t seconds = total_seconds % 60;
  std::string out = sign;
  if (hours > 0) out += std::to_string(hours) + "h";
  if (hours > 0 || minutes > 0) out += std::to_string(minutes) + "m";
  out += WithFraction(seconds, frac) + "s";
  return out;
}

}  // namespace dra::kube

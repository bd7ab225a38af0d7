#include "driver/example/health_control.h"

#include <cctype>
#include <sstream>
#include <vector>

namespace dra::driver::example {
namespace {

// A Kubernetes label value, which is what a taint value must be.
bool IsLabelValue(std::string_view v) {
  if (v.empty() || v.size() > 63) return false;
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (!alnum(v.front()) || !alnum(v.back())) return false;
  for (char c : v) {
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

}  // namespace

Result<std::map<std::string, std::string>> ParseHealthControl(std::string_view text,
                                                              const std::set<std::string>& gpus) {
  std::map<std::string, std::string> unhealthy;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (std::size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.empty()) continue;
    std::string where = "line " + std::to_string(number) + ": ";
    if (!gpus.contains(w[0])) return Error{where + "unknown GPU \"" + w[0] + "\""};
    if (w.size() >= 2 && w[1] == "healthy" && w.size() == 2) {
      unhealthy.erase(w[0]);
    } else if (w.size() >= 2 && w[1] == "unhealthy" && w.size() <= 3) {
      std::string reason = w.size() == 3 ? w[2] : "unhealthy";
      if (!IsLabelValue(reason)) {
        std::string message = where;
        message += "reason \"";
        message += reason;
        return Error{message +
                     "\" is not a label value (at most 63 letters, digits, '-', '_', '.', "
                     "starting and ending with a letter or digit)"};
      }
      unhealthy[w[0]] = reason;
    } else {
      return Error{where + "want \"<gpu> healthy\" or \"<gpu> unhealthy [<reason>]\""};
    }
  }
  return unhealthy;
}

}  // namespace dra::driver::example

#include "cel/quantity_form.h"

#include <cstdlib>
#include <string>

namespace dra::cel {

QuantityForm QuantityFormOfText(std::string_view s) {
  std::size_t pos = 0;
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) ++pos;
  std::size_t int_digits = 0, frac_digits = 0;
  bool leading = true;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
    if (s[pos] != '0' || !leading) {
      leading = false;
      ++int_digits;
    }
    ++pos;
  }
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++frac_digits, ++pos;
  }
  std::string_view suffix = s.substr(pos);
  int binary_exponent = -1;
  if (suffix.size() == 2 && suffix[1] == 'i') {
    switch (suffix[0]) {
      case 'K':
        binary_exponent = 10;
        break;
      case 'M':
        binary_exponent = 20;
        break;
      case 'G':
        binary_exponent = 30;
        break;
      case 'T':
        binary_exponent = 40;
        break;
      case 'P':
        binary_exponent = 50;
        break;
      case 'E':
        binary_exponent = 60;
        break;
      default:
        break;
    }
  }
  if (binary_exponent >= 0) {
    if (frac_digits > 0) return kQuantityFormDecimal;
    std::size_t digits = int_digits == 0 ? 1 : int_digits;
    return digits + static_cast<std::size_t>(binary_exponent * 3 / 10) <= 14 ? kQuantityFormFast
                                                                             : kQuantityFormDecimal;
  }
  int exponent = 0;
  if (suffix.empty()) {
    exponent = 0;
  } else if (suffix[0] == 'e' || suffix[0] == 'E') {
    exponent = std::atoi(std::string(suffix.substr(1)).c_str());
  } else {
    static constexpr struct {
      std::string_view suffix;
      int exponent;
    } kDecimal[] = {{"n", -9}, {"u", -6}, {"m", -3}, {"k", 3}, {"M", 6},
                    {"G", 9},  {"T", 12}, {"P", 15}, {"E", 18}};
    for (const auto& d : kDecimal) {
      if (d.suffix == suffix) exponent = d.exponent;
    }
  }
  int scale = exponent - static_cast<int>(frac_digits);
  if (int_digits + frac_digits <= 18 && scale >= -9) return kQuantityFormFast;
  return kQuantityFormDecimal;
}

}  // namespace dra::cel

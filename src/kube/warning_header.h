// RFC 7234 Warning headers as kube-apiserver sends them
// (`299 - "text"`, several per header separated by commas, an optional quoted
// date after the text), parsed as client-go's rest/warnings.go does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dra::kube {

// The texts of the code-299 warnings in one header value, unescaped; other
// codes, empty texts and malformed entries are skipped (client-go logs and
// skips them); a text that is not valid UTF-8 or holds control characters
// ends the parse, as in apimachinery.
std::vector<std::string> ParseWarningHeader(std::string_view value);

}  // namespace dra::kube

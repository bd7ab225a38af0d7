// The dashboard's files (src/cli/serve/assets/), compiled into the binary so
// that the page needs nothing but dra itself.
#pragma once

#include <string_view>
#include <vector>

namespace dra::cli::serve {

struct Asset {
  std::string_view path;  // "/", "/app.js", ...
  std::string_view content_type;
  std::string_view body;
};

const std::vector<Asset>& DashboardAssets();

}  // namespace dra::cli::serve

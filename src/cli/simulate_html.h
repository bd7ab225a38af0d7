// `dra simulate -o html` (docs/SIMULATE.md): the report as one self-contained
// page, drawn server-side in the visual language of the `dra serve`
// dashboard, whose stylesheet (src/cli/serve/assets/app.css) it inlines. No
// scripts and no references to anything outside the page.
#pragma once

#include <string>

#include "scheduler/simulation_report.h"

namespace dra::cli {

std::string SimulationHtml(const scheduler::SimulationReport& report);

}  // namespace dra::cli

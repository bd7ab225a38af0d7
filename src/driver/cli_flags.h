// The driver flags of dra/driver/flags.h bound to a CLI11 app, for programs
// that have a CLI11 command tree already (the `dra driver` subcommands).
// Driver programs of their own use DriverCommandLine, which keeps CLI11 out
// of the public API.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "dra/driver/flags.h"

namespace dra::driver {

// Adds PluginFlags' flags to `app`, bound to `flags`. `default_driver_name`
// pre-fills --driver-name (empty = the flag is required).
void AddPluginFlags(CLI::App& app, PluginFlags& flags, const std::string& default_driver_name = "");

// Adds ControllerFlags' flags to `app`, bound to `flags`.
void AddControllerFlags(CLI::App& app, ControllerFlags& flags);

}  // namespace dra::driver

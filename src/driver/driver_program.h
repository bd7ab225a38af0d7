// What the `dra driver <name>` programs of the built-in extensions share:
// parsing with CLI11, the serving-flag checks and --print-slices.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dra/driver/driver.h"
#include "dra/driver/flags.h"
#include "dra/driver/plugin.h"

namespace dra::driver {

// Parses argv with `app`: std::nullopt to go on, else the exit status (0
// after --help, 2 for flags that cannot be used, with the error on stderr).
std::optional<int> ParseProgramArgs(CLI::App& app, int argc, char** argv);

// Parses a DriverConfig's args (DriverExtension::Create) with `app`; an
// error names the flag.
Status ParseConfigArgs(CLI::App& app, const std::vector<std::string>& args);

// --node-name is needed to serve, not to print slices, so the parser does
// not require it and CheckServingFlags checks it before serving. Without
// --claims the driver runs against the Kubernetes API (flags.h).
void RelaxServingFlags(CLI::App& app);
int CheckServingFlags(const PluginFlags& flags);

// The node name for --print-slices when neither --node-name nor NODE_NAME
// gave one: this host's name.
void DefaultNodeName(PluginOptions& options);

// --print-slices: the slices the driver would publish, as YAML on stdout,
// without sockets, checkpoint or CDI files. Returns the exit status.
int PrintSlices(Driver& driver, const PluginOptions& options);

// A driver is a long-running node agent whose gRPC and HTTP threads each
// get a glibc malloc arena of their own by default (up to eight per core),
// which keeps freed memory resident per thread. Two arenas are plenty for
// its allocation rate and cut its resident memory by about a quarter
// (docs/PERFORMANCE.md). MALLOC_ARENA_MAX, when set, still decides. Must
// run before the first thread starts.
void LimitMallocArenas();

}  // namespace dra::driver

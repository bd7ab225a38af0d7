// The dra program's subcommands. Each registers itself on the CLI11 app and
// returns the process exit status through `exit_code` when run.
#pragma once

#include <CLI/CLI.hpp>

namespace dra::cli {

void AddValidateCommand(CLI::App& app, int& exit_code);
void AddConvertCommand(CLI::App& app, int& exit_code);
void AddCelCommand(CLI::App& app, int& exit_code);
void AddAllocateCommand(CLI::App& app, int& exit_code);
void AddDriverCommand(CLI::App& app, int& exit_code);
void AddGenCommand(CLI::App& app, int& exit_code);
void AddSimulateCommand(CLI::App& app, int& exit_code);
void AddGetCommand(CLI::App& app, int& exit_code);
void AddExplainCommand(CLI::App& app, int& exit_code);
void AddSnapshotCommand(CLI::App& app, int& exit_code);
void AddServeCommand(CLI::App& app, int& exit_code);
// `dra gen workload`, registered on the `gen` subcommand by AddGenCommand.
void AddGenWorkloadCommand(CLI::App& gen, int& exit_code);
// `dra gen cluster`, likewise.
void AddGenClusterCommand(CLI::App& gen, int& exit_code);

}  // namespace dra::cli

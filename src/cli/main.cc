// dra: Kubernetes Dynamic Resource Allocation tools in one program.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string_view>

#include "cli/commands.h"

int main(int argc, char** argv) {
  // Installed (or linked) as kubectl-dra, the same program is a kubectl
  // plugin: `kubectl dra explain pod p` runs `kubectl-dra explain pod p`.
  std::string_view self = argc > 0 ? argv[0] : "dra";
  if (auto slash = self.rfind('/'); slash != std::string_view::npos) self.remove_prefix(slash + 1);
  const bool plugin = self == "kubectl-dra";
  CLI::App app{"dra: Kubernetes Dynamic Resource Allocation, in C++",
               plugin ? "kubectl dra" : "dra"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "dra 0.1.0 (resource.k8s.io v1, Kubernetes 1.37)");
  int exit_code = 0;
  dra::cli::AddValidateCommand(app, exit_code);
  dra::cli::AddConvertCommand(app, exit_code);
  dra::cli::AddCelCommand(app, exit_code);
  dra::cli::AddAllocateCommand(app, exit_code);
  dra::cli::AddDriverCommand(app, exit_code);
  dra::cli::AddGenCommand(app, exit_code);
  dra::cli::AddSimulateCommand(app, exit_code);
  dra::cli::AddGetCommand(app, exit_code);
  dra::cli::AddExplainCommand(app, exit_code);
  dra::cli::AddSnapshotCommand(app, exit_code);
  dra::cli::AddServeCommand(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    // Usage errors are "input that cannot be read": status 2.
    return rc == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    std::cerr << "dra: internal error: " << e.what() << "\n";
    return 3;
  }
  return exit_code;
}

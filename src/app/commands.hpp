// One function per subcommand; each lives in its own file under src/app/.
#pragma once

#include <CLI/CLI.hpp>

namespace gb::cli {

// Options shared by every subcommand.
struct GlobalOptions {
  std::string log_level = "warn";
  bool json = false;    // machine-readable output on stdout instead of tables
  int exit_status = 0;  // a subcommand's own exit status (compare, plot, model, report: the tool's)
};

void add_list_command(CLI::App& app, GlobalOptions& global);
void add_run_command(CLI::App& app, GlobalOptions& global);
void add_sweep_command(CLI::App& app, GlobalOptions& global);
void add_selfcheck_command(CLI::App& app, GlobalOptions& global);
void add_topo_command(CLI::App& app, GlobalOptions& global);
void add_jobs_command(CLI::App& app, GlobalOptions& global);
void add_config_command(CLI::App& app, GlobalOptions& global);
void add_merge_command(CLI::App& app, GlobalOptions& global);
void add_lost_point_command(CLI::App& app, GlobalOptions& global);
void add_schema_command(CLI::App& app, GlobalOptions& global);
// compare, plot, model and report: the Python tools of tools/ (src/app/python_tool.cpp).
void add_python_tool_commands(CLI::App& app, GlobalOptions& global);

}  // namespace gb::cli

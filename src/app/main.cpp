// gpubarrier: measure and compare GPU synchronisation methods.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <string>

#include "app/commands.hpp"
#include "app/parse_errors.hpp"
#include "app/stdout_check.hpp"
#include "app/version.hpp"
#include "core/launch.hpp"
#include "errors/errors.hpp"

int main(int argc, char** argv) {
  spdlog::set_default_logger(spdlog::stderr_color_mt("gpubarrier"));
  spdlog::set_pattern("[%l] %v");

  CLI::App app{
      "gpubarrier measures and compares GPU synchronisation: warp, block, cluster and grid\n"
      "barriers, kernel boundaries, device-side barriers across GPUs, and OpenMP, MPI and NCCL\n"
      "barriers on the host. Start with `gpubarrier list`, then `gpubarrier run --methods ...`.\n"
      "Every flag can also be set through the environment variable named in its help.",
      // Usage lines name the program as users type it, not the path it was started by.
      "gpubarrier"};
  gb::cli::GlobalOptions global;
  app.set_version_flag(
      "--version", [] { return gb::cli::version_text(); },
      "Print version, git sha, CUDA runtime/driver, NCCL and MPI versions");
  app.add_option("-v,--log-level", global.log_level,
                 "Log level: trace, debug, info, warn, error, off")
      ->envname("GPUBARRIER_LOG_LEVEL")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
  app.add_flag("--json", global.json, "Machine-readable JSON on stdout instead of tables")
      ->envname("GPUBARRIER_JSON");
  app.require_subcommand(1);
  app.parse_complete_callback(
      [&] { spdlog::set_level(spdlog::level::from_str(global.log_level)); });

  gb::cli::add_list_command(app, global);
  gb::cli::add_run_command(app, global);
  gb::cli::add_sweep_command(app, global);
  gb::cli::add_selfcheck_command(app, global);
  gb::cli::add_topo_command(app, global);
  gb::cli::add_jobs_command(app, global);
  gb::cli::add_config_command(app, global);
  gb::cli::add_merge_command(app, global);
  gb::cli::add_lost_point_command(app, global);
  gb::cli::add_schema_command(app, global);
  gb::cli::add_python_tool_commands(app, global);
  gb::cli::refuse_empty_numbers(app);

  if (argc < 2) {  // a bare `gpubarrier` teaches instead of just refusing
    std::fputs(app.help().c_str(), stderr);
    return 2;
  }
  // One line whatever the message holds: a newline or other control character of a path or
  // glob the user typed is shown escaped (\n, \xHH).
  const auto one_line = [](std::string text) {
    std::string out;
    for (const unsigned char c : text) {
      if (c == '\n') {
        out += "\\n";
      } else if (c < 0x20 || c == 0x7f) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02x", c);
        out += hex;
      } else {
        out += static_cast<char>(c);
      }
    }
    return out;
  };
  // Under mpirun/srun every rank finds the same bad input (the same command line; a session agrees
  // on what it read, app/session.hpp): rank 0 alone says so, once.
  const bool reports_input_errors = gb::launcher_rank() == 0;
  const auto run = [&]() -> int {
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
      if (reports_input_errors)
        std::fprintf(stderr, "gpubarrier: error: %s\n",
                     one_line(gb::cli::describe_parse_error(app, e, argc, argv)).c_str());
      return 2;
    } catch (const gb::UsageError& e) {
      if (reports_input_errors)
        std::fprintf(stderr, "gpubarrier: error: %s\n", one_line(e.what()).c_str());
      return 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpubarrier: failed: %s\n", one_line(e.what()).c_str());
      return 1;
    }
    return global.exit_status;
  };
  return gb::cli::finish_stdout(run());
}

// `gpubarrier compare|plot|model|report ARGS...`: the Python tools of tools/ (compare.py, plot.py,
// report.py), run as a child process with a Python that has their libraries. ARGS pass through
// untouched, stdout and stderr are the tool's own, and gpubarrier exits with the tool's status.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

#include "cli/child_process.hpp"
#include "cli/commands.hpp"
#include "core/errors.hpp"

extern char** environ;

namespace gb::cli {
namespace {

namespace fs = std::filesystem;

struct Tool {
  const char* command;  // the subcommand
  const char* script;   // under the tools directory
  const char* help;
};

constexpr Tool kTools[] = {
    {"compare", "compare.py",
     "Compare two or more gpubarrier CSVs (machines, runs, launch modes) figure by figure: the\n"
     "values side by side, the ratio to the first, and a verdict (same / faster / slower) that\n"
     "accounts for the standard error and the run-to-run floor (tools/compare.py; its options\n"
     "pass through).\n"
     "Example: gpubarrier compare results/h100/single-gpu.csv results/h200/single-gpu.csv "
     "--level grid"},
    {"plot", "plot.py",
     "Plot gpubarrier CSVs (PNG and SVG): heat maps, a line per swept axis, a summary, latency\n"
     "against GPU count, and, across machines, grouped bars and a ratio heat map\n"
     "(tools/plot.py; its options pass through).\n"
     "Example: gpubarrier plot results/h200x2/multi-gpu.csv results/h200x4/multi-gpu-scaling.csv "
     "--out plots/"},
    {"model", "model.py",
     "The study's performance model (seed 001 Eqs. 1-5): the size at which more threads, warps,\n"
     "blocks or GPUs start to win, predicted from measured rows and set beside the switch point\n"
     "the reduction sweep measured; --study recomputes the study's Table 4 from its inputs\n"
     "(tools/model.py; its options pass through).\n"
     "Example: gpubarrier model --study"},
    {"report", "report.py",
     "Markdown tables of gpubarrier CSVs (single, multi, scaling, compare, ...), the regeneration\n"
     "of results/README.md (readme [--check]), or one self-contained HTML page (--html)\n"
     "(tools/report.py; its options pass through).\n"
     "Example: gpubarrier report results/h200x2 --html page.html"},
};

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : "";
}

// GPUBARRIER_PYTHON, else Debian's python3 (which has matplotlib, pandas and scipy from apt; a
// pyenv python3 first on PATH may not), else python3 from PATH.
std::string python_interpreter() {
  if (std::string p = env_or_empty("GPUBARRIER_PYTHON"); !p.empty()) return p;
  if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

// GPUBARRIER_TOOLS, else the source tree's tools/ (compiled in), else <executable dir>/../tools.
fs::path tools_dir() {
  if (std::string d = env_or_empty("GPUBARRIER_TOOLS"); !d.empty()) return d;
#ifdef GPUBARRIER_TOOLS_DIR
  if (std::error_code ec; fs::is_directory(GPUBARRIER_TOOLS_DIR, ec)) return GPUBARRIER_TOOLS_DIR;
#endif
  return fs::path(self_executable()).parent_path().parent_path() / "tools";
}

// The tool's exit status; 128 + the signal when a signal ended it.
int run_tool(const Tool& tool, const std::vector<std::string>& args) {
  const fs::path script = tools_dir() / tool.script;
  if (std::error_code ec; !fs::is_regular_file(script, ec))
    throw Error("gpubarrier " + std::string(tool.command) + " runs " + script.string() +
                ", which does not exist (set GPUBARRIER_TOOLS to the directory holding " +
                tool.script + ")");
  std::vector<std::string> argv{python_interpreter(), script.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = 0;
  if (const int err = posix_spawnp(&pid, cargv[0], nullptr, nullptr, cargv.data(), environ))
    throw Error("cannot start " + argv[0] + " for " + script.string() + ": " + std::strerror(err) +
                " (set GPUBARRIER_PYTHON to a Python 3 interpreter)");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      throw Error(std::string("waiting for ") + tool.script + ": " + std::strerror(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

void add_python_tool_commands(CLI::App& app, GlobalOptions& global) {
  for (const Tool& tool : kTools) {
    auto args = std::make_shared<std::vector<std::string>>();
    auto* cmd = app.add_subcommand(tool.command, tool.help);
    // Everything after the subcommand belongs to the tool, unparsed and in order. --help too:
    // it prints what the subcommand is for, then the tool's own options.
    cmd->prefix_command();
    cmd->set_help_flag();
    cmd->callback([&tool, &global, cmd] {
      const std::vector<std::string> args = cmd->remaining();
      if (!args.empty() && (args[0] == "--help" || args[0] == "-h"))
        std::printf("%s\n\nThe options of %s:\n\n", tool.help, tool.script);
      global.exit_status = run_tool(tool, args);
    });
  }
}

}  // namespace gb::cli

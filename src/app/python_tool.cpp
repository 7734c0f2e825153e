// `gpubarrier compare|plot|model|report ARGS...`: the Python tools of gpubarrier_tools/cli/
// (compare.py, plot.py, report.py), run as a child process with a Python that has their libraries.
// gpubarrier_tools/ is a Python package: each tool runs as its module,
// `python3 -m gpubarrier_tools.cli.report ARGS...`, with the folder above gpubarrier_tools/ where a
// script's own folder would be on the path. ARGS pass through untouched, stdout and stderr are the tool's own, and gpubarrier exits with the tool's status.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/child_process.hpp"
#include "app/commands.hpp"
#include "errors/errors.hpp"
#include "paths/data_dir.hpp"

extern char** environ;

namespace gb::cli {
namespace {

namespace fs = std::filesystem;

// What the tool's arguments add to the modules it needs (nullptr: nothing), read from the
// arguments as the user typed them.
using ExtraModules = const char* (*)(const std::vector<std::string>& args);

// scipy for compare's --raw (the Mann-Whitney test).
const char* compare_modules(const std::vector<std::string>& args) {
  const bool raw = std::any_of(args.begin(), args.end(), [](const std::string& a) {
    return a == "--raw" || a.rfind("--raw=", 0) == 0;
  });
  return raw ? "scipy.stats" : nullptr;
}

// pandas for report spans and the results pages (report readme or --check, which hold spans
// tables). Only there: asking every report's interpreter for pandas would cost each report its
// import.
const char* report_modules(const std::vector<std::string>& args) {
  const bool spans =
      !args.empty() && (args[0] == "spans" || args[0] == "readme" || args[0] == "--check");
  return spans ? "pandas" : nullptr;
}

struct Tool {
  const char* command;  // the subcommand
  const char* script;   // under the package folder
  const char* help;
  const char* modules;  // what the Python running it must import, comma-separated ("": nothing)
  ExtraModules extra = nullptr;
};

constexpr Tool kTools[] = {
    {"compare", "cli/compare.py",
     "Compare two or more gpubarrier CSVs (machines, runs, launch modes) figure by figure: the\n"
     "values side by side, the ratio to the first, and a verdict (same / faster / slower) that\n"
     "accounts for the standard error and the run-to-run floor\n"
     "(gpubarrier_tools/cli/compare.py; its options pass through).\n"
     "Example: gpubarrier compare results/h100/single-gpu.csv results/h200/single-gpu.csv "
     "--level grid",
     "", compare_modules},
    {"plot", "cli/plot.py",
     "Plot gpubarrier CSVs (PNG and SVG): heat maps, a line per swept axis, a summary, latency\n"
     "against GPU count, and, across machines, grouped bars and a ratio heat map\n"
     "(gpubarrier_tools/cli/plot.py; its options pass through).\n"
     "Example: gpubarrier plot results/h200x2/multi-gpu.csv results/h200x4/multi-gpu-scaling.csv "
     "--out plots/",
     "matplotlib"},
    {"model", "cli/model.py",
     "The study's performance model (Eqs. 1-5): the size at which more threads, warps,\n"
     "blocks or GPUs start to win, predicted from measured rows and set beside the switch point\n"
     "the reduction sweep measured; --study recomputes the study's Table 4 from its inputs\n"
     "(gpubarrier_tools/cli/model.py; its options pass through).\n"
     "Example: gpubarrier model --study",
     ""},
    {"report", "cli/report.py",
     "Markdown tables of gpubarrier CSVs (single, multi, scaling, compare, ...), the regeneration\n"
     "of results/README.md (readme [--check]), or one self-contained HTML page (--html)\n"
     "(gpubarrier_tools/cli/report.py; its options pass through).\n"
     "Example: gpubarrier report results/h200x2 --html page.html",
     "matplotlib", report_modules},
};

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : "";
}

// The modules the tool needs for these arguments: its own and what its arguments add.
std::string needed_modules(const Tool& tool, const std::vector<std::string>& args) {
  std::string modules = tool.modules;
  if (const char* extra = tool.extra ? tool.extra(args) : nullptr)
    modules += std::string(modules.empty() ? "" : ",") + extra;
  return modules;
}

// Starts argv[0] (searched on PATH) with `argv` and waits for it: its exit status, 128 + the
// signal that ended it, or -1 with `err` set when it could not start. `quiet`: stdin, stdout and
// stderr on /dev/null.
int spawn_and_wait(std::vector<std::string> argv, bool quiet, int& err) {
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet)
    for (int fd = 0; fd <= 2; ++fd)
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
  pid_t pid = 0;
  err = posix_spawnp(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      err = errno;
      return -1;
    }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Whether `python` finds every module of the comma-separated list, quietly; asked once per
// interpreter and module list in this process. Found, not imported (importlib's find_spec): an
// import of matplotlib or pandas costs 0.1-0.3 s of CPU, paid again by the tool itself, while
// finding costs what starting the interpreter does. A module that is found but fails to import
// is the tool's to report, in its one line.
bool python_imports(const std::string& python, const std::string& modules) {
  static std::map<std::pair<std::string, std::string>, bool> cache;
  const auto key = std::make_pair(python, modules);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  int err = 0;
  const std::string find =
      "import importlib.util as u, sys; "
      "sys.exit(not all(u.find_spec(m) for m in sys.argv[1].split(',')))";
  return cache[key] = spawn_and_wait({python, "-c", find, modules}, true, err) == 0;
}

// GPUBARRIER_PYTHON, as it is. Else the first of python3 on PATH (a venv's or conda's, when one is
// active) and /usr/bin/python3 (Debian's, with python3-matplotlib and python3-scipy from apt) that
// can import what the tool needs; when none can, the first found, and the tool says in one line
// which module that interpreter lacks and how to get it.
std::string python_interpreter(const std::string& modules) {
  if (std::string p = env_or_empty("GPUBARRIER_PYTHON"); !p.empty()) return p;
  // Compared as paths, not files: a venv's python3 links to the system's but sees other modules.
  std::vector<std::string> found;
  for (const std::string& p : {paths::find_on_path("python3"), std::string("/usr/bin/python3")}) {
    if (p.empty() || access(p.c_str(), X_OK) != 0) continue;
    if (std::find(found.begin(), found.end(), fs::path(p).lexically_normal().string()) !=
        found.end())
      continue;
    found.push_back(fs::path(p).lexically_normal().string());
  }
  if (found.empty()) return "python3";
  if (modules.empty()) return found.front();
  for (const std::string& p : found)
    if (python_imports(p, modules)) return p;
  return found.front();
}

// Runs the module named by argv[2] of the package folder argv[1] as `python3 -m` would: the folder
// above the package first on the path instead of the working directory (which `-m` puts there,
// where a folder of the user's could hide the package), sys.argv[0] the module's file.
constexpr const char* kRunModule =
    "import runpy, sys; top = sys.argv.pop(1); "
    "sys.path[:1] = [top] if sys.path[:1] == [''] else [top] + sys.path[:1]; "
    "runpy.run_module(sys.argv.pop(1), run_name='__main__', alter_sys=True)";

// Whether `name` can be a Python package's name (ASCII letters, digits, _; no digit first).
bool python_identifier(const std::string& name) {
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

// The tool's exit status; 128 + the signal when a signal ended it.
int run_tool(const Tool& tool, const std::vector<std::string>& args) {
  fs::path package = fs::absolute(paths::tools_dir()).lexically_normal();
  if (package.filename().empty()) package = package.parent_path();  // a trailing separator
  const fs::path script = package / tool.script;
  if (std::error_code ec; !fs::is_regular_file(script, ec))
    throw Error("gpubarrier " + std::string(tool.command) + " runs " + script.string() +
                ", which does not exist (set GPUBARRIER_TOOLS to the package folder holding " +
                tool.script + ")");
  const std::string name = package.filename().string();
  if (!python_identifier(name))
    throw Error("gpubarrier " + std::string(tool.command) + " runs the Python package " +
                package.string() + ", whose folder name '" + name +
                "' is no Python name (letters, digits and _; set GPUBARRIER_TOOLS to a folder "
                "named gpubarrier_tools)");
  const fs::path in_package = fs::path(tool.script).replace_extension();
  std::string module = name;
  for (const auto& part : in_package) module += "." + part.string();
  std::vector<std::string> argv{python_interpreter(needed_modules(tool, args)), "-c", kRunModule,
                                package.parent_path().string(), module};
  argv.insert(argv.end(), args.begin(), args.end());
  std::fflush(stdout);
  std::fflush(stderr);
  // The tool's messages name the command the user typed (gpubarrier_tools/data/tool_main.py).
  setenv("GPUBARRIER_COMMAND", ("gpubarrier " + std::string(tool.command)).c_str(), 1);
  int err = 0;
  const int status = spawn_and_wait(argv, false, err);
  if (status < 0)
    throw Error("cannot run " + argv[0] + " for " + script.string() + ": " + std::strerror(err) +
                " (set GPUBARRIER_PYTHON to a Python 3 interpreter)");
  return status;
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
        std::printf("%s\n\nThe options of %s:\n\n", tool.help,
                    fs::path(tool.script).filename().c_str());
      global.exit_status = run_tool(tool, args);
    });
  }
}

}  // namespace gb::cli

// `gpubarrier sweep FILE|NAME`: the runs listed in a YAML sweep file, into one CSV. A NAME is a
// shipped sweep (configs/sweeps/NAME.yaml among the data files, as `gpubarrier jobs --sweep`).
#include <filesystem>
#include <memory>

#include "app/commands.hpp"
#include "app/session.hpp"
#include "app/session_options.hpp"
#include "io/sweep_file.hpp"
#include "jobs/catalogue.hpp"
#include "jobs/locate.hpp"
#include "jobs/sweep_check.hpp"

namespace gb::cli {
namespace {

// A path (it has a '/' or ends in .yaml) as it is; a name looked up as `jobs --sweep` does.
std::string sweep_path(const std::string& file_or_name) {
  const bool is_path = file_or_name.find('/') != std::string::npos ||
                       std::filesystem::path(file_or_name).extension() == ".yaml";
  return is_path ? file_or_name : jobs::locate_config(file_or_name, jobs::ConfigKind::sweep);
}

}  // namespace

void add_sweep_command(CLI::App& app, GlobalOptions& global) {
  auto session = std::make_shared<SessionArgs>();
  // A sweep is long and unattended: one crashing or hanging method must not end it.
  session->isolate = Isolation::method;
  auto path = std::make_shared<std::string>();
  auto narrowing = std::make_shared<Narrowing>();
  auto* cmd = app.add_subcommand(
      "sweep",
      "Run every entry of a sweep file (methods + axes) into one CSV. The file's samples,\n"
      "time_budget, rse_target and point_timeout apply unless given on the command line.\n"
      "Each method runs in a child process (--isolate); --resume continues a killed sweep.\n"
      "--methods and --axis narrow the file's runs without editing it.\n"
      "Examples:\n"
      "  gpubarrier sweep configs/sweeps/quick.yaml --out quick.csv\n"
      "  gpubarrier sweep quick --out quick.csv   (a shipped sweep by name)\n"
      "  gpubarrier sweep configs/sweeps/single-gpu.yaml --methods 'gpu.grid.*' "
      "--axis threads_per_block=128");
  cmd->add_option("file", *path,
                  "Sweep file (YAML), e.g. configs/sweeps/quick.yaml, or the name of a shipped "
                  "sweep (quick, floor, paper, ...)")
      ->required();
  add_measure_options(*cmd, narrowing->methods, narrowing->axes, *session, global,
                      {.methods = "Keep only the file's methods that match these comma-separated "
                                  "globs",
                       .axis = "Replace an axis' values in every entry of the file that has it: "
                               "name=v1,v2 | name=first:last:step | name=first:last:*factor "
                               "(repeatable)"});
  cmd->callback([session, path, narrowing, cmd, &global] {
    const GivenFlags given = given_flags(*cmd);
    SessionArgs args = *session;
    args.isolate_given = given.isolate;
    const auto read_specs = [&](const SessionArgs& settings) {
      const SweepFile sweep = load_sweep_file(sweep_path(*path));
      // The file's globs and axes are checked where they stand (file:line:column), as `config
      // check` and `jobs` check them, before the command line narrows them.
      jobs::check_sweep(sweep, jobs::registered_methods());
      return Asked{with_file_defaults(settings, sweep, given), specs_of(sweep)};
    };
    execute_session(args, read_specs, global, *narrowing);
  });
}

}  // namespace gb::cli

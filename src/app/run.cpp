// `gpubarrier run`: measure the selected methods over their axes; rows go to a CSV file (flushed
// one by one), a console table or JSON.
#include <memory>

#include "app/commands.hpp"
#include "app/session.hpp"

namespace gb::cli {

void add_run_command(CLI::App& app, GlobalOptions& global) {
  auto session = std::make_shared<SessionArgs>();
  auto spec = std::make_shared<PlanSpec>();
  auto* cmd = app.add_subcommand(
      "run",
      "Measure methods over their axes. Under mpirun/srun MPI is initialised and methods that\n"
      "need ranks run on all of them; rows are written by rank 0.\n"
      "Examples:\n"
      "  gpubarrier run --methods 'gpu.grid.*' --axis blocks_per_sm=1,2 --axis "
      "threads_per_block=128\n"
      "  mpirun -np 2 gpubarrier run --methods host.mpi.barrier --out mpi.csv");
  cmd->add_option("--methods", spec->methods, "Comma-separated globs of method names (see `list`)")
      ->envname("GPUBARRIER_METHODS")
      ->capture_default_str();
  cmd->add_option(
         "--axis", spec->axes,
         "Replace an axis' values: name=v1,v2 | name=first:last:step | "
         "name=first:last:*factor (repeatable; in GPUBARRIER_AXIS separate them with ';')" +
             std::string(". ") + categorical_axes_help())
      ->envname("GPUBARRIER_AXIS")
      ->delimiter(';');
  add_session_options(*cmd, *session);
  cmd->add_flag("--json", global.json, "Rows as a JSON array on stdout instead of the table")
      ->envname("GPUBARRIER_JSON");
  cmd->callback([session, spec, cmd, &global] {
    session->isolate_given = cmd->count("--isolate") > 0;
    execute_session(*session, [spec] { return std::vector<PlanSpec>{*spec}; }, global);
  });
}

}  // namespace gb::cli

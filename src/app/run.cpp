// `gpubarrier run`: measure the selected methods over their axes; rows go to a CSV file (flushed
// one by one), a console table or JSON.
#include <memory>

#include "app/commands.hpp"
#include "app/session.hpp"
#include "app/session_options.hpp"

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
  add_measure_options(*cmd, spec->methods, spec->axes, *session, global,
                      {.methods = "Comma-separated globs of method names (see `list`)",
                       .methods_default = true,
                       .axis = "Replace an axis' values: name=v1,v2 | name=first:last:step | "
                               "name=first:last:*factor (repeatable; in GPUBARRIER_AXIS "
                               "separate them with ';')"});
  cmd->callback([session, spec, cmd, &global] {
    SessionArgs args = *session;
    args.isolate_given = given_flags(*cmd).isolate;
    const auto read_specs = [spec](const SessionArgs& given) { return Asked{given, {*spec}}; };
    execute_session(args, read_specs, global);
  });
}

}  // namespace gb::cli

// `gpubarrier lost-point --out CSV`: the row of the point a run under mpirun/srun died in. OpenMPI
// and srun end every rank when one rank or its node dies, so no rank can write that point's row;
// rank 0 left the point's mark beside the CSV (io/inflight_mark.hpp). This command, run outside
// MPI by whoever started the run (the scripts of `gpubarrier jobs` do, after a step that failed
// and was not requeued), writes the row (`timeout` unless --status failed), marks the point done
// in the completion log, and removes the mark; a --resume run then goes on with the points after
// it. Exit 0: a row was written; 3: no point was in flight (nothing written).
#include <cstdio>
#include <memory>

#include "app/commands.hpp"
#include "errors/errors.hpp"
#include "io/csv_writer.hpp"
#include "io/inflight_mark.hpp"
#include "io/resume_log.hpp"
#include "io/resume_recover.hpp"

namespace gb::cli {
namespace {

constexpr int kNothingLost = 3;

struct LostPointArgs {
  std::string out;
  std::string note;
  std::string status = "timeout";
};

const char* const kWhy =
    "lost: the run ended inside this point, so no rank wrote its row (a rank or its node died or "
    "was killed; OpenMPI and srun end every rank when one dies); written by `gpubarrier "
    "lost-point` from the point's in-flight mark";

// "method config", or the method alone for a point without axes.
std::string point_name(const Record& r) {
  const std::string config = r.point.to_string();
  return config.empty() ? r.method : r.method + " " + config;
}

int record_lost_point(const LostPointArgs& args) {
  const Status status = status_from_string(args.status);
  if (status != Status::timeout && status != Status::failed)
    throw UsageError("--status takes timeout or failed, not '" + args.status + "'");
  const auto nothing = [&] {
    std::printf("gpubarrier lost-point: no point in flight beside %s; nothing written\n",
                args.out.c_str());
    return kNothingLost;
  };
  if (!read_inflight(args.out)) return nothing();  // touches no file
  DoneLog log(args.out);  // the lock: never beside a run that still writes this CSV
  const std::optional<Record> point = read_inflight(args.out);  // as it is under the lock
  if (!point) return nothing();
  std::vector<std::string> notes;
  const ResumeState state = recover_output(args.out, log, notes);
  for (const auto& n : notes) std::fprintf(stderr, "gpubarrier lost-point: %s\n", n.c_str());
  const PointKey key = point_key(*point);
  for (const DoneEntry& e : state.done) {
    if (e.key == key) {  // it finished; the run ended before it removed the mark
      clear_inflight(args.out);
      std::printf("gpubarrier lost-point: %s finished before the run ended; nothing written\n",
                  point_name(*point).c_str());
      return kNothingLost;
    }
  }
  if (state.fresh) log.start_fresh();
  CsvWriter csv(args.out, state.fresh ? CsvWriter::Open::fresh : CsvWriter::Open::append);
  Record r = *point;
  r.timestamp = utc_timestamp();
  r.figure.status = status;
  r.figure.note = args.note.empty() ? kWhy : std::string(kWhy) + "; " + args.note;
  csv.write(r);
  log.append(DoneEntry{state.rows + 1, status, r.run_id, key});
  clear_inflight(args.out);
  std::printf("gpubarrier lost-point: %s recorded as %s in %s\n", point_name(r).c_str(),
              args.status.c_str(), args.out.c_str());
  return 0;
}

}  // namespace

void add_lost_point_command(CLI::App& app, GlobalOptions& global) {
  auto args = std::make_shared<LostPointArgs>();
  auto* cmd = app.add_subcommand(
      "lost-point",
      "After a run under mpirun/srun died inside a point (a rank or node died: every rank is\n"
      "ended, none writes the point's row), write that point's row from the mark rank 0 left\n"
      "beside the CSV, so that `--resume` goes on with the next point instead of the same one.\n"
      "Exit 0: a row was written; 3: no point was in flight. The scripts of `gpubarrier jobs`\n"
      "run it after a failed step. Never run it beside a live run (the CSV's lock refuses).\n"
      "Example: gpubarrier lost-point --out results/n2-mpi-g2.csv --note \"step ended: 137\"");
  cmd->add_option("--out", args->out, "The CSV of the run that died (its --out)")->required();
  cmd->add_option("--note", args->note, "Added to the row's note: how the run ended");
  cmd->add_option("--status", args->status, "The row's status: timeout (default) or failed");
  cmd->callback([args, &global] { global.exit_status = record_lost_point(*args); });
}

}  // namespace gb::cli

#include "app/outputs.hpp"

#include <cstdio>
#include <filesystem>

#include "app/overwrite_guard.hpp"
#include "app/topology_record.hpp"
#include "core/launch.hpp"
#include "errors/errors.hpp"
#include "io/inflight_mark.hpp"
#include "io/raw_resume.hpp"
#include "io/resume_recover.hpp"

namespace gb::cli {
namespace {

namespace fs = std::filesystem;

// Checked before any file is opened, so that a refusal leaves no trace. The files beside the
// CSV (its completion log, its topology record, the mark of a point in flight) belong to the run
// that wrote the CSV: kept by --resume, replaced by --force, refused otherwise.
void refuse_overwrite(const std::optional<std::string>& csv, const std::string& raw_path,
                      const OpenFlags& f) {
  const bool keep = f.resume || f.force;
  const std::string hint = "continue it with --resume, ";
  std::vector<std::pair<std::string, std::string>> files;
  if (csv) {
    const std::string& path = *csv;
    refuse_to_overwrite(path, "--out", keep, hint);
    const std::pair<std::string, std::string> beside[] = {
        {"the completion log of '" + path + "'", done_log_path(path)},
        {"the topology record of '" + path + "'", topology_record_path(path)},
        {"the mark of the point in flight of '" + path + "'", inflight_path(path)}};
    files.emplace_back("--out", path);
    for (const auto& [what, side] : beside) {
      refuse_to_overwrite(side, "--out", keep, hint, what);
      files.emplace_back("--out's " + what.substr(4, what.find(" of '") - 4), side);
    }
  }
  if (!raw_path.empty()) {
    refuse_to_overwrite(raw_path, "--raw", keep, hint);
    files.emplace_back("--raw", raw_path);
  }
  refuse_same_files(files);
}

// With --resume, samples are added to the raw file of the run being continued (checked and
// repaired by io/raw_resume.hpp first).
std::unique_ptr<RawWriter> open_raw(const std::string& raw_path, bool resume) {
  if (raw_path.empty()) return nullptr;
  std::error_code ec;
  const bool keep = resume && fs::file_size(raw_path, ec) > 0 && !ec;
  return std::make_unique<RawWriter>(raw_path, keep ? CsvFile::Open::append : CsvFile::Open::fresh);
}

// The completion log is created when the CSV is opened (it is the lock); a --resume that is
// refused must not leave a new, empty one behind.
struct NewLogGuard {
  std::string path;
  bool existed;
  bool armed = true;
  explicit NewLogGuard(const std::string& csv_path)
      : path(done_log_path(csv_path)), existed(fs::exists(path)) {}
  ~NewLogGuard() {
    std::error_code ec;
    if (armed && !existed && fs::file_size(path, ec) == 0 && !ec) fs::remove(path, ec);
  }
};

// With --resume the raw file is checked and repaired with the CSV, before anything is said or
// created: a raw file that is not this run's is refused leaving no trace.
void open_csv(Outputs& out, const std::string& path, const std::string& raw_path, bool resume) {
  NewLogGuard guard(path);
  // The log first: it is the lock, and a fresh log before a fresh CSV means a kill in between
  // leaves rows without completion lines, which a later --resume drops and re-runs.
  out.log = std::make_unique<DoneLog>(path);
  ResumeState state;
  if (resume) {
    std::vector<std::string> notes;
    state = recover_output(path, *out.log, notes);
    if (!raw_path.empty()) recover_raw(raw_path, state.done, state.runs, notes);
    for (const auto& n : notes) std::fprintf(stderr, "gpubarrier: resume: %s\n", n.c_str());
    if (!state.fresh)
      std::fprintf(stderr, "gpubarrier: resume: %zu finished points in %s, %ld rows kept\n",
                   state.done.size(), out.log->path().c_str(), state.rows);
  }
  // A mark of a point in flight (io/inflight_mark.hpp) belongs to the CSV it was left beside; a
  // CSV started afresh has none. With --resume it stays for `gpubarrier lost-point`; a resumed
  // run that starts the point again replaces it.
  if (!resume) clear_inflight(path);
  if (state.fresh) {
    out.log->start_fresh();
    out.csv = std::make_unique<CsvWriter>(path);
  } else {
    out.csv = std::make_unique<CsvWriter>(path, CsvWriter::Open::append);
  }
  out.done = std::move(state.done);
  out.base_rows = state.rows;
  guard.armed = false;
}

// Rank 0 alone touches the files.
void open_on_root(Outputs& out, const std::optional<std::string>& path, const std::string& raw_path,
                  const OpenFlags& flags) {
  refuse_overwrite(path, raw_path, flags);
  if (path) open_csv(out, *path, raw_path, flags.resume);
  out.raw = open_raw(raw_path, flags.resume);
}

}  // namespace

Outputs open_outputs(const Launch& launch, const std::optional<std::string>& path,
                     const std::string& raw_path, const OpenFlags& flags) {
  if (!path && flags.resume)
    throw UsageError("--resume needs an output file: it continues the CSV given by --out");
  if (flags.resume && flags.force)
    throw UsageError(
        "--resume and --force: choose one (--resume continues the --out files, "
        "--force replaces them)");
  Outputs out;
  // "U..." a usage error (exit 2), "E..." another failure (exit 1); every rank throws it.
  std::string error;
  if (launch.is_root()) {
    try {
      open_on_root(out, path, raw_path, flags);
    } catch (const UsageError& e) {
      error = std::string("U") + e.what();
    } catch (const std::exception& e) {
      error = std::string("E") + e.what();
    }
  }
  error = broadcast_string(launch, error);
  if (!error.empty() && error.front() == 'U') throw UsageError(error.substr(1));
  if (!error.empty()) throw Error(error.substr(1));
  // Every rank must skip the same points (methods run on all ranks together).
  const std::string done = broadcast_string(launch, format_done_log(out.done));
  if (!launch.is_root()) out.done = parse_done_log(done, "rank 0's completion log").entries;
  return out;
}

}  // namespace gb::cli

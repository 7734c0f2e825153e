// `gpubarrier merge A.csv B.csv ... --out ALL.csv`: one CSV from the results of many runs (the
// job steps of a Slurm sweep, nodes, requeues), older schema versions upgraded, written
// atomically as the inputs are read (io/csv_merge.hpp). The merge job that `gpubarrier jobs`
// submits prints its --summary.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/overwrite_guard.hpp"
#include "errors/errors.hpp"
#include "io/atomic_file.hpp"
#include "io/csv_merge.hpp"
#include "io/resume_log.hpp"
#include "io/row.hpp"

namespace gb::cli {
namespace {

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string out;
  bool summary = false;
  bool force = false;
};

std::string field(const std::vector<std::string>& row, const char* column) {
  const auto& cols = Row::columns();
  for (std::size_t i = 0; i < cols.size(); ++i)
    if (cols[i] == column) return row[i];
  return {};
}

// What a summary line shows of a row: the columns that tell apart the rows of one merged sweep
// (its steps run one method at several launchers, rank, node and GPU counts), then its figure.
// A column of the summary line; the value shows its unit beside it.
struct SummaryColumn {
  const char* name;
  bool with_unit = false;
};
constexpr SummaryColumn kSummaryColumns[] = {{"method"},   {"metric"},      {"config"},
                                             {"launcher"}, {"ranks"},       {"nodes"},
                                             {"gpu_ids"},  {"value", true}, {"status"}};

// One line per distinct summary line, in the order first seen: rows that print the same (one
// figure of several runs, nodes or requeues) are one line with their number in `rows`. Columns
// are left-aligned, each as wide as its widest cell, two blanks apart; an empty cell is `-`.
class Summary {
 public:
  void add(const std::vector<std::string>& row) {
    std::vector<std::string> cells;
    for (const SummaryColumn& column : kSummaryColumns) {
      std::string cell = field(row, column.name);
      if (!cell.empty() && column.with_unit) cell += " " + field(row, "unit");
      if (cell.empty()) cell = "-";
      cells.push_back(cell);
    }
    const auto [at, fresh] = seen_.emplace(cells, lines_.size());
    if (fresh) {
      lines_.push_back(std::move(cells));
      counts_.push_back(0);
    }
    ++counts_[at->second];
  }

  void print() {
    std::vector<std::string> header;
    for (const SummaryColumn& column : kSummaryColumns) header.emplace_back(column.name);
    header.emplace_back("rows");
    for (std::size_t i = 0; i < lines_.size(); ++i) lines_[i].push_back(std::to_string(counts_[i]));
    std::vector<std::size_t> width(header.size());
    for (std::size_t c = 0; c < header.size(); ++c) {
      width[c] = header[c].size();
      for (const auto& line : lines_) width[c] = std::max(width[c], line[c].size());
    }
    const auto print_line = [&](const std::vector<std::string>& cells) {
      std::string out;
      for (std::size_t c = 0; c < cells.size(); ++c)
        out += c + 1 < cells.size() ? cells[c] + std::string(width[c] - cells[c].size() + 2, ' ')
                                    : cells[c];
      std::printf("%s\n", out.c_str());
    };
    print_line(header);
    for (const auto& line : lines_) print_line(line);
  }

 private:
  std::vector<std::vector<std::string>> lines_;
  std::vector<long> counts_;
  std::map<std::vector<std::string>, std::size_t> seen_;
};

// The merged rows as they are written: to a file staged beside --out, read back where a row
// repeats a figure.
class StagedOutput : public MergeOutput {
 public:
  explicit StagedOutput(std::unique_ptr<StagedFile> file) : file_(std::move(file)) {}
  void append(std::string_view text) override { file_->write(text); }
  void read(std::uint64_t offset, std::size_t size, std::string& text) override {
    file_->read(offset, size, text);
  }
  void commit() { file_->commit(); }

 private:
  std::unique_ptr<StagedFile> file_;
};

// Where the rows go. The inputs' faults are named before --out's (a file that holds rows,
// without --force), so the rows are staged beside --out and put in place once both are clear.
// Where nothing can be staged there (--out is no regular file, and is refused; its folder cannot
// be written), a scratch file takes the rows, and why is said after the inputs' faults.
std::unique_ptr<StagedFile> staging(const MergeArgs& args, std::exception_ptr& cannot_stage) {
  std::error_code ec;
  const auto type = std::filesystem::symlink_status(args.out, ec).type();
  if (type == std::filesystem::file_type::regular ||
      type == std::filesystem::file_type::not_found) {
    try {
      return std::make_unique<StagedFile>(args.out);
    } catch (const Error&) {
      cannot_stage = std::current_exception();
    }
  }
  try {
    return std::make_unique<StagedFile>();
  } catch (const Error&) {
    refuse_to_overwrite(args.out, "--out", args.force);
    throw;
  }
}

void merge(const MergeArgs& args) {
  std::exception_ptr cannot_stage;
  StagedOutput out(staging(args, cannot_stage));
  Summary summary;
  MergedRowFn on_row;
  if (args.summary) on_row = [&summary](const std::vector<std::string>& row) { summary.add(row); };
  const MergeResult merged = merge_csv_files(args.inputs, out, on_row);  // bad input is named first
  refuse_to_overwrite(args.out, "--out", args.force);
  // --force replaces a user's file, never one a run is writing: the run would go on appending
  // to a file that is no longer there.
  if (being_written(args.out))
    throw UsageError("--out '" + args.out + "': a gpubarrier run is writing it now (its " +
                     "completion log '" + done_log_path(args.out) + "' is locked); --force " +
                     "never replaces a file a run is writing: merge into another --out, or " +
                     "wait for the run to end");
  if (cannot_stage) std::rethrow_exception(cannot_stage);
  out.commit();
  if (args.summary) summary.print();
  std::string statuses;
  for (const auto& [status, n] : merged.by_status)
    statuses += (statuses.empty() ? "" : ", ") + std::to_string(n) + " " + status;
  std::printf(
      "merged %d files, %ld rows (%s; %ld duplicates dropped, %ld upgraded from older "
      "schema versions) into %s\n",
      merged.files, merged.rows, statuses.empty() ? "none" : statuses.c_str(), merged.duplicates,
      merged.upgraded, args.out.c_str());
}

}  // namespace

void add_merge_command(CLI::App& app, GlobalOptions& /*global*/) {
  auto args = std::make_shared<MergeArgs>();
  auto* cmd = app.add_subcommand(
      "merge",
      "Join gpubarrier CSVs into one (files of older schema versions are upgraded: the newer\n"
      "columns stay empty), dropping exact duplicate rows; written atomically.\n"
      "Example: gpubarrier merge results/*.csv --out all.csv --summary");
  cmd->add_option("inputs", args->inputs, "CSV files to join")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", args->out, "The joined CSV (written atomically)")->required();
  cmd->add_flag("--force", args->force,
                "Replace an --out file that already holds rows (e.g. the merge of an earlier run)");
  cmd->add_flag("--summary", args->summary,
                "Also print a table of the rows: method, metric, config, launcher, ranks, nodes,\n"
                "GPUs, value, status; rows that print the same are one line with their count");
  cmd->callback([args] { merge(*args); });
}

}  // namespace gb::cli

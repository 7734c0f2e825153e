// `gpubarrier merge A.csv B.csv ... --out ALL.csv`: one CSV from the results of many runs (the
// job steps of a Slurm sweep, nodes, requeues), older schema versions upgraded, written
// atomically. The merge job that `gpubarrier jobs` submits prints its --summary.
#include <cstdio>
#include <memory>

#include "app/commands.hpp"
#include "app/overwrite_guard.hpp"
#include "io/atomic_file.hpp"
#include "io/csv_merge.hpp"
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

void print_summary(const MergeResult& merged) {
  std::printf("%-28s %-16s %-40s %16s %s\n", "method", "metric", "config", "value", "status");
  for (const auto& r : merged.rows) {
    const std::string value = field(r, "value");
    const std::string shown = value.empty() ? "-" : value + " " + field(r, "unit");
    std::printf("%-28s %-16s %-40s %16s %s\n", field(r, "method").c_str(),
                field(r, "metric").c_str(), field(r, "config").c_str(), shown.c_str(),
                field(r, "status").c_str());
  }
}

void merge(const MergeArgs& args) {
  const MergeResult merged = merge_csv_files(args.inputs);  // bad input is named first
  refuse_to_overwrite(args.out, "--out", args.force);
  write_file_atomically(args.out, format_csv(merged.rows));
  if (args.summary) print_summary(merged);
  std::string statuses;
  for (const auto& [status, n] : merged.by_status)
    statuses += (statuses.empty() ? "" : ", ") + std::to_string(n) + " " + status;
  std::printf(
      "merged %d files, %zu rows (%s; %ld duplicates dropped, %ld upgraded from older "
      "schema versions) into %s\n",
      merged.files, merged.rows.size(), statuses.empty() ? "none" : statuses.c_str(),
      merged.duplicates, merged.upgraded, args.out.c_str());
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
                "Also print a table of every row: method, metric, config, value, status");
  cmd->callback([args] { merge(*args); });
}

}  // namespace gb::cli

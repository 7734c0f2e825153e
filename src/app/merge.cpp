// `gpubarrier merge A.csv B.csv ... --out ALL.csv`: one CSV from the results of many runs (the
// job steps of a Slurm sweep, nodes, requeues), older schema versions upgraded, written
// atomically. The merge job that `gpubarrier jobs` submits prints its --summary.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

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

// What a summary line shows of a row: the columns that tell apart the rows of one merged sweep
// (its steps run one method at several launchers, rank, node and GPU counts), then its figure.
constexpr const char* kSummaryColumns[] = {"method", "metric", "config", "launcher", "ranks",
                                           "nodes",  "gpu_ids", "value", "status"};

// One line per distinct summary line, in the order first seen: rows that print the same (one
// figure of several runs, nodes or requeues) are one line with their number in `rows`. Columns
// are left-aligned, each as wide as its widest cell, two blanks apart; an empty cell is `-`.
void print_summary(const MergeResult& merged) {
  std::vector<std::vector<std::string>> lines;
  std::vector<long> counts;
  std::map<std::vector<std::string>, std::size_t> seen;
  for (const auto& r : merged.rows) {
    std::vector<std::string> cells;
    for (const char* column : kSummaryColumns) {
      std::string cell = field(r, column);
      if (cell.empty()) cell = "-";
      if (std::string(column) == "value" && cell != "-") cell += " " + field(r, "unit");
      cells.push_back(cell);
    }
    const auto [at, fresh] = seen.emplace(cells, lines.size());
    if (fresh) {
      lines.push_back(std::move(cells));
      counts.push_back(0);
    }
    ++counts[at->second];
  }
  std::vector<std::string> header(std::begin(kSummaryColumns), std::end(kSummaryColumns));
  header.emplace_back("rows");
  for (std::size_t i = 0; i < lines.size(); ++i) lines[i].push_back(std::to_string(counts[i]));
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& line : lines) width[c] = std::max(width[c], line[c].size());
  }
  const auto print = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t c = 0; c < cells.size(); ++c)
      out += c + 1 < cells.size() ? cells[c] + std::string(width[c] - cells[c].size() + 2, ' ')
                                  : cells[c];
    std::printf("%s\n", out.c_str());
  };
  print(header);
  for (const auto& line : lines) print(line);
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
                "Also print a table of the rows: method, metric, config, launcher, ranks, nodes,\n"
                "GPUs, value, status; rows that print the same are one line with their count");
  cmd->callback([args] { merge(*args); });
}

}  // namespace gb::cli

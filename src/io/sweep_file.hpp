// Sweep files (configs/sweeps/*.yaml): which methods to run with which axis values.
//
//   name: quick
//   samples: 10            # optional defaults for every entry: samples, time_budget, rse_target
//   time_budget: 0.5
//   runs:
//     - methods: gpu.block.*
//       axes: {threads_per_block: [32, 1024]}
//     - methods: [gpu.grid.cg, host.*]
//       axes: {blocks_per_sm: "1:8:*2"}
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gb {

struct SweepEntry {
  std::string methods;            // comma-separated globs
  std::vector<std::string> axes;  // "name=spec", as for `run --axis`
};

struct SweepFile {
  std::string name;
  std::optional<int> samples;
  std::optional<double> time_budget_s;
  std::optional<double> rse_target;
  std::vector<SweepEntry> runs;
};

// Throws gb::ParseError "file:line:column: what was expected" for malformed content and
// gb::UsageError when the file cannot be read.
SweepFile load_sweep_file(const std::string& path);
SweepFile parse_sweep_text(const std::string& text, const std::string& source);

}  // namespace gb

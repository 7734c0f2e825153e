// Sweep files (configs/sweeps/*.yaml): which methods to run with which axis values.
//
//   name: quick
//   samples: 10            # optional defaults for every entry: samples, time_budget, rse_target
//   point_timeout: 600     # optional: seconds an isolated child may take per point
//   time_budget: 0.5
//   runs:
//     - methods: gpu.block.*
//       axes: {threads_per_block: [32, 1024]}
//     - methods: [gpu.grid.cg, host.*]
//       axes: {blocks_per_sm: "1:8:*2"}
//     - methods: multigpu.*
//       axes: {gpu_count: all}   # every GPU count from 1 to the GPUs of a node
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gb {

// A place in a sweep file (1-based), for mistakes found after parsing: a method glob that matches
// no method, an axis that no method of the entry has.
struct SweepMark {
  int line = 0;
  int column = 0;
};

struct SweepEntry {
  std::string methods;            // comma-separated globs
  std::vector<std::string> axes;  // "name=spec", as for `run --axis`
  // Set by `gpu_count: all` (where it stands): every GPU count from 1 to the GPUs of a node.
  // `gpubarrier jobs` expands it per system; a direct `sweep` leaves the axis at its default
  // (every GPU given), so it is not in `axes`.
  std::optional<SweepMark> all_gpu_counts;
  SweepMark methods_mark;             // the value of `methods`
  std::vector<SweepMark> axis_marks;  // the name of each axis, parallel to `axes`
};

struct SweepFile {
  std::string name;
  std::string source;  // the file it was read from, for errors found after parsing
  std::optional<int> samples;
  std::optional<double> time_budget_s;
  std::optional<double> rse_target;
  std::optional<double> point_timeout_s;  // --isolate: seconds per point before a child is killed
  std::vector<SweepEntry> runs;
};

// Throws gb::ParseError "file:line:column: key: what was expected" (with the closest known key
// for a misspelt one) for malformed content and gb::UsageError when the file cannot be read.
SweepFile load_sweep_file(const std::string& path);
SweepFile parse_sweep_text(const std::string& text, const std::string& source);

}  // namespace gb

// The point a run under mpirun/srun is inside, beside its output CSV: `<csv>.inflight`. Rank 0
// writes it when a point starts and removes it once the point's completion line is in the log
// (io/resume_log.hpp). When a rank or its node dies, OpenMPI and srun end every rank at once, so
// no rank can write the point's row; the mark tells whoever runs next which point it was, and
// `gpubarrier lost-point` (app/lost_point.cpp) turns it into that point's row. A run started
// without --resume removes a stale mark; a killed or requeued job keeps it, and its --resume runs
// the point again (a kill is no verdict on the point).
#pragma once

#include <optional>
#include <string>

#include "core/record.hpp"

namespace gb {

std::string inflight_path(const std::string& csv_path);

// Replaces the mark with `point` (the record the runner starts a point with), atomically.
void write_inflight(const std::string& csv_path, const Record& point);
// Removes the mark, if any. Throws gb::Error when it exists and cannot be removed.
void clear_inflight(const std::string& csv_path);
// The point of the mark; nothing without one. Throws gb::Error naming the file for a mark that
// cannot be read, gb::UsageError naming it for a damaged one.
std::optional<Record> read_inflight(const std::string& csv_path);

}  // namespace gb

// The CSV a run writes when no --out is given: results/local/<host>-<time><suffix>.csv, a name
// no other run has taken, so that runs started in the same second never refuse each other's
// file as an --out the user never gave.
#pragma once

#include <optional>
#include <string>

#include "core/launch.hpp"

namespace gb::cli {

// The CSV that an --out value names: std::nullopt for "none" (no CSV), else the path. The one
// place the reserved word is read.
std::optional<std::string> csv_path_of(const std::string& out);

// Rank 0 claims the first free name (the file created empty, with O_EXCL, so that two runs
// cannot both take it) among `<stem>.csv`, `<stem>-2.csv`, ... where stem is
// results/local/<host>-<time><suffix>, `time` the run id's UTC time; every rank gets that name.
// A folder that cannot be made leaves the first name, for the CSV's own open to refuse.
std::string default_out(const Launch& launch, const std::string& host, const std::string& run_id,
                        const std::string& suffix = "");

}  // namespace gb::cli

// What `gpubarrier jobs` may do in its --out folder: write into a new or empty folder, or one it
// made before (marked by kStampFile); never overwrite the files of a folder someone else made,
// and never remove results, logs or the merged CSV when it regenerates.
#pragma once

#include <string>
#include <vector>

namespace gb::jobs {

// The marker in every job folder: the system, sweep and files of the generation that wrote it.
inline constexpr const char* kStampFile = ".gpubarrier-jobs";

// Throws gb::UsageError unless `out` does not exist, is an empty folder, or holds kStampFile.
// `paths` (relative to `out`) are the files a generation would write; the message names those
// that already exist, as the files it would overwrite.
void check_out_folder(const std::string& out, const std::vector<std::string>& paths);

// Throws gb::UsageError naming the first of `paths` (relative to `out`), or a folder on the way
// to one, that exists and is no regular file (a folder: no file): a symbolic link, which writing
// would replace or write through into a file outside the job folder; a FIFO, a device or a
// socket, which writing would wait on for ever or write into.
void check_written_paths(const std::string& out, const std::vector<std::string>& paths);

// Whether `path`, named in an earlier generation's stamp, is a file the generator writes (a job
// script, a driver, a step sweep, the README) and so may be removed once no generation writes it.
// Results, logs, merged.csv and anything outside the folder never are.
bool generated_path(const std::string& path);

}  // namespace gb::jobs

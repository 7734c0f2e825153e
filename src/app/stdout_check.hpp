// A command's output on standard output is its result: a write that failed (a full disk, a
// closed pipe's reader gone, /dev/full) must not end in exit status 0 with the output cut short.
#pragma once

namespace gb::cli {

// Flushes std::cout and stdout; when either failed at any point of the run, prints one line on
// stderr ("gpubarrier: failed: could not write standard output: <why>") and returns 1, or
// `status` when that is already non-zero. Otherwise returns `status`.
int finish_stdout(int status);

}  // namespace gb::cli

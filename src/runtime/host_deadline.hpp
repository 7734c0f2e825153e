// A host-side deadline for kernels that spin where no %globaltimer watchdog reaches (a library's
// device barrier such as NCCL's). A kernel that overruns it cannot be stopped short of a context
// reset, which gpubarrier never does (core/watchdog.hpp says why), so its GPU is recorded as
// stuck: whatever the kernel uses must be leaked on purpose (freeing it waits for the kernel
// forever), and later configurations refuse that GPU rather than queue behind the kernel.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace gb::mg {

// Waits for `stream` as cudaStreamSynchronize does with a spinning host thread; false when the
// stream has not finished `seconds` after the call.
bool finishes_within(cudaStream_t stream, double seconds);

// Records that `device` runs a kernel that overran its deadline (any thread).
void mark_stuck(int device);

// Why these GPUs cannot take new work, naming the first one recorded as stuck; empty when none is.
std::string stuck_problem(const std::vector<int>& devices);

}  // namespace gb::mg

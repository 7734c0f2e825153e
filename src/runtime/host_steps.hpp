// The kernels that host-side multi-GPU methods launch: the empty kernel of each timed step, and
// the stamp/check pair of their verification (each member stamps its own memory; after the
// barrier each member reads every member's stamp through peer memory).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

namespace gb::mg {

void launch_empty(cudaStream_t stream);
// For cooperative launches (no parameters).
const void* empty_kernel();

// Writes `value` to *own after waiting `late_ns` on the GPU.
void launch_stamp(cudaStream_t stream, unsigned* own, unsigned value, std::uint64_t late_ns);
// Adds to *stale the number of members whose stamp is below `value`.
void launch_check(cudaStream_t stream, const std::vector<unsigned*>& stamps, unsigned value,
                  unsigned* stale);

}  // namespace gb::mg

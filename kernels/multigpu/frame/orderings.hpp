// The orderings of a signal between GPUs that several multi-GPU methods share, by name: how a
// signal is written and read, and what orders the memory around it. Each method reads a code of
// its own for a name (the device barriers' Ordering, runtime/barrier_args.cuh;
// multigpu.floor.signal's flag orderings), but a name means one thing on all of them, so that
// gpubarrier_tools/analysis/floor.py can pair a barrier's ordering with the floor signal of the same name.
#pragma once

#include "core/method.hpp"

namespace gb::mg::orderings {

inline constexpr NamedValue release_acquire{
    "release-acquire",
    "every signal is a system-scope release store (or acq_rel RMW) and every wait an acquire "
    "load (or relaxed polls and one acquire fence)"};
inline constexpr NamedValue seq_cst_fence{
    "seq-cst-fence",
    "signals without ordering of their own (relaxed or volatile, or the library's), ordered by a "
    "sequentially consistent system-scope fence (fence.sc, MEMBAR.SC) before a signal is sent "
    "and after one is seen"};
inline constexpr NamedValue acq_rel_fence{
    "acq-rel-fence",
    "relaxed signals (or the library's), ordered by an acquire-release system-scope fence "
    "(fence.acq_rel, MEMBAR.ALL) before a signal is sent and after one is seen"};

}  // namespace gb::mg::orderings

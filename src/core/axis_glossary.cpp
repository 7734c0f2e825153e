#include "core/axis_glossary.hpp"

namespace gb {
namespace {

constexpr GlossaryEntry kGlossary[] = {
    // How a signal between GPUs is written and read, and what orders the memory around it.
    {"ordering", "relaxed", "signals are relaxed system-scope atomics with no fence"},
    {"ordering", "volatile", "signals are volatile stores and loads with no fence"},
    {"ordering", "release-acquire",
     "every signal is a system-scope release store (or acq_rel RMW) and every wait an acquire "
     "load (or relaxed polls and one acquire fence)"},
    {"ordering", "seq-cst-fence",
     "signals without ordering of their own (relaxed or volatile, or the library's), ordered by "
     "a sequentially consistent system-scope fence (fence.sc, MEMBAR.SC) before a signal is sent "
     "and after one is seen"},
    {"ordering", "acq-rel-fence",
     "relaxed signals (or the library's), ordered by an acquire-release system-scope fence "
     "(fence.acq_rel, MEMBAR.ALL) before a signal is sent and after one is seen"},
    {"ordering", "library",
     "no fence of gpubarrier's own: whatever ordering the library's barrier promises"},
    // How multigpu.floor.signal's wait loop checks its watchdog.
    {"poll", "spin-budget",
     "the project's spin budget: every poll counted, the clock read every 64 polls"},
    {"poll", "bare-polls", "64 bare polls (a load and a compare) between two watchdog checks"},
    {"timing", "differential",
     "the host's clock around two launches of different lengths, their difference per crossing"},
    {"timing", "globaltimer", "the initiating GPU's %globaltimer around its round trips"},
    // Test hooks of the device barriers (core/faults.hpp): none is set in a real run.
    {"fault", "none", "no fault: the barrier as it is"},
    {"fault", "skip-wait", "every member signals but never waits (the check must catch it)"},
    {"fault", "absent",
     "the last member never arrives (the others must end on the watchdog, not hang)"},
    {"fault", "unordered",
     "every release, acquire and fence dropped (relaxed signals): only the memory check can "
     "notice"},
    {"fault", "absent-timing",
     "the last member is absent only while timing (the check passes, the timing ends as a "
     "timeout)"},
    // What a warp-level method does between its steps.
    {"variant", "serial", "one lane does the whole work alone: nothing to synchronise"},
    {"variant", "no-sync", "no synchronisation between the steps (the negative control)"},
    {"variant", "syncwarp-mask", "__syncwarp(mask) over the group's lanes"},
    {"variant", "tile-sync", "sync() of a cooperative-groups tile (tiled_partition)"},
    {"variant", "coalesced-sync", "sync() of a cooperative-groups coalesced group"},
    {"variant", "tile-shuffle", "the lanes of a tile exchange values by shuffles"},
    {"variant", "coalesced-shuffle", "the lanes of a coalesced group exchange values by shuffles"},
    // Which library call a library-backed method makes.
    {"variant", "barrier-all-block", "nvshmemx_barrier_all_block by every thread of block 0"},
    {"variant", "sync-all-block",
     "nvshmemx_sync_all_block by every thread of block 0 (no memory ordering promised)"},
    {"variant", "barrier-all", "nvshmem_barrier_all by thread 0 of block 0"},
    {"variant", "allreduce", "ncclAllReduce: every GPU gets the total"},
    {"variant", "reduce", "ncclReduce: GPU 0 gets the total"},
    // Memory-bound figures.
    {"cache", "cold", "every GPU of the point has its L2 evicted before every timed sample"},
    {"cache", "warm", "nothing evicted: data that fits in L2 is read from it again"},
    {"grid", "one-block", "one block (no other block to wait for)"},
    {"grid", "full-grid", "the resident grid: as many blocks as fit on every SM"},
    // How a host thread waits for its GPU (cudaSetDeviceFlags).
    {"host_wait", "auto", "cudaDeviceScheduleAuto: the driver chooses"},
    {"host_wait", "spin", "cudaDeviceScheduleSpin: the host thread spins"},
    {"host_wait", "blocking-sync", "cudaDeviceScheduleBlockingSync: the host thread sleeps"},
    {"impl", "emulated",
     "one cudaLaunchCooperativeKernel per GPU stands in for the removed multi-device launch"},
    {"impl", "real",
     "cudaLaunchCooperativeKernelMultiDevice, run by the helper built with an older CUDA"},
    {"launch", "triple-chevron", "kernels launched with <<<>>>"},
    {"launch", "cooperative", "kernels launched with cudaLaunchCooperativeKernel"},
    {"launch", "persistent",
     "one persistent cooperative kernel per GPU crosses every barrier of a run"},
    {"launch", "graph",
     "one launch per barrier crossing, a run's launches captured once into a CUDA graph and "
     "replayed"},
    {"blocking", "back-to-back",
     "the steps are enqueued back to back, then one stream wait (differential)"},
    {"blocking", "sync-each-step", "a stream wait after every step (host loop)"},
    // multigpu.device.push's phase experiment.
    {"part", "whole", "the whole barrier"},
    {"part", "gather", "the gather alone: every block waits for its GPU's count"},
    {"part", "gather-send", "the gather and the sends: nobody waits for a peer"},
    {"part", "exchange", "the exchange alone: block 0 of every GPU signals and waits for peers"},
    {"count_poll", "acquire-load", "every block polls its GPU's count with an acquire load"},
    {"count_poll", "relaxed-then-fence",
     "relaxed polls, then one device-scope acquire fence (as CUDA's grid.sync waits)"},
    {"scan", "acquire-per-poll",
     "every thread waits for its slots one after the other, an acquire load at every poll"},
    {"scan", "relaxed-then-fence",
     "every thread polls all its unfinished slots with relaxed loads at once, then one acquire "
     "fence"},
    {"network", "host-proxy",
     "the node leaders' host threads cross the network (MPI_Barrier over host-mapped words)"},
    {"network", "device-initiated", "the leader GPUs signal each other with NVSHMEM"},
    // Grid barriers' partial-participation tests.
    {"skip_block", "none", "every block arrives"},
    {"skip_block", "last", "the last block never arrives (the barrier must give up, not hang)"},
    {"missing", "none", "every block arrives (the control)"},
    {"missing", "last-block", "the last block never reaches the barrier"},
    {"missing", "upper-half", "the upper half of the blocks never reaches the barrier"},
    {"barrier", "atomic-sense", "gpu.grid.atomic-sense's barrier"},
    {"barrier", "flag-epoch", "gpu.grid.flag-epoch's barrier"},
};

}  // namespace

std::span<const GlossaryEntry> glossary() {
  return kGlossary;
}

std::string_view glossary_meaning(std::string_view axis, std::string_view name) {
  for (const GlossaryEntry& e : kGlossary)
    if (e.axis == axis && e.name == name) return e.meaning;
  return {};
}

bool categorical_axis(std::string_view axis) {
  for (const GlossaryEntry& e : kGlossary)
    if (e.axis == axis) return true;
  return false;
}

}  // namespace gb

// TEST-ONLY: fault injection, every test hook of gpubarrier in one place. The hooks break a run
// on purpose so that the tests can show what a real failure looks like: a check that catches a
// barrier that does not wait, a crash that becomes a failed row, a hang that becomes a timeout
// row, a member that throws and takes its team with it, several nodes simulated on one machine.
// docs/reliability.md, "Test hooks", lists them for users: variable, effect and the tests that
// set it (the documentation's to say, not the code's); its rows follow hooks() below.
//
// Two kinds:
//   - environment variables GPUBARRIER_TEST_* (and the legacy helper's GPUBARRIER_LEGACY_TEST_*),
//     listed in hooks() and read by faults.cpp alone: the code that needs one asks this module
//     (break_check, crash_or_hang, throw_if_named, ranks_per_node). tests/unit/test_faults.cpp
//     fails when a file of src/, kernels/, jobs/, topology/ or legacy/ names a variable that is
//     not in the table, or reads one itself.
//   - the `fault` axis of the device barriers (multigpu.device.*, multinode.hierarchical):
//     DeviceFault below, which the kernels read from their arguments.
// None is ever set in a real run.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/method.hpp"
#include "core/point_part.hpp"

namespace gb::faults {

// The environment hooks.
enum class Hook {
  break_check,     // GPUBARRIER_TEST_BREAK
  crash,           // GPUBARRIER_TEST_CRASH
  hang,            // GPUBARRIER_TEST_HANG
  throw_member,    // GPUBARRIER_TEST_THROW
  ranks_as_nodes,  // GPUBARRIER_TEST_RANKS_AS_NODES
  legacy_hang,     // GPUBARRIER_LEGACY_TEST_HANG
};

// One row of the table.
struct HookInfo {
  Hook hook;
  std::string_view variable;  // the environment variable
  std::string_view value;     // what it holds
  std::string_view effect;    // what it breaks
  std::string_view asks;      // the code that asks for it
};

// Every environment hook, in the order of docs/reliability.md's table.
std::span<const HookInfo> hooks();
const HookInfo& info(Hook hook);

// The hook's variable as it is now; empty when unset (read on every call: a test may change it
// between calls). The one place where a hook's variable is read.
std::string_view setting(Hook hook);
bool active(Hook hook);

// GPUBARRIER_TEST_BREAK=<method glob>: whether the check of `method` (a block, cluster or grid
// method) runs without its barrier, so that the GPU tests can show that the check reports a
// barrier that does not wait. Said on stderr when it does. Timed kernels are never affected.
bool break_check(std::string_view method);

// GPUBARRIER_TEST_CRASH / GPUBARRIER_TEST_HANG=<glob>[@<rank>]: the glob is matched against
// "<method> <point>" and against "<method>"; with "@<rank>" only that rank of an MPI launch (as
// the launcher numbers it: no MPI call) matches. A matching point aborts / hangs, which is how the
// tests show that isolation turns a crash into a failed row and a hang into a timeout row, and
// that `gpubarrier lost-point` records the point a dead rank took down.
void crash_or_hang(std::string_view method, std::string_view point);

// GPUBARRIER_TEST_THROW=<phase>:<member> makes one member throw, as a real failure of its work
// would, so that tests can show that the whole team ends the point as a `failed` row, hangs
// nowhere and goes on with the next point (core/agreement.hpp). <phase>: verify or measure, the
// part of a point the runner is in (Phase); <member>: a rank under mpirun (of a method run on
// every rank), else a thread (a GPU's thread of a team, or a thread of host.omp.barrier). It
// throws once per process: where that member first starts its part of a parallel section or host
// loop in that phase (Team::parallel, ReferenceLoop::run_member), inside the guard that catches a
// real failure there; later points run clean.
//
// Names the part of a point that runs while it lives (the runner's verify and measure).
class Phase {
 public:
  explicit Phase(PointPart part);
  ~Phase();
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;
};
// Throws gb::Error the first time GPUBARRIER_TEST_THROW names the current phase and `member`,
// and whenever it is malformed (a test that sets it must not pass because of a typo).
void throw_if_named(int member);

// GPUBARRIER_TEST_RANKS_AS_NODES=<k> makes a run under mpirun/srun treat every k consecutive
// ranks as one node (multi-node methods tested on one machine): =1 makes every rank a node of its
// own, =2 with 4 ranks makes 2 "nodes" of 2 ranks (2 GPUs) each. The run then counts
// ceil(ranks / k) nodes, names each rank's node `<node>-rank<r>` (k = 1) or `<node>-node<r / k>`
// (k > 1), refuses what needs one node (the single-node device barriers' peer memory) as it would
// across real nodes, builds node-local peer memory only inside each simulated node, and writes
// `<system>-simulated` in the system column. Which GPU a rank drives still follows its real local
// rank. NCCL's transport is the caller's to choose (the tests set NCCL_P2P_DISABLE=1
// NCCL_SHM_DISABLE=1 NCCL_NET=Socket). 0 or unset: off.
//
// Ranks per simulated node; 0 when off (announced on stderr once). Throws UsageError for a value
// that is not a count.
int ranks_per_node();
// The setting's value as a count: 0 for null or "0", k for "k" (k >= 1); nullopt otherwise.
std::optional<int> parse_ranks_per_node(const char* value);

// The `fault` axis of the device barriers: test hooks that break the barrier on purpose.
//   skip_wait      signals but never waits (the check must report stale data);
//   absent         keeps the last member out of every barrier (the others must end on the
//                  watchdog, not hang);
//   unordered      drops every release, acquire and fence of the barrier (signals relaxed, no
//                  fences), so that only the memory check can notice;
//   absent_timing  keeps the last member out only while timing (the check passes, the timing run
//                  must end as a timeout row).
enum class DeviceFault { none = 0, skip_wait = 1, absent = 2, unordered = 3, absent_timing = 4 };

// The names of the values up to `last`, with what each means, for the axis (a method offers a
// prefix of them).
std::vector<ValueName> device_fault_names(DeviceFault last);

}  // namespace gb::faults

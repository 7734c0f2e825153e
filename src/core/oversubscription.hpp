// Whether a host figure's spinning members (threads or ranks) had a CPU each, and whether its
// loop figure agrees with its per-step one (results/SCHEMA.md, "Noisy figures"). A member that
// waits for a CPU turns a barrier's latency into the scheduler's time slice (milliseconds
// instead of hundreds of nanoseconds), on some steps or loops only; such a figure is marked noisy
// with the reason, so that no report takes it for an answer or a verdict.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/method.hpp"
#include "core/run_context.hpp"

namespace gb {

// The CPUs this process may run on (sched_getaffinity), ascending; empty when unknown.
std::vector<int> process_cpus();

// One process's spinning members and the CPUs it may run on.
struct MemberCpus {
  int node = 0;           // which node (NodeLayout index): processes of one node share its CPUs
  std::string node_name;  // for the reason; "" outside MPI
  int members = 0;        // spinning threads or ranks of this process
  std::vector<int> cpus;  // process_cpus(); empty: unknown, claims nothing
};

// "oversubscribed: 8 spinning threads on 2 CPUs" (" of <node>" when named) for the first node
// whose processes' members outnumber the union of their CPUs; "" when every node has a CPU per
// member. `what` names the members: "threads" or "ranks".
std::string oversubscription(const std::vector<MemberCpus>& processes, std::string_view what);

// The same for the point now running, with `members` spinning in this process: while a method
// runs on every rank (ctx.collective under MPI) every rank's, grouped by node (collective: every
// rank calls it and gets the same reason); else this process's alone.
std::string oversubscription(const RunContext& ctx, int members, std::string_view what);

// The CPU time this process spent from construction on, against the wall time, per spinning
// member: a member that spins for the whole figure has a share of 1 of a CPU; one that other work
// took its CPU from has less, whatever the mask says its CPUs are (a busy machine, or nodes of
// one cluster that share one machine's CPUs).
class CpuShare {
 public:
  CpuShare();
  // CPU time / (wall time x members) since construction; 1 when no time passed.
  double of(int members) const;

 private:
  double cpu_s_ = 0;
  double wall_s_ = 0;
};

// Below this share of a CPU per spinning member the figure is noisy: idle machines give 0.9 or
// more, and a member that waits for a CPU turns a sub-microsecond barrier into a time slice.
inline constexpr double kMinCpuShare = 0.75;

// "members had 41% of a CPU each (other work took the rest)" where `share` is below
// kMinCpuShare, "" otherwise. `what` names the members ("threads", "ranks").
std::string cpu_wait(double share, std::string_view what);

// The same for the point now running: while a method runs on every rank (ctx.collective under
// MPI) the lowest rank's share (collective: every rank calls it and gets the same reason); else
// this process's.
std::string cpu_wait(const RunContext& ctx, double share, std::string_view what);

// Where the ranks of a point run on every rank (ctx.collective under MPI) may run, for the note of
// its figures: "ranks on CPUs 0,112 / 1,113" (each rank's mask, in rank order; the first
// kRanksNamed and a count of the rest), or "ranks on CPUs 0-1 each" where every rank has the same
// mask; "" outside such a point or where a mask is not known. Collective: every rank calls it.
inline constexpr std::size_t kRanksNamed = 8;
std::string rank_cpus_note(const RunContext& ctx);

// Adds `reason` to a figure's contention ("a, b"), unless it is empty or already there.
void add_reason(std::string& to, const std::string& reason);

// How far apart a point's loop figure (metric loop_latency, the loop mean) and its per-step
// figure (metric latency, the median step) may be before both are noisy. Healthy host figures
// lie within 0.4x-1.5x of each other (the loop pipelines the steps and carries no clock reads; the
// per-step median drops the slow steps that the loop mean keeps); a member that waits for a CPU
// moves the loop mean by orders of magnitude.
inline constexpr double kNoisyLoopRatio = 4;

// "loop_latency 8250x latency (more than 4x apart: members waited for CPUs)", or "" when the two
// are within kNoisyLoopRatio of each other (or either is not positive).
std::string loop_disagreement(double loop_ns, double step_ns);

// Compares every loop_latency figure of one point with its latency figure (same unit, technique
// and GPUs) and adds loop_disagreement's reason to both figures' contention.
void check_loop_agreement(std::vector<Measurement>& figures);

}  // namespace gb

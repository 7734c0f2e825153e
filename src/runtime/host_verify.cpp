#include "runtime/host_verify.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "runtime/host_steps.hpp"
#include "runtime/peer_memory.hpp"

namespace gb::mg {
namespace {

constexpr unsigned kRounds = 8;

// Enough rounds for every member to be late at least once.
unsigned rounds(const Team& team) {
  return std::max(kRounds, static_cast<unsigned>(team.size()));
}
constexpr std::uint64_t kLateNs = 20000;  // far above the time a barrier takes

// Per member: [0] its stamp, [1] the stale stamps its GPU saw.
std::vector<unsigned*> stamps_seen_by(const PeerMemory& mem, const Team& team, int local) {
  std::vector<unsigned*> s;
  for (int m = 0; m < team.size(); ++m) s.push_back(static_cast<unsigned*>(mem.at(local, m)));
  return s;
}

Verification outcome(const RunContext& ctx, const PeerMemory& mem, const Team& team) {
  // Read inside parallel(), whose end is an agreement point: a rank whose read fails meets the
  // others there, not in the maximum below.
  std::vector<unsigned> seen(team.local_count(), 0);
  team.parallel([&](int l) {
    GB_CUDA_CHECK(cudaMemcpy(&seen[l], static_cast<unsigned*>(mem.own(l)) + 1, sizeof(unsigned),
                             cudaMemcpyDeviceToHost));
  });
  std::vector<double> stale{0};
  for (unsigned v : seen) stale[0] += v;
  ctx.max_over_ranks(stale);
  if (stale[0] > 0)
    return Verification::failed(std::to_string(static_cast<long>(stale[0])) +
                                " stale stamps seen after the barrier");
  return Verification::passed();
}

// Why the stamp check cannot run (threads mode without peer access), or "".
std::string unreachable(const RunContext& ctx, const Team& team) {
  if (team.mode() == Mode::mpi) return {};
  const std::string problem = peer_access_problem(ctx.gpus);
  return problem.empty() ? problem
                         : "the stamp check needs peer access between the GPUs (" + problem + ")";
}

// Each member's GPU stamps late in turn (round r: member r mod size), so that a barrier that
// forgets any one member is caught, not only one that forgets the last.
std::uint64_t lateness(const Team& team, int local, unsigned round) {
  return team.member(local) == static_cast<int>(round % static_cast<unsigned>(team.size()))
             ? kLateNs
             : 0;
}

}  // namespace

Verification verify_host_barrier(const RunContext& ctx, const Team& team,
                                 const std::function<void(int local)>& barrier) {
  if (const std::string why = unreachable(ctx, team); !why.empty())
    return Verification::not_verified(why);
  const PeerMemory mem(team, 2 * sizeof(unsigned));
  for (unsigned r = 1; r <= rounds(team); ++r) {
    team.parallel([&](int l) {
      auto* own = static_cast<unsigned*>(mem.own(l));
      // barrier(l) meets the other members, so it runs for a failed member too; the member's own
      // work around it is guarded (core/agreement.hpp).
      team.guard(l, [&] { launch_stamp(team.stream(l), own, r, lateness(team, l, r)); });
      barrier(l);
      team.guard(l, [&] {
        launch_check(team.stream(l), stamps_seen_by(mem, team, l), r, own + 1);
        GB_CUDA_CHECK(cudaStreamSynchronize(team.stream(l)));
      });
    });
  }
  return outcome(ctx, mem, team);
}

Verification verify_launch_barrier(const RunContext& ctx, const Team& team,
                                   const std::function<void()>& wait_all) {
  if (const std::string why = unreachable(ctx, team); !why.empty())
    return Verification::not_verified(why);
  const PeerMemory mem(team, 2 * sizeof(unsigned));
  for (unsigned r = 1; r <= rounds(team); ++r) {
    for (int l = 0; l < team.local_count(); ++l) {
      GB_CUDA_CHECK(cudaSetDevice(team.device(l)));
      launch_stamp(team.stream(l), static_cast<unsigned*>(mem.own(l)), r, lateness(team, l, r));
    }
    wait_all();
    for (int l = 0; l < team.local_count(); ++l) {
      GB_CUDA_CHECK(cudaSetDevice(team.device(l)));
      auto* own = static_cast<unsigned*>(mem.own(l));
      launch_check(team.stream(l), stamps_seen_by(mem, team, l), r, own + 1);
      GB_CUDA_CHECK(cudaStreamSynchronize(team.stream(l)));
    }
  }
  return outcome(ctx, mem, team);
}

}  // namespace gb::mg

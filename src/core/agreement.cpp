#include "core/agreement.hpp"

#include <cmath>
#include <exception>

#include "core/launch.hpp"

namespace gb {
namespace {

// What a rank brings to an agreement point, as one double that the ranks' maximum combines
// (Launch::agreement_max, an MPI_Allreduce on a communicator of its own): 0 fine, 1 refuses,
// 2 + (size - rank) failed, so that the maximum names the lowest failing rank. agree() and
// any_rank_refuses() share this collective, so a rank that failed meets a rank that asks about
// refusals. The failing rank's message then goes to all on MPI_COMM_WORLD: every rank has just
// left the same agreement point, so none is in another collective.
constexpr double kFine = 0, kRefuses = 1, kFailedBase = 2;

bool vote(const RunContext& ctx, const std::string& failure, bool refuses) {
  if (!ranks_agree(ctx)) return refuses;
  const int size = ctx.launch.size;
  const double mine = !failure.empty() ? kFailedBase + (size - ctx.launch.rank)
                      : refuses        ? kRefuses
                                       : kFine;
  const double all = ctx.launch.agreement_max(mine);
  if (all < kFailedBase) return all >= kRefuses;
  const int who = size - static_cast<int>(std::lround(all - kFailedBase));
  const std::string what = broadcast_string(ctx.launch, failure, who);
  throw TeamFailure("rank " + std::to_string(who) + " failed: " + what);
}

}  // namespace

void MemberFailure::keep(const std::string& what) noexcept {
  if (failed_) return;
  failed_ = true;
  try {
    what_ = what.empty() ? "failed without a message" : what;
  } catch (...) {  // out of memory for the message: the failure itself still counts
  }
}

void MemberFailure::clear() noexcept {
  failed_ = false;
  what_.clear();
}

bool ranks_agree(const RunContext& ctx) {
  return ctx.collective && ctx.launch.under_mpi && std::uncaught_exceptions() == 0;
}

void agree(const RunContext& ctx, const std::string& failure) {
  vote(ctx, failure, false);
}

bool any_rank_refuses(const RunContext& ctx, bool refuses) {
  return vote(ctx, {}, refuses);
}

void settle(const RunContext& ctx, const std::vector<MemberFailure>& members,
            const std::function<std::string(int member)>& label) {
  int first = -1;
  for (int m = 0; m < static_cast<int>(members.size()) && first < 0; ++m)
    if (members[m].failed()) first = m;
  // keep() leaves the message empty only when it could not copy it; the failure counts anyway.
  const std::string what = first < 0                       ? std::string()
                           : members[first].what().empty() ? "failed"
                                                           : members[first].what();
  if (ranks_agree(ctx)) {
    agree(ctx, what);
    return;
  }
  if (first >= 0) throw TeamFailure(label(first) + " failed: " + what);
}

}  // namespace gb

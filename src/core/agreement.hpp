// No hang, no silent mix-up: when one member of a point fails (a rank under mpirun, a
// thread of a team), every member must end the point with the same `failed` row and meet the
// others again at the next point, never in a different collective. Two rules make that hold:
// - Agreement before collectives. Outside timed loops, a stretch of work that may throw ends at
//   an agreement point (agree(), any_rank_refuses()) before the next collective: a rank that
//   threw calls agree() with its failure from where it caught it, the others reach their next
//   agreement point, and every rank throws the same TeamFailure. While an exception unwinds, no
//   agreement point meets the others: destructors run then, and what each rank destroys may
//   differ (a rank whose constructor threw has less to destroy); each rank is unwinding, or
//   soon will be, after the agreement point that told it.
// - No throw between barriers. Inside loops whose steps meet the other members (omp barrier,
//   MPI_Barrier, a collective), a member's failure is kept in a MemberFailure instead of thrown:
//   the member goes on meeting the others, skips its guarded work, and the failure is raised at
//   the agreement point after the loop. Nothing that communicates is added inside timed loops;
//   a guarded step costs one branch.
// An MPI call that fails is not covered: MPI cannot agree over a broken communicator.
#pragma once

#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/run_context.hpp"
#include "errors/errors.hpp"

namespace gb {

// Thrown on every member once they agreed that one of them failed; names the member and its
// message ("rank 1 failed: ...", "thread 1 failed: ..."). Never agreed on again.
class TeamFailure : public Error {
 public:
  using Error::Error;
};

// One member's failure, kept where throwing would skip a barrier or collective that the other
// members wait in.
class MemberFailure {
 public:
  // Runs `work` unless a failure is kept already; what `work` throws is kept, not thrown. Inline
  // and without std::function: it wraps steps inside timed loops, where it costs one branch.
  template <class Work>
  void guard(Work&& work) noexcept {
    if (failed_) return;
    try {
      std::forward<Work>(work)();
    } catch (const std::exception& e) {
      keep(e.what());
    } catch (...) {
      keep("unknown exception");
    }
  }
  // Keeps `what` unless a failure is kept already (the first failure is the one reported).
  void keep(const std::string& what) noexcept;
  void clear() noexcept;
  bool failed() const { return failed_; }
  const std::string& what() const { return what_; }

 private:
  bool failed_ = false;
  std::string what_;
};

// Whether this process must agree with other ranks: a method runs on every rank under MPI, and
// no exception unwinds on this thread.
bool ranks_agree(const RunContext& ctx);

// The ranks' agreement point. Every rank calls it at the same place, with its own failure (empty
// for none): one MPI_Allreduce finds the lowest failing rank, one broadcast gives its message to
// all, and every rank throws TeamFailure("rank R failed: <message>"). It waits for every rank,
// so it is also a barrier. Outside ranks_agree() it does nothing: a local failure stays the
// caller's to throw.
void agree(const RunContext& ctx, const std::string& failure = {});

// An agreement point that also carries a refusal (a configuration one rank cannot run): true
// when any rank refuses. Throws TeamFailure like agree() when a rank arrives failing (from
// agree() or from here); its collective is agree()'s, so the two meet each other. Outside
// ranks_agree(): `refuses`.
bool any_rank_refuses(const RunContext& ctx, bool refuses);

// The end of a stretch in which this process's members kept their failures instead of throwing
// (every member has left the stretch): under ranks_agree() (one member per rank), agree() with
// the first failure; otherwise throws TeamFailure("<label(m)> failed: <message>") for the first
// member m that failed.
void settle(const RunContext& ctx, const std::vector<MemberFailure>& members,
            const std::function<std::string(int member)>& label);

}  // namespace gb

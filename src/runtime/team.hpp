// A team: the GPUs of one multi-GPU configuration and the host threads or ranks that drive them.
// threads mode: this process drives every member, one OpenMP thread per GPU, each bound to the
// CPUs local to its GPU. mpi mode: each rank drives one member, its own GPU.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/agreement.hpp"
#include "core/launch_mode.hpp"
#include "core/method.hpp"
#include "core/run_context.hpp"
#include "core/state.hpp"
#include "core/teardown.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/node_layout.hpp"

namespace gb::mg {

// The `host_wait` axis: how a host thread waits for its GPU (cudaSetDeviceFlags).
enum class HostWait { automatic = 0, spin = 1, blocking = 2 };
inline constexpr const char* kHostWaitAxis = "host_wait";
// The axis with the values given, its codes named.
inline Axis host_wait_axis(std::vector<long> values) {
  return {kHostWaitAxis,
          std::move(values),
          {{HostWait::automatic, "auto", "cudaDeviceScheduleAuto: the driver chooses"},
           {HostWait::spin, "spin", "cudaDeviceScheduleSpin: the host thread spins"},
           {HostWait::blocking, "blocking-sync",
            "cudaDeviceScheduleBlockingSync: the host thread sleeps"}}};
}

// Which members a piece of shared memory spans: the whole team (single-node device barriers) or
// the members of this process's node (node-aware methods: runtime/peer_memory.hpp).
enum class Span { team, node };

class Team {
 public:
  // Collective in mpi mode. Applies host_wait (when the point has it) to every local GPU and
  // creates one stream per local GPU.
  Team(const RunContext& ctx, const Point& point);
  ~Team();
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  Mode mode() const { return mode_; }
  int size() const { return size_; }
  int local_count() const { return static_cast<int>(local_devices_.size()); }
  int member(int local) const { return first_member_ + local; }
  int device(int local) const { return local_devices_[local]; }
  cudaStream_t stream(int local) const { return streams_[local]; }
  // Index of each member's GPU in ctx.topology (matched by PCI bus id); -1 when unknown.
  const std::vector<int>& topology_index() const { return topology_index_; }

  // Nodes. mpi mode: the session's layout (runtime/node_layout.hpp: by node name and
  // shared-memory domain, or the test-only simulated grouping); threads mode, or no layout
  // gathered: one node, the whole team. Members are ranks in mpi mode, so a member's node is
  // layout().node[member].
  const NodeLayout& layout() const { return layout_; }
  int nodes() const { return layout_.nodes(); }
  int node() const { return layout_.node[first_member_]; }  // this process's node
  int node_size() const { return layout_.node_size[node()]; }
  // Local member l's index among the members of its node (0: the node's leader).
  int node_member(int local) const { return layout_.local[member(local)]; }
  bool node_leader() const { return node_member(0) == 0; }
  int size(Span span) const { return span == Span::team ? size() : node_size(); }
  int member(Span span, int local) const {
    return span == Span::team ? member(local) : node_member(local);
  }
#ifdef GPUBARRIER_HAVE_MPI
  // mpi mode: the ranks of this node, in rank order; MPI_COMM_NULL in threads mode.
  MPI_Comm node_comm() const {
    return node_comm_;
  }
  // mpi mode: the node leaders (node-local rank 0), one per node, in node order; MPI_COMM_NULL
  // on every other rank and in threads mode.
  MPI_Comm leaders_comm() const {
    return leaders_comm_;
  }
#endif

  // Runs fn(local) for every local member: threads mode: one OpenMP thread per member, bound to
  // its GPU's CPUs (orphaned `omp barrier`s in fn bind to this region); mpi mode: the calling
  // thread, bound likewise. Bindings are undone at the end. An agreement point at its end
  // (core/agreement.hpp): when any member failed (fn threw, or its guarded work did), every
  // member of the team throws the same TeamFailure, naming the member. fn runs for every member
  // even after a failure: it may meet the others (barriers, collectives), so its own fallible
  // work between such meetings goes through guard(). In mpi mode the agreement is one
  // MPI_Allreduce after fn: a caller that times parallel() as a whole times it too,
  // as a constant that the differential technique cancels (L_hi - L_lo).
  void parallel(const std::function<void(int local)>& fn) const;

  // Inside parallel(): runs `work` for local member `local` unless that member failed already;
  // what `work` throws is kept and raised at the end of parallel(), not thrown.
  template <class Work>
  void guard(int local, Work&& work) const {
    failures_[local].guard(std::forward<Work>(work));
  }

  // Waits for every process of the team (mpi mode; nothing in threads mode), as an agreement
  // point: a failure that any rank brings is raised on every rank.
  void host_barrier() const;

  // Inside parallel(), threads mode: `#pragma omp barrier` among the local members' threads
  // (compiled here, with OpenMP: in a CUDA source the pragma is ignored, since nvcc does not pass
  // -fopenmp). Nothing in mpi mode (one member per process).
  void thread_barrier() const;

 private:
#ifdef GPUBARRIER_HAVE_MPI
  void make_node_comms(const RunContext& ctx);
#endif

  const RunContext& ctx_;
  Mode mode_;
  int size_ = 0;
  int first_member_ = 0;
  std::vector<int> local_devices_;
  std::vector<cudaStream_t> streams_;
  std::vector<int> topology_index_;
  NodeLayout layout_;
#ifdef GPUBARRIER_HAVE_MPI
  MPI_Comm node_comm_ = MPI_COMM_NULL;
  MPI_Comm leaders_comm_ = MPI_COMM_NULL;
#endif
  std::vector<std::vector<int>> cpus_;  // per local member; empty = leave the binding alone
  mutable std::vector<MemberFailure> failures_;  // per local member, during parallel()
  Releases releases_;                            // streams, host_wait policies, communicators
};

// The point's team: made on first use, shared by verify() and measure() (core/state.hpp).
inline const Team& team_of(State& state) {
  return state.resource<Team>(state.ctx(), state.point());
}

// Checks shared by every multi-GPU method's usable(): the launch mode and enough GPUs.
Usability team_usable(const RunContext& ctx, const Requirements& req);
// Checks of one configuration: gpu_count within what was given.
Usability team_feasible(const RunContext& ctx, const Point& point);

}  // namespace gb::mg

namespace gb::mg {

// mpi mode: a configuration runs only when every rank can run it (a rank that skipped alone
// would leave the others waiting in a collective). Identity in threads mode. An agreement point
// (core/agreement.hpp): a rank that failed before it makes every rank throw TeamFailure.
Usability agree(const RunContext& ctx, Usability local);

}  // namespace gb::mg

#include "runtime/team.hpp"

#include <omp.h>
#include <pthread.h>
#include <sched.h>

#include <cctype>
#include <exception>
#include <mutex>

#include <fmt/format.h>

#include "core/cuda_check.hpp"
#include "core/faults.hpp"
#include "core/teardown.hpp"
#include "runtime/mpi_check.hpp"
#include "topology/topology.hpp"

namespace gb::mg {
namespace {

// "0000:18:00.0" and "00000000:18:00.0" name the same device: compare without the domain's
// leading zeros and case.
std::string normal_bus_id(const std::string& id) {
  std::string s;
  for (char c : id) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto colon = s.find(':');
  if (colon == std::string::npos) return s;
  const auto first = s.find_first_not_of('0');
  return (first >= colon ? std::string("0") : s.substr(first, colon - first)) + s.substr(colon);
}

// Position of the device in topology->gpus (the indexing of its links and NVLink groups).
int topology_index_of(const topo::Topology* topology, int device) {
  if (!topology) return -1;
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess) return -1;
  for (int i = 0; i < topology->gpu_count(); ++i)
    if (normal_bus_id(topology->gpus[i].pci_bus_id) == normal_bus_id(bus)) return i;
  return -1;
}

unsigned host_wait_flag(HostWait wait) {
  switch (wait) {
    case HostWait::spin:
      return cudaDeviceScheduleSpin;
    case HostWait::blocking:
      return cudaDeviceScheduleBlockingSync;
    case HostWait::automatic:
      break;
  }
  return cudaDeviceScheduleAuto;
}

// Pins the calling thread to the given CPUs (as far as its allowed set permits) for its lifetime.
class ScopedBinding {
 public:
  explicit ScopedBinding(const std::vector<int>& cpus) {
    if (cpus.empty() || pthread_getaffinity_np(pthread_self(), sizeof saved_, &saved_) != 0) return;
    cpu_set_t want;
    CPU_ZERO(&want);
    for (int c : cpus)
      if (c < CPU_SETSIZE && CPU_ISSET(c, &saved_)) CPU_SET(c, &want);
    bound_ =
        CPU_COUNT(&want) > 0 && pthread_setaffinity_np(pthread_self(), sizeof want, &want) == 0;
  }
  ~ScopedBinding() {
    if (bound_) pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_);
  }
  ScopedBinding(const ScopedBinding&) = delete;
  ScopedBinding& operator=(const ScopedBinding&) = delete;

 private:
  cpu_set_t saved_{};
  bool bound_ = false;
};

}  // namespace

Team::Team(const RunContext& ctx, const Point& point)
    : ctx_(ctx), mode_(ctx.launch.under_mpi ? Mode::mpi : Mode::threads) {
  if (ctx.gpus.empty()) throw Error("a multi-GPU team needs at least one GPU");
  if (mode_ == Mode::threads) {
    size_ = static_cast<int>(ctx.gpus.size());
    local_devices_ = ctx.gpus;
  } else {
    size_ = ctx.launch.size;
    first_member_ = ctx.launch.rank;
    local_devices_ = {ctx.gpus.front()};
  }
  failures_.resize(local_devices_.size());
  const auto wait = point.find(kHostWaitAxis);
  for (int d : local_devices_) {
    GB_CUDA_CHECK(cudaSetDevice(d));
    if (wait) {
      GB_CUDA_CHECK(cudaSetDeviceFlags(host_wait_flag(static_cast<HostWait>(*wait))));
      // Later configurations must not inherit this one's scheduling policy.
      releases_.add("the host_wait policy of GPU " + std::to_string(d), [d] {
        const std::string set = cuda_failure(cudaSetDevice(d));
        return set.empty() ? cuda_failure(cudaSetDeviceFlags(cudaDeviceScheduleAuto)) : set;
      });
    }
    cudaStream_t s = nullptr;
    GB_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    releases_.add("a stream of GPU " + std::to_string(d), [d, s] {
      const std::string set = cuda_failure(cudaSetDevice(d));
      return set.empty() ? cuda_failure(cudaStreamDestroy(s)) : set;
    });
    streams_.push_back(s);
  }

  std::vector<int> mine;
  for (int d : local_devices_) {
    mine.push_back(topology_index_of(ctx.topology.get(), d));
    const int t = mine.back();
    cpus_.push_back(t >= 0 && t < ctx.topology->gpu_count() ? ctx.topology->gpus[t].cpus
                                                            : std::vector<int>{});
  }
  topology_index_ = mine;
#ifdef GPUBARRIER_HAVE_MPI
  if (mode_ == Mode::mpi) {
    gb::agree(ctx);  // a rank whose set-up above threw meets the others here, not in the gather
    topology_index_.assign(size_, -1);
    GB_MPI_CHECK(
        MPI_Allgather(mine.data(), 1, MPI_INT, topology_index_.data(), 1, MPI_INT, MPI_COMM_WORLD));
    make_node_comms(ctx);
  }
#endif
  if (layout_.empty()) layout_ = single_node(size_);
}

#ifdef GPUBARRIER_HAVE_MPI
// The layout comes from the session; a run without one (a test's context) is one node. Both
// communicators are split from MPI_COMM_WORLD by every rank, so they exist on every rank or on
// none, whatever a method later needs.
void Team::make_node_comms(const RunContext& ctx) {
  layout_ = ctx.launch.layout.ranks() == size_ ? ctx.launch.layout : single_node(size_);
  const int me = first_member_;
  auto keep = [&](MPI_Comm& comm, const char* what) {
    if (comm == MPI_COMM_NULL) return;
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    releases_.add(what, [&comm] {
      if (MPI_Comm_free(&comm) != MPI_SUCCESS) return std::string("MPI_Comm_free failed");
      return std::string();
    });
  };
  GB_MPI_CHECK(MPI_Comm_split(MPI_COMM_WORLD, layout_.node[me], me, &node_comm_));
  keep(node_comm_, "the node's communicator");
  const int leader = layout_.local[me] == 0 ? 0 : MPI_UNDEFINED;
  GB_MPI_CHECK(MPI_Comm_split(MPI_COMM_WORLD, leader, me, &leaders_comm_));
  keep(leaders_comm_, "the node leaders' communicator");
}
#endif

Team::~Team() = default;  // releases_ gives back the streams and host_wait policies

void Team::parallel(const std::function<void(int local)>& fn) const {
  for (MemberFailure& f : failures_) f.clear();
  // A TeamFailure from fn was thrown on every rank at the same agreement point: it is not
  // agreed on again.
  std::exception_ptr agreed;
  std::mutex agreed_mutex;
  const auto member_part = [&](int l) {
    ScopedBinding bind(cpus_[l]);
    guard(l, [&] {
      GB_CUDA_CHECK(cudaSetDevice(local_devices_[l]));
      faults::throw_if_named(member(l));
    });
    try {
      fn(l);
    } catch (const TeamFailure&) {
      const std::lock_guard<std::mutex> lock(agreed_mutex);
      if (!agreed) agreed = std::current_exception();
    } catch (const std::exception& e) {
      failures_[l].keep(e.what());
    } catch (...) {
      failures_[l].keep("unknown exception");
    }
  };
  if (mode_ == Mode::mpi) {
    member_part(0);
  } else {
#pragma omp parallel num_threads(local_count())
    member_part(omp_get_thread_num());
  }
  if (agreed) std::rethrow_exception(agreed);
  settle(ctx_, failures_, [&](int l) {
    return "thread " + std::to_string(l) + " (GPU " + std::to_string(local_devices_[l]) + ")";
  });
}

void Team::host_barrier() const {
  if (mode_ == Mode::mpi) gb::agree(ctx_);
}

void Team::thread_barrier() const {
  if (mode_ == Mode::threads) {
#pragma omp barrier
  }
}

Usability team_usable(const RunContext& ctx, const Requirements& req) {
  if (const std::string why = mode_problem(ctx.launch, req); !why.empty())
    return Usability::no(why);
  if (ctx.launch.under_mpi && ctx.launch.local_size > ctx.visible_gpus)
    return Usability::no(
        fmt::format("{} ranks on this node share {} GPUs: mpi mode needs one GPU "
                    "per rank",
                    ctx.launch.local_size, ctx.visible_gpus));
  return Usability::yes();
}

Usability team_feasible(const RunContext& ctx, const Point& point) {
  const long asked = point.get(kGpuCountAxis, 0);
  if (ctx.launch.under_mpi) {
    if (asked != 0 && asked != ctx.launch.size)
      return Usability::no(fmt::format(
          "mpi mode runs one GPU per rank: gpu_count={0} needs `mpirun -np {0}`", asked));
    return Usability::yes();
  }
  if (asked < 0 || asked > static_cast<long>(ctx.gpus.size()))
    return Usability::no(
        fmt::format("gpu_count={} but {} GPUs are given (--gpus)", asked, ctx.gpus.size()));
  return Usability::yes();
}

}  // namespace gb::mg

namespace gb::mg {

Usability agree(const RunContext& ctx, Usability local) {
  const bool anyone_refuses = any_rank_refuses(ctx, !local.ok);
  if (anyone_refuses && local.ok)
    return Usability::no("another rank cannot run this configuration");
  return local;
}

}  // namespace gb::mg

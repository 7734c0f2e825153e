// Thread-block-cluster barriers (sm_90): the kernels and the Method shared by every barrier
// across the blocks of a cluster. Latency with one cluster, throughput with many over
// blocks/SM. Clusters are launched with cudaLaunchKernelEx; a size the GPU cannot place
// (cudaOccupancyMaxActiveClusters says 0, or refuses the size) is a skipped row. A barrier is one
// type in its own file under kernels/cluster/ (cluster_sync.cu, arrive_wait.cu):
//
//   struct MyBarrier {
//     static inline const MethodInfo info{.name = "gpu.cluster.<...>", .description = "...",
//                                         .timed = {...}};  // its frame adds level and axes
//     template <class Cluster>                        // cg::cluster_group; a template, so that
//     __device__ static void sync(const Cluster&);    // pre-sm_90 passes never compile its body
//   };
//   GB_REGISTER_METHOD(gb::cluster_detail::ClusterBarrierMethod<gb::cluster::MyBarrier>)
//
// `info` is the method's MethodInfo (core/method.hpp) but its level and axes, the frame's; the
// concept ClusterBarrier states these members: a type that lacks or misspells one is no cluster
// barrier, and its registration does not compile.
#pragma once

#include <cooperative_groups.h>

#include <concepts>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cluster/detail/cluster_throughput.cuh"
#include "common/device_buffer.hpp"
#include "common/sm_clock.hpp"
#include "common/sm_throughput.cuh"
#include "common/stamp_check.cuh"
#include "core/faults.hpp"
#include "core/stamp_check.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "runtime/timers.cuh"

namespace gb::cluster_detail {

namespace cg = cooperative_groups;

constexpr int kUnroll = 32;  // barriers per loop trip: keeps loop overhead out of the figure
constexpr long kReps = 4096;
constexpr int kCheckRounds = 64;

// Clusters exist from sm_90 on; older device passes (a multi-architecture build) get a kernel
// that traps, and requirements() keeps the method from running there.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define GB_HAS_CLUSTERS 1
#else
#define GB_HAS_CLUSTERS 0
#endif

template <class B>
concept ClusterBarrierMembers = requires {
  { B::info } -> std::same_as<const MethodInfo&>;
};

#if GB_HAS_CLUSTERS
template <class B>
concept ClusterBarrier = ClusterBarrierMembers<B> && requires(const cg::cluster_group& cluster) {
  { B::sync(cluster) } -> std::same_as<void>;
};
#else
// Device passes below sm_90 know no cluster group; the host pass checks sync().
template <class B>
concept ClusterBarrier = ClusterBarrierMembers<B>;
#endif

template <ClusterBarrier B>
__device__ __forceinline__ void cluster_barrier() {
#if GB_HAS_CLUSTERS
  const cg::cluster_group cluster = cg::this_cluster();
  B::sync(cluster);
#else
  __trap();
#endif
}

// Latency (one cluster) and throughput (many clusters) from one kernel.
template <ClusterBarrier B>
__global__ void cluster_barrier_timed(long trips, WarpSpan* spans) {
  dev::timed_chain<kUnroll>(trips, spans, [] { cluster_barrier<B>(); });
}

// Each thread publishes its stamp in its block's shared memory; after the barrier it reads, in
// every block of the cluster, the stamp of its neighbour thread (t + 1) through distributed
// shared memory. Every stamp is so read from every block, at a cost linear in the cluster size.
// Clocks are per SM, so the order check runs within each block: records[round][global thread].
// One warp of one block arrives late in every round (stamp_check.cuh): the blocks in turn, the
// warp drawn from `seed`. The 32 threads whose neighbours are in it read its stamps in every
// block, so a barrier that does not wait for it is seen from the other blocks, and from its own
// block too when that has more warps; only a cluster of one block of one warp has nobody to be
// late for. `broken` (test hook GPUBARRIER_TEST_BREAK, core/faults.hpp) leaves the barrier under
// test out.
template <ClusterBarrier B>
__global__ void cluster_barrier_check(int rounds, StampRecord* records, int broken, unsigned seed) {
#if GB_HAS_CLUSTERS
  extern __shared__ unsigned stamps[];  // dev::kStampSlots x blockDim.x
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned t = threadIdx.x, n = blockDim.x;
  const unsigned neighbour = (t + 1) % n;
  const int blocks = static_cast<int>(cluster.num_blocks());
  const dev::LateTurn late{static_cast<int>(cluster.block_rank()), blocks, t / 32, (n + 31) / 32,
                           seed};
  for (int k = 0; k < dev::kStampSlots; ++k) static_cast<volatile unsigned*>(stamps)[k * n + t] = 0;
  cluster.sync();
  dev::stamp_rounds(
      rounds, records + blockIdx.x * blockDim.x + t, static_cast<int>(gridDim.x * blockDim.x),
      [&](unsigned r) { static_cast<volatile unsigned*>(stamps)[dev::stamp_slot(r) * n + t] = r; },
      [&] {
        if (!broken) cluster_barrier<B>();
      },
      blocks,
      [&](int b, unsigned r) {
        return static_cast<volatile unsigned*>(
            cluster.map_shared_rank(stamps, b))[dev::stamp_slot(r) * n + neighbour];
      },
      late);
  cluster.sync();  // no block may exit while a peer still reads its shared memory
#else
  __trap();
#endif
}

// One launch configuration with the cluster dimension attached; `attr` must outlive `config`.
inline cudaLaunchConfig_t cluster_config(int cluster_size, int clusters, int threads,
                                         std::size_t shared, cudaLaunchAttribute& attr) {
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = static_cast<unsigned>(cluster_size);
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(cluster_size * clusters));
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.dynamicSmemBytes = shared;
  config.attrs = &attr;
  config.numAttrs = 1;
  return config;
}

// Latency: one cluster alone on the GPU, reported at blocks_per_sm = 1 only; the figure is block
// 0's first warp, as for blocks. Throughput at every blocks_per_sm: blocks_per_sm x SMs / cluster
// size clusters (rounded down) at once, each block repeating the barrier in the same kernel,
// counted in cluster barriers for the whole GPU (cluster_throughput.cuh) with the active
// clusters and active_warps_per_sm in the note. A count above what cudaOccupancyMaxActiveClusters
// allows would not be resident at once: skipped.
template <ClusterBarrier B>
class ClusterBarrierMethod final : public Method {
 public:
  ClusterBarrierMethod()
      : Method(framed(B::info, Level::cluster,
                      {{"cluster_size", {1, 2, 4, 8, 16}},
                       {"threads_per_block", {32, 64, 128, 256, 512, 1024}},
                       {"blocks_per_sm", {1, 2, 4, 8, 16, 32}}})) {}
  Requirements requirements() const override { return Requirements::single_gpu(90); }

  Usability feasible(const RunContext& ctx, const Point& p) const override {
    const long size = p.at("cluster_size");
    const long threads = p.at("threads_per_block");
    const long per_sm = p.at("blocks_per_sm");
    if (threads < 1 || threads > 1024)
      return Usability::no("threads_per_block must be within 1..1024");
    if (size < 1) return Usability::no("cluster_size must be at least 1");
    if (per_sm < 1) return Usability::no("blocks_per_sm must be at least 1");
    const int device = ctx.gpus.front();
    GB_CUDA_CHECK(cudaSetDevice(device));
    const int s = static_cast<int>(size), n = static_cast<int>(threads);
    const Placement timed = placement(cluster_barrier_timed<B>, s, n, 0);
    if (!timed.usable.ok) return timed.usable;
    if (const Placement c =
            placement(cluster_barrier_check<B>, s, n, dev::kStampSlots * n * sizeof(unsigned));
        !c.usable.ok)
      return c.usable;
    const int sms = multiprocessor_count(device);
    const long wanted = per_sm * sms / size;
    if (wanted < 1)  // a small MIG slice: fewer SMs than blocks in one cluster
      return Usability::no("blocks_per_sm=" + std::to_string(per_sm) + " x " + std::to_string(sms) +
                           " SMs holds no cluster of " + std::to_string(size) + " blocks");
    if (wanted > timed.clusters)
      return Usability::no("occupancy: at most " + std::to_string(timed.clusters) + " " +
                           describe(s, n) + " are co-resident, blocks_per_sm=" +
                           std::to_string(per_sm) + " needs " + std::to_string(wanted));
    return Usability::yes();
  }

  Verification verify(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    GB_CUDA_CHECK(cudaSetDevice(ctx.gpus.front()));
    const int size = static_cast<int>(p.at("cluster_size"));
    const int threads = static_cast<int>(p.at("threads_per_block"));
    const int participants = size * threads;
    DeviceBuffer<StampRecord> records(static_cast<std::size_t>(kCheckRounds) * participants);
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t config =
        cluster_config(size, 1, threads, dev::kStampSlots * threads * sizeof(unsigned), attr);
    GB_CUDA_CHECK(cudaLaunchKernelEx(&config, cluster_barrier_check<B>, kCheckRounds, records.get(),
                                     static_cast<int>(faults::break_check(name())), check_seed()));
    GB_CUDA_CHECK(cudaDeviceSynchronize());
    StampLayout layout{kCheckRounds, participants, std::vector<int>(participants)};
    for (int i = 0; i < participants; ++i) layout.clock_group[i] = i / threads;
    return check_stamps(records.to_host(), layout).verdict();
  }

  std::vector<Measurement> measure(State& state) override {
    RunContext& ctx = state.ctx();
    const Point& p = state.point();
    const int device = ctx.gpus.front();
    const int size = static_cast<int>(p.at("cluster_size"));
    const int threads = static_cast<int>(p.at("threads_per_block"));
    const int per_sm = static_cast<int>(p.at("blocks_per_sm"));
    const SmClock clock = measure_sm_clock(device);
    const int sms = multiprocessor_count(device);
    const int clusters = per_sm * sms / size;
    const int warps = warps_per_block(threads);
    DeviceBuffer<WarpSpan> spans(static_cast<std::size_t>(clusters) * size * warps);
    auto run = [&](int n) {
      cudaLaunchAttribute attr;
      const cudaLaunchConfig_t config = cluster_config(size, n, threads, 0, attr);
      GB_CUDA_CHECK(
          cudaLaunchKernelEx(&config, cluster_barrier_timed<B>, kReps / kUnroll, spans.get()));
      GB_CUDA_CHECK(cudaDeviceSynchronize());
      return spans.to_host();
    };
    std::vector<Measurement> rows;
    if (per_sm == 1) rows = lone_latency(ctx, run, clock, kReps);
    const int most = placement(cluster_barrier_timed<B>, size, threads, 0).clusters;
    const std::string shape = "active_clusters=" + std::to_string(clusters) + " (blocks_per_sm x " +
                              std::to_string(sms) + " SMs / cluster_size; at most " +
                              std::to_string(most) + " co-resident)";
    auto rate = [&] { return gpu_rate(run(clusters), kReps, size * warps); };
    for (Measurement& m : gpu_throughput(ctx, rate, clock, kReps, shape))
      rows.push_back(std::move(m));
    return rows;
  }

 private:
  struct Placement {
    Usability usable;
    int clusters = 0;  // cudaOccupancyMaxActiveClusters
  };

  static std::string describe(int size, int threads) {
    return "clusters of " + std::to_string(size) + " blocks x " + std::to_string(threads) +
           " threads";
  }

  // Sizes above 8 are non-portable: the kernel must opt in before the occupancy query.
  template <typename... Args>
  static Placement placement(void (*kernel)(Args...), int size, int threads, std::size_t shared) {
    GB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t config = cluster_config(size, 1, threads, shared, attr);
    int clusters = 0;
    const cudaError_t rc = cudaOccupancyMaxActiveClusters(&clusters, kernel, &config);
    if (rc != cudaSuccess) {
      cudaGetLastError();  // a refused size is not sticky: clear it so later checks pass
      return {Usability::no("the GPU refuses " + describe(size, threads) + ": " +
                            cudaGetErrorString(rc)),
              0};
    }
    if (clusters == 0) return {Usability::no("the GPU cannot place " + describe(size, threads)), 0};
    return {Usability::yes(), clusters};
  }
};

}  // namespace gb::cluster_detail

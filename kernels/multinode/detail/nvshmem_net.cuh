// The network hop of multinode.hierarchical with network=1 (detail/node_gather.cuh's policy Net):
// the node leaders' GPUs cross with device-initiated NVSHMEM signals, with no host thread in the
// path. A dissemination barrier among the leaders (as multigpu.device.dissemination among GPUs):
// in round k, leader i sets round word k of leader i + 2^k (mod n) to the epoch with
// nvshmemx_signal_op and waits until its own round word k reaches the epoch (every spin under
// the watchdog). Round words only grow, so a leader that runs ahead into the next epoch cannot
// confuse one still in this one. Between nodes NVSHMEM carries the signal over InfiniBand (IBGDA:
// the GPU rings the NIC itself; otherwise NVSHMEM's proxy thread); between simulated nodes on
// one machine, over NVLink. Compiled only in the NVSHMEM target (needs nvshmem.h and -rdc).
#pragma once

#include <nvshmem.h>
#include <nvshmemx.h>

#include <cstdint>

#include "multinode/detail/node_gather.cuh"

namespace gb::mg {

struct NvshmemNet {
  static constexpr int kMaxLeaders = 128;
  static constexpr int kMaxRounds = 7;  // ceil(log2(kMaxLeaders))

  // Symmetric (nvshmem_calloc): the same address names every PE's copy. Leaders use theirs.
  struct Sym {
    alignas(128) Word arrived;            // the last epoch this leader's node gathered (check)
    alignas(128) Word round[kMaxRounds];  // round k's signal from leader - 2^k
  };
  struct Args {
    Sym* sym = nullptr;
    Word base = 0;                 // epochs of earlier sessions on these words (they only grow)
    int leader = 0, leaders = 1;   // this node's index, the number of nodes
    int pe[kMaxLeaders] = {};      // every node's leader PE, by node index
  };

  __device__ static bool cross(const BarrierArgs& a, const Args& x, Word e) {
    const Ordering o = a.ordering;
    const Word v = x.base + e;
    const int i = x.leader, n = x.leaders;
    // The node's writes, and `arrived` (which other leaders read while checking), before the
    // first signal: NVSHMEM's signal_op orders nothing of its own.
    store_signal(&x.sym->arrived, v, o);
    __threadfence_system();
    for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
      nvshmemx_signal_op(reinterpret_cast<std::uint64_t*>(&x.sym->round[k]), v, NVSHMEM_SIGNAL_SET,
                         x.pe[(i + d) % n]);
      if (!a.waits()) continue;
      if (!wait_at_least(&x.sym->round[k], v, o, a.self, a.watchdog_ns)) return false;
      fence_if_relaxed(o);
    }
    return true;
  }

  // The check, in the leader GPU's block 0: every other leader's `arrived` (nvshmem_g, across the
  // network) must hold the epoch once this one crossed. Other blocks see their node's release.
  __device__ static bool crossed(const BarrierArgs& a, const Args& x, Word e) {
    if (a.member != 0 || blockIdx.x != 0) return true;
    const auto* arrived = reinterpret_cast<const std::uint64_t*>(&x.sym->arrived);
    for (int j = 0; j < x.leaders; ++j)
      if (j != x.leader && nvshmem_uint64_g(arrived, x.pe[j]) < x.base + e) return false;
    return true;
  }
};

using NodeNvshmem = NodeGather<NvshmemNet>;

}  // namespace gb::mg

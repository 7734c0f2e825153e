// The device side of multinode.hierarchical (kernels/multinode/hierarchical.cu): one barrier
// crossing in three hops.
//   (i)   The GPUs of one node gather as multigpu.device.push does (multigpu/push.cuh):
//         every block arrives on its GPU's count; the block that completes it signals the
//         node's other GPUs' inboxes; every block waits for its count and its inbox. The words
//         span the node's GPUs only (BarrierMemory with Span::node), so member/members are
//         node-local here.
//   (ii)  Block 0 of the node's leader GPU (node member 0) crosses the network with the other
//         nodes' leaders (the policy Net below).
//   (iii) It then writes the epoch into every node GPU's release word, in that GPU's own memory;
//         every block waits on its own GPU's word.
// Every spin carries the watchdog (wait_at_least), so a node that never arrives ends the kernel
// as a timeout. While checking, every block also asks Net whether it can see a node that had not
// arrived, which the stamps cannot show (they never leave the node).
#pragma once

#include <cstddef>
#include <string_view>

#include "multigpu/push.cuh"
#include "runtime/node_proxy.hpp"

namespace gb::mg {

// The network hop (ii) is a policy `Net`: HostProxyNet below (network=0), or NVSHMEM's
// device-initiated signals between the node leaders (network=1: detail/nvshmem_net.cuh, built
// with NVSHMEM only). A Net holds
//   struct Args;  its kernel arguments;
//   __device__ static bool cross(const BarrierArgs&, const Args&, Word e);  the leader GPU's block
//       0, thread 0: publish that the node gathered epoch e, wait until every node did (false:
//       the watchdog expired);
//   __device__ static bool crossed(const BarrierArgs&, const Args&, Word e);  the check, thread 0
//       of every block after the crossing: false when this block can see that a node had not yet
//       arrived.
template <class Net>
struct NodeGather {
  static constexpr std::string_view name = "multinode.hierarchical";

  struct Words {
    Push::Words push;             // first: Push::cross addresses these words as its own
    alignas(128) Word release;    // from the node's leader GPU: the epoch its blocks may pass
    alignas(128) unsigned early;  // check: blocks that passed before their node's release
  };
  using Args = typename Net::Args;

  __device__ static bool cross(const BarrierArgs& a, const Args& x, Word e) {
    if (!Push::cross(a, Push::Args{}, e)) return false;  // (i); ends in __syncthreads
    const Ordering o = a.ordering;
    Words* self = a.own_words<Words>();
    __shared__ bool ok;
    if (threadIdx.x == 0) {
      bool good = true;
      if (a.member == 0 && blockIdx.x == 0) {  // (ii) the node's leader GPU, one block
        good = Net::cross(a, x, e);
        for (int j = 0; good && j < a.members; ++j)  // (iii)
          store_signal(&a.words_of<Words>(j)->release, e, o);
      }
      if (good && a.waits()) good = wait_at_least(&self->release, e, o, a.self, a.watchdog_ns);
      fence_if_relaxed(o);
      if (good && a.stamps[0] != nullptr && !Net::crossed(a, x, e)) atomicAdd(&self->early, 1u);
      ok = good;
    }
    __syncthreads();
    return ok;
  }

  // Where the check's counter lies in a member's words (the host reads it after a launch).
  static constexpr std::size_t early_offset() { return offsetof(Words, early); }
};

// network=0: the leader GPU publishes the epoch to the node's host-mapped arrival word (a
// system-scope release) and waits for the release word that its host proxy writes once the node
// leaders crossed the network (runtime/node_proxy.hpp). The check: every block reads that release
// word after the crossing; below the epoch, the block passed before its proxy's network crossing
// returned, which the stamps cannot show (they never leave the node).
struct HostProxyNet {
  struct Args {
    ProxyWords* host = nullptr;  // the node's proxy words, as this GPU addresses them
  };
  __device__ static bool cross(const BarrierArgs& a, const Args& x, Word e) {
    const Ordering o = a.ordering;
    fence_if_relaxed(o);
    store_signal(&x.host->arrived, e, o);
    const bool good = !a.waits() || wait_at_least(&x.host->release, e, o, a.self, a.watchdog_ns);
    fence_if_relaxed(o);
    return good;
  }
  __device__ static bool crossed(const BarrierArgs& a, const Args& x, Word e) {
    return load_signal(&x.host->release, a.ordering) >= e;
  }
};

using NodeHierarchical = NodeGather<HostProxyNet>;

}  // namespace gb::mg

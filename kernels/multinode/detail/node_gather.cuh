// The device side of multinode.hierarchical (kernels/multinode/hierarchical.cu): one barrier
// crossing in three hops.
//   (i)   The GPUs of one node gather as multigpu.device.push does (multigpu/detail/push.cuh):
//         every block arrives on its GPU's count; the block that completes it signals the
//         node's other GPUs' inboxes; every block waits for its count and its inbox. The words
//         span the node's GPUs only (BarrierMemory with Span::node), so member/members are
//         node-local here.
//   (ii)  Block 0 of the node's leader GPU (node member 0) publishes the epoch to the node's
//         host-mapped arrival word (a system-scope release) and waits for the release word that
//         its host proxy writes once the node leaders crossed the network
//         (team/node_proxy.hpp).
//   (iii) It then writes the epoch into every node GPU's release word, in that GPU's own memory;
//         every block waits on its own GPU's word.
// Every spin carries the watchdog (wait_at_least), so a node that never arrives ends the kernel
// as a timeout. While checking, every block also reads its node's host release word after the
// crossing: below the epoch, the block passed before its proxy's network crossing returned,
// which the stamps cannot show (they never leave the node).
#pragma once

#include <cstddef>
#include <string_view>

#include "multigpu/detail/push.cuh"
#include "team/node_proxy.hpp"

namespace gb::mg {

struct NodeHierarchical {
  static constexpr std::string_view name = "multinode.hierarchical";

  struct Words {
    Push::Words push;             // first: Push::cross addresses these words as its own
    alignas(128) Word release;    // from the node's leader GPU: the epoch its blocks may pass
    alignas(128) unsigned early;  // check: blocks that passed before their node's release
  };
  struct Args {
    ProxyWords* host = nullptr;  // the node's proxy words, as this GPU addresses them
  };

  __device__ static bool cross(const BarrierArgs& a, const Args& x, Word e) {
    if (!Push::cross(a, Push::Args{}, e)) return false;  // (i); ends in __syncthreads
    const Ordering o = a.ordering;
    Words* self = a.own_words<Words>();
    __shared__ bool ok;
    if (threadIdx.x == 0) {
      bool good = true;
      if (a.member == 0 && blockIdx.x == 0) {  // (ii) the node's leader GPU, one block
        fence_if_relaxed(o);
        store_signal(&x.host->arrived, e, o);
        if (a.waits()) good = wait_at_least(&x.host->release, e, o, a.self, a.watchdog_ns);
        fence_if_relaxed(o);
        for (int j = 0; good && j < a.members; ++j)  // (iii)
          store_signal(&a.words_of<Words>(j)->release, e, o);
      }
      if (good && a.waits()) good = wait_at_least(&self->release, e, o, a.self, a.watchdog_ns);
      fence_if_relaxed(o);
      if (good && a.stamps[0] != nullptr && load_signal(&x.host->release, o) < e)
        atomicAdd(&self->early, 1u);
      ok = good;
    }
    __syncthreads();
    return ok;
  }

  // Where the check's counter lies in a member's words (the host reads it after a launch).
  static constexpr std::size_t early_offset() { return offsetof(Words, early); }
};

}  // namespace gb::mg

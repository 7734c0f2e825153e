// The memory of one device-side barrier configuration (host side): in every member's own GPU one
// allocation laid out as [control words][one stamp per block][the algorithm's words][one payload
// word per thread of every block] (stamps and payload: the check, frame/crossing.cuh), reached by
// the peers over NVLink/PCIe (runtime/peer_memory.hpp), the kernel arguments over it that every
// algorithm shares, and the number of barriers crossed on it so far: its words only grow, so
// each launch goes on from the last one's epoch (verification and timing share it).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/run_context.hpp"
#include "runtime/barrier_args.cuh"
#include "runtime/peer_memory.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

inline constexpr std::uint64_t kLateNs = 20000;  // far above any barrier's latency

// The seed of the check's draws (which block is late, whose payload each block reads): fixed, so
// that a run repeats; GPUBARRIER_CHECK_SEED=<n> draws others.
inline unsigned check_seed() {
  const char* v = std::getenv("GPUBARRIER_CHECK_SEED");
  return v ? static_cast<unsigned>(std::strtoul(v, nullptr, 10)) : 1u;
}

// blocks_per_sm on every SM: the grid of the persistent kernel on each GPU.
inline int blocks_per_gpu(const Team& team, const Point& p) {
  int sms = 0;
  GB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, team.device(0)));
  return static_cast<int>(p.at("blocks_per_sm")) * sms;
}

// The ordering a point's barriers use: its `ordering` axis, or none under the unordered fault.
inline Ordering point_ordering(const Point& p) {
  return p.choice("fault", Fault::none) == Fault::unordered ? Ordering::unordered
                                                            : p.choice<Ordering>("ordering");
}

class BarrierMemory {
 public:
  // Collective. `words_bytes`: the algorithm's words per member. `span`: whose GPUs share the
  // memory and count as the barrier's members: the team's, or this node's (the intra-node part
  // of multinode.hierarchical; stamps and payload are then checked among the node's GPUs).
  BarrierMemory(const RunContext& ctx, const Team& team, const Point& p, int blocks,
                std::size_t words_bytes, Span span = Span::team)
      : ctx_(ctx),
        team_(team),
        mem_(team,
             payload_offset(blocks, words_bytes) +
                 static_cast<std::size_t>(blocks) * p.at("threads_per_block") * sizeof(unsigned),
             span) {
    const int members = team.size(span);
    for (int l = 0; l < team.local_count(); ++l) {
      BarrierArgs a;
      std::vector<unsigned*> stamps(members), payload(members);
      for (int m = 0; m < members; ++m) {
        auto* base = static_cast<char*>(mem_.at(l, m));
        a.words[m] = base + words_offset(blocks);
        stamps[m] = reinterpret_cast<unsigned*>(base + sizeof(Control));
        payload[m] = reinterpret_cast<unsigned*>(base + payload_offset(blocks, words_bytes));
      }
      stamps_.push_back(std::move(stamps));
      payload_.push_back(std::move(payload));
      a.self = static_cast<Control*>(mem_.own(l));
      a.member = team.member(span, l);
      a.own = a.words[a.member];
      a.members = members;
      a.rank = team.member(l);
      a.ranks = team.size();
      a.fault = p.choice("fault", Fault::none);
      a.ordering = point_ordering(p);
      a.watchdog_ns = static_cast<std::uint64_t>(ctx.options.watchdog_s * 1e9);
      a.seed = check_seed();
      args_.push_back(a);
    }
  }

  // Verification: every block stamps and writes its payload before each barrier and checks every
  // stamp and one other block's payload after it (one participant late, in turn). Off while
  // timing, so the check costs the figure nothing. Under fault=3 nobody is late: lateness would
  // give the unordered stores time to land, and that fault is about ordering, not waiting.
  void set_checking(bool on) {
    for (std::size_t l = 0; l < args_.size(); ++l) {
      BarrierArgs& a = args_[l];
      for (int m = 0; m < a.members; ++m) {
        a.stamps[m] = on ? stamps_[l][m] : nullptr;
        a.payload[m] = on ? payload_[l][m] : nullptr;
      }
      a.late_ns = on && a.fault != Fault::unordered ? kLateNs : 0;
    }
  }

  // `reps` crossings on every GPU of the team: launch(l, args) starts local member l's kernel and
  // waits for it. Seconds from the first launch to the last wait.
  double run(long reps, const std::function<void(int local, BarrierArgs& args)>& launch) {
    for (auto& a : args_) {
      a.reps = reps;
      a.epoch0 = epoch_;
    }
    const auto t0 = std::chrono::steady_clock::now();
    team_.parallel([&](int l) { launch(l, args_[l]); });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    epoch_ += static_cast<Word>(reps);
    return seconds;
  }

  // Local member l's kernel arguments, for a kernel that crosses the barrier amid work of its
  // own (kernels/reduction/multi_device_barrier.cu) and counts its epochs itself.
  const BarrierArgs& args(int local) const { return args_[local]; }

  // {stale stamps, expired spins, stale payload words} of the whole team so far (the largest per
  // rank in mpi mode).
  std::vector<double> problems() const {
    std::vector<double> sums{0, 0, 0};
    // Read inside parallel(), whose end is an agreement point: a rank whose read fails meets
    // the others there, not in the maximum below (core/agreement.hpp).
    std::vector<Control> seen(static_cast<std::size_t>(team_.local_count()));
    team_.parallel([&](int l) {
      GB_CUDA_CHECK(cudaMemcpy(&seen[static_cast<std::size_t>(l)], mem_.own(l), sizeof(Control),
                               cudaMemcpyDeviceToHost));
    });
    for (const Control& c : seen) {
      sums[0] += c.stale;
      sums[1] += c.timeouts;
      sums[2] += c.payload_stale;
    }
    ctx_.max_over_ranks(sums);
    return sums;
  }

 private:
  // Control words, then one stamp per block, then (128-byte aligned) the algorithm's words.
  // DIAGNOSTIC: GPUBARRIER_PROBE_WORDS_PAD=<bytes> moves the algorithm's words that far (rounded
  // up to 128) into the allocation, to show how a figure depends on where its words land in L2
  // (results/README.md, "Where the words land"). Unset in every published run.
  static std::size_t words_offset(int blocks) {
    static const std::size_t pad = [] {
      const char* v = std::getenv("GPUBARRIER_PROBE_WORDS_PAD");
      return v ? static_cast<std::size_t>(std::strtoull(v, nullptr, 10)) : std::size_t{0};
    }();
    const std::size_t end =
        sizeof(Control) + static_cast<std::size_t>(blocks) * sizeof(unsigned) + pad;
    return (end + 127) / 128 * 128;
  }
  // After the algorithm's words, so that the check moves no word the timed path touches.
  static std::size_t payload_offset(int blocks, std::size_t words_bytes) {
    return (words_offset(blocks) + words_bytes + 127) / 128 * 128;
  }

  const RunContext& ctx_;
  const Team& team_;
  PeerMemory mem_;
  std::vector<std::vector<unsigned*>> stamps_;   // [local][member], as local's GPU addresses them
  std::vector<std::vector<unsigned*>> payload_;  // likewise
  std::vector<BarrierArgs> args_;
  Word epoch_ = 0;
};

}  // namespace gb::mg

// The memory of one device-side barrier configuration (host side): in every member's own GPU one
// allocation laid out as [control words][one stamp per block][the algorithm's words], reached by
// the peers over NVLink/PCIe (team/peer_memory.hpp), the kernel arguments over it that every
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
#include "multigpu/detail/crossing.cuh"
#include "team/peer_memory.hpp"
#include "team/team.hpp"

namespace gb::mg {

inline constexpr std::uint64_t kLateNs = 20000;  // far above any barrier's latency

// blocks_per_sm on every SM: the grid of the persistent kernel on each GPU.
inline int blocks_per_gpu(const Team& team, const Point& p) {
  int sms = 0;
  GB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, team.device(0)));
  return static_cast<int>(p.at("blocks_per_sm")) * sms;
}

class BarrierMemory {
 public:
  // Collective. `words_bytes`: the algorithm's words per member.
  BarrierMemory(const RunContext& ctx, const Team& team, const Point& p, int blocks,
                std::size_t words_bytes)
      : ctx_(ctx), team_(team), mem_(team, words_offset(blocks) + words_bytes) {
    for (int l = 0; l < team.local_count(); ++l) {
      BarrierArgs a;
      std::vector<unsigned*> stamps(team.size());
      for (int m = 0; m < team.size(); ++m) {
        auto* base = static_cast<char*>(mem_.at(l, m));
        a.words[m] = base + words_offset(blocks);
        stamps[m] = reinterpret_cast<unsigned*>(base + sizeof(Control));
      }
      stamps_.push_back(std::move(stamps));
      a.self = static_cast<Control*>(mem_.own(l));
      a.member = team.member(l);
      a.own = a.words[a.member];
      a.members = team.size();
      a.ordering = static_cast<Ordering>(p.at("ordering"));
      a.fault = static_cast<Fault>(p.get("fault", 0));
      a.watchdog_ns = static_cast<std::uint64_t>(ctx.options.watchdog_s * 1e9);
      args_.push_back(a);
    }
  }

  // Verification: every block stamps before each barrier and checks every stamp after it (the
  // last block of the last member late). Off while timing, so the check costs the figure nothing.
  void set_checking(bool on) {
    for (std::size_t l = 0; l < args_.size(); ++l) {
      for (int m = 0; m < args_[l].members; ++m) args_[l].stamps[m] = on ? stamps_[l][m] : nullptr;
      args_[l].late_ns = on ? kLateNs : 0;
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

  // {stale stamps, expired spins} of the whole team so far (the largest per rank in mpi mode).
  std::vector<double> problems() const {
    std::vector<double> sums{0, 0};
    for (int l = 0; l < team_.local_count(); ++l) {
      Control c{};
      GB_CUDA_CHECK(cudaSetDevice(team_.device(l)));
      GB_CUDA_CHECK(cudaMemcpy(&c, mem_.own(l), sizeof c, cudaMemcpyDeviceToHost));
      sums[0] += c.stale;
      sums[1] += c.timeouts;
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

  const RunContext& ctx_;
  const Team& team_;
  PeerMemory mem_;
  std::vector<std::vector<unsigned*>> stamps_;  // [local][member], as local's GPU addresses them
  std::vector<BarrierArgs> args_;
  Word epoch_ = 0;
};

}  // namespace gb::mg

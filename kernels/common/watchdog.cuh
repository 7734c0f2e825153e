// The device half of the watchdog (src/core/watchdog.hpp says why there is one): spin loops ask
// dev::Spin::expired() once per poll, and the host owns the flag through DeviceWatchdog.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/device_buffer.hpp"
#include "core/watchdog.hpp"
#include "runtime/timers.cuh"

namespace gb {
namespace dev {

struct GlobalTimer {
  __device__ std::uint64_t operator()() const { return global_ns(); }
};

// The launch-wide flag: volatile reads so that a spinner sees another block's alarm.
struct TrippedFlag {
  unsigned* word;
  __device__ bool raised() const { return *static_cast<volatile unsigned*>(word) != 0; }
  __device__ void raise() const { atomicExch(word, 1u); }
};

using Spin = SpinBudget<GlobalTimer, TrippedFlag>;

// A fresh budget for one spin loop.
__device__ inline Spin spin_budget(const WatchdogArgs& w) {
  return Spin(w.budget_ns, GlobalTimer{}, TrippedFlag{w.tripped});
}

// Spins until `done()` holds; false when the budget expired (or another spinner gave up) first.
template <class Done>
__device__ bool spin_until(Spin& spin, Done done) {
  while (!done())
    if (spin.expired()) return false;
  return true;
}

}  // namespace dev

// Host side: owns the flag of the launches of one verify() or measure() call.
class DeviceWatchdog {
 public:
  explicit DeviceWatchdog(const RunContext& ctx)
      : options_(ctx.options), budget_ns_(watchdog_budget_ns(ctx.options)), flag_(1) {}
  WatchdogArgs args() const { return {budget_ns_, flag_.get()}; }
  // Read after the launch has finished.
  bool tripped() const { return flag_.to_host()[0] != 0; }
  std::string detail(std::string_view where) const { return watchdog_detail(options_, where); }
  void throw_if_tripped(std::string_view where) const {
    if (tripped()) throw WatchdogTimeout(detail(where));
  }

 private:
  RunOptions options_;
  std::uint64_t budget_ns_;
  DeviceBuffer<unsigned> flag_;
};

}  // namespace gb

// The watchdog that keeps device spin loops from hanging the tool (README.md, "Methods"; the
// study's section 8.2: a barrier that part of the group never reaches waits forever). Every spin
// loop of our own barriers gives up once its budget of %globaltimer time is spent, or as soon as
// any other spinner has given up, and raises a flag in device memory; the host turns the flag into
// a `timeout` row instead of a hung process.
//
// A watchdog in our spin loops, not a host-side timeout that resets the context: a reset destroys
// every allocation, stream and graph of the process (the rest of the sweep would have to rebuild
// them), it does not reliably get a still-spinning kernel off a shared GPU, and the kernel that
// gives up by itself says which barrier failed. cg::grid_group::sync() spins inside CUDA where no
// watchdog can reach, so methods built on it only ever run with the whole grid participating.
//
// The give-up rule is a template over its clock and flag so that the same code runs on the
// device (kernels/common/watchdog.cuh) and in CPU unit tests.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/method.hpp"
#include "core/run_context.hpp"
#include "errors/errors.hpp"

#if defined(__CUDACC__)
#define GB_HOST_DEVICE __host__ __device__
#define GB_EXEC_CHECK_DISABLE _Pragma("nv_exec_check_disable")
#else
#define GB_HOST_DEVICE
#define GB_EXEC_CHECK_DISABLE
#endif

namespace gb {

// What a kernel receives: the budget per spin loop and the flag to raise (zero at launch).
struct WatchdogArgs {
  std::uint64_t budget_ns = 0;
  unsigned* tripped = nullptr;
};

// One spin loop's budget. Clock: `std::uint64_t operator()()` in ns. Flag: `bool raised()`
// and `void raise()`, shared by every spinner of a launch.
template <class Clock, class Flag>
class SpinBudget {
 public:
  // The clock and the shared flag are read once per kCheckEvery spins: a barrier that completes
  // within that many polls (all healthy ones) pays nothing for the watchdog.
  static constexpr unsigned kCheckEvery = 64;

  GB_HOST_DEVICE SpinBudget(std::uint64_t budget_ns, Clock clock, Flag flag)
      : budget_ns_(budget_ns), clock_(clock), flag_(flag) {}

  // Call once per poll of the spin loop; true means: give up now.
  GB_EXEC_CHECK_DISABLE
  GB_HOST_DEVICE bool expired() {
    if (++spins_ % kCheckEvery != 0) return false;
    const std::uint64_t now = clock_();
    if (spins_ == kCheckEvery) {  // the budget starts when the loop has shown it is waiting
      start_ = now;
      return false;
    }
    if (flag_.raised()) return true;
    if (now - start_ < budget_ns_) return false;
    flag_.raise();
    return true;
  }

 private:
  std::uint64_t budget_ns_;
  Clock clock_;
  Flag flag_;
  std::uint64_t start_ = 0;
  unsigned spins_ = 0;
};

// --watchdog seconds (RunOptions::watchdog_s) as a kernel budget; gb::UsageError unless > 0.
std::uint64_t watchdog_budget_ns(const RunOptions& options);

// Thrown by a measurement run whose kernel gave up; the method turns it into a timeout row.
class WatchdogTimeout : public Error {
 public:
  using Error::Error;
};

// "<where>: a block waited longer than the 2 s watchdog ..." for notes and errors.
std::string watchdog_detail(const RunOptions& options, std::string_view where);

// The row of a measurement that the watchdog cut short (status timeout, no value).
Measurement timeout_measurement(Metric metric, std::string unit, Technique technique,
                                std::string detail);

}  // namespace gb

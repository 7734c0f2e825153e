// gpu.warp.reduce: cycles for one warp to sum 32 doubles (the study (Zhang, Wahib, Zhang,
// Matsuoka), Table 5), by variant: serial, no sync (wrong on purpose: its rows are `unverified`
// with the error), tile sync, coalesced sync, tile shuffle, coalesced shuffle
// (warp/detail/warp_reduce.cuh). Every run's sum is checked against the exact one
// (reduction/reference_sum.hpp).
#include <algorithm>

#include "common/device_buffer.hpp"
#include "common/sm_clock.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "core/techniques.hpp"
#include "reduction/reference_sum.hpp"
#include "runtime/timers.cuh"
#include "warp/detail/warp_reduce.cuh"
#include "warp/detail/warp_variants.hpp"

namespace gb {
namespace {

using namespace warp_detail;

constexpr int kRounds = 4;

// The `variant` axis' codes.
enum class ReduceVariant {
  serial = 0,
  no_sync = 1,
  tile_sync = 2,
  coalesced_sync = 3,
  tile_shuffle = 4,
  coalesced_shuffle = 5
};

struct Variant {
  void (*kernel)(const double*, int, double*, long long*);
  const char* name;
};

template <class V>
Variant variant_of() {
  return {warp_reduce_kernel<V>, V::label};
}

Variant variant(ReduceVariant v) {
  switch (v) {
    case ReduceVariant::serial:
      return variant_of<Serial>();
    case ReduceVariant::no_sync:
      return variant_of<NoSync>();
    case ReduceVariant::tile_sync:
      return variant_of<TileSync>();
    case ReduceVariant::coalesced_sync:
      return variant_of<CoalescedSync>();
    case ReduceVariant::tile_shuffle:
      return variant_of<TileShuffle>();
    case ReduceVariant::coalesced_shuffle:
      break;
  }
  return variant_of<CoalescedShuffle>();
}

// The 32 values, the result and the cycles of one point.
struct Buffers {
  Buffers() : in(32), out(1), cycles(1) {
    std::vector<double> host(32);
    for (int i = 0; i < 32; ++i) host[i] = reduction::data_value(i);
    GB_CUDA_CHECK(cudaMemcpy(in.get(), host.data(), 32 * sizeof(double), cudaMemcpyHostToDevice));
  }
  // One launch: cycles of the last round; `sum` receives its result.
  double run(const Variant& v, double& sum) {
    v.kernel<<<1, 32>>>(in.get(), kRounds, out.get(), cycles.get());
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaDeviceSynchronize());
    sum = out.to_host()[0];
    return static_cast<double>(cycles.to_host()[0]);
  }
  DeviceBuffer<double> in, out;
  DeviceBuffer<long long> cycles;
  double worst = 0;  // largest relative error over every run
  long runs = 0;
};

class WarpReduce final : public Method {
 public:
  WarpReduce()
      : Method(
            {.name = "gpu.warp.reduce",
             .level = Level::warp,
             .description =
                 "one warp sums 32 doubles; variant no-sync is wrong on purpose (clock technique)",
             .axes = {{"variant",
                       {0, 1, 2, 3, 4, 5},
                       {{ReduceVariant::serial, variants::serial},
                        {ReduceVariant::no_sync, variants::no_sync},
                        {ReduceVariant::tile_sync, variants::tile_sync},
                        {ReduceVariant::coalesced_sync, variants::coalesced_sync},
                        {ReduceVariant::tile_shuffle, variants::tile_shuffle},
                        {ReduceVariant::coalesced_shuffle, variants::coalesced_shuffle}}}},
             .timed = {{.instruction = "DADD", .axis = "variant", .value = 0},
                       {.instruction = "DADD", .axis = "variant", .value = 1},
                       {.instruction = "WARPSYNC",
                        .sm90 = TimedPath::absent,
                        .axis = "variant",
                        .value = 2},
                       {.instruction = "WARPSYNC",
                        .sm90 = TimedPath::absent,
                        .axis = "variant",
                        .value = 3},
                       {.instruction = "SHFL", .axis = "variant", .value = 4},
                       {.instruction = "SHFL", .axis = "variant", .value = 5}}}) {}
  Requirements requirements() const override { return Requirements::single_gpu(); }

  // The check runs 32 times (a race may come out right in one run and wrong in the next). The
  // sync-free variant is never `verified`: right every time, it is still right by chance.
  Verification verify(State& state) override {
    Buffers& b = buffers(state);
    const auto which = state.point().choice<ReduceVariant>("variant");
    for (int i = 0; i < 32; ++i) record(b, variant(which));
    if (b.worst > reduction::kMaxRelativeError)
      return Verification::failed("the sum of 32 doubles is wrong: worst " +
                                  reduction::error_note(b.worst) + " > 1e-10");
    if (which == ReduceVariant::no_sync)
      return Verification::not_verified(
          "no synchronisation between the steps: the sum came out right in 32 runs, by chance");
    return Verification::passed();
  }

  std::vector<Measurement> measure(State& state) override {
    Buffers& b = buffers(state);
    const Variant v = variant(state.point().choice<ReduceVariant>("variant"));
    const SmClock clock = measure_sm_clock(state.ctx().gpus.front());
    std::vector<Measurement> rows = clock_technique(
        state.ctx(), [&] { return record(b, v); }, clock, 1);
    for (Measurement& m : rows)
      m.note = std::string(v.name) + "; worst " + reduction::error_note(b.worst) + " over " +
               std::to_string(b.runs) + " runs" + (m.note.empty() ? "" : "; " + m.note);
    return rows;
  }

 private:
  static Buffers& buffers(State& state) {
    GB_CUDA_CHECK(cudaSetDevice(state.ctx().gpus.front()));
    return state.resource<Buffers>();
  }
  static double record(Buffers& b, const Variant& v) {
    double sum = 0;
    const double cycles = b.run(v, sum);
    ++b.runs;
    b.worst = std::max(b.worst, reduction::relative_error(sum, reduction::reference_sum(0, 32)));
    return cycles;
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::WarpReduce)

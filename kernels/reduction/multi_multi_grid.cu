// reduction.multi.multi-grid: the study's multi-GPU reduction with its explicit barrier (Zhang et
// al., section 7.5, Figs. 13 and 16): the array of the other multi-GPU reductions
// (kernels/reduction/multi_reduction.cuh: bytes = the whole array, contiguous shares) summed by
// one kernel per GPU, launched together by cudaLaunchCooperativeKernelMultiDevice: each GPU sums
// its share over its grid (grid.sync), writes it into GPU 0's memory over peer access, crosses
// this_multi_grid().sync(), and GPU 0 sums the partials. CUDA 13 removed both, so the kernel
// runs in the gpubarrier-legacy helper (legacy/reduction.cu, with the data set and kernels of
// kernels/reduction/); the exact-sum check and the figures are gpubarrier's, timed as the other
// multi-GPU reductions (host-loop, one whole reduction per step). Without the helper, or under
// mpirun, the rows are skipped with the reason.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "common/event_timing.hpp"
#include "core/registry.hpp"
#include "core/state.hpp"
#include "methods/legacy/figures.hpp"
#include "methods/legacy/locate.hpp"
#include "reduction/input.cuh"
#include "reduction/reference_sum.hpp"
#include "runtime/peer_memory.hpp"
#include "runtime/threads_team_method.hpp"

namespace gb::mg {
namespace {

// What verify() found, for measure()'s note: the sum's relative error and the helper's grid.
struct Checked {
  double error = 0;
  long blocks = 0;
};

// The helper's options: its reduction sizes its own grid (1024-thread blocks, as many as are
// resident), so the default shape, which only its start-up checks read.
const legacy::Shape kShape{};

class MultiGridReduction final : public ThreadsTeamMethod {
 public:
  MultiGridReduction()
      : ThreadsTeamMethod(
            {.name = "reduction.multi.multi-grid",
             .level = Level::multi_gpu,
             .description = "sum of a double array spread over the GPUs (bytes = the whole array), "
                            "run by the gpubarrier-legacy helper: one kernel per GPU, launched by "
                            "cudaLaunchCooperativeKernelMultiDevice, sums its share (grid.sync), "
                            "writes it into GPU 0's memory over peer access, "
                            "this_multi_grid().sync(), GPU 0 sums the partials (the study's Figs. "
                            "13 and 16; threads mode, host-loop); gpu_count 0 = all given",
             .axes = {{kGpuCountAxis, {0}}, {"bytes", reduction::default_bytes()}}}) {}
  Requirements requirements() const override {
    Requirements r = ThreadsTeamMethod::requirements();
    r.peer_access = true;  // each GPU writes its share's sum into GPU 0's memory
    return r;
  }
  Usability usable(const RunContext& ctx) const override {
    return legacy::usable(ctx, ThreadsTeamMethod::usable(ctx));
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    if (Usability u = team_feasible(ctx, p); !u.ok) return u;
    const long bytes = p.at("bytes");
    if (const char* why = reduction::bytes_refusal(bytes)) return Usability::no(why);
    const auto members = static_cast<long>(ctx.gpus.size());
    if (bytes / 8 < members)
      return Usability::no("bytes=" + std::to_string(bytes) + " leaves a GPU without a double");
    if (std::string why = peer_access_problem(ctx.gpus); !why.empty()) return Usability::no(why);
    for (int d : ctx.gpus) {
      GB_CUDA_CHECK(cudaSetDevice(d));
      if (Usability u = reduction::fits_in_memory(bytes / members, 1); !u.ok) return u;
    }
    return Usability::yes();
  }

  Verification verify(State& state) override {
    const long bytes = state.point().at("bytes");
    return legacy::verify_reduction(
        state, kShape, bytes, [&](const legacy::Session::ReductionResult& r) {
          Checked& c = state.resource<Checked>();
          const auto total = static_cast<std::uint64_t>(bytes) / 8;
          const double e = reduction::relative_error(r.sum, reduction::reference_sum(0, total));
          c.error = std::isfinite(e) ? e : std::numeric_limits<double>::infinity();
          c.blocks = r.blocks;
          return reduction::sum_verdict(c.error);
        });
  }

  std::vector<Measurement> measure(State& state) override {
    const long bytes = state.point().at("bytes");
    std::vector<Measurement> rows = legacy::measure_reduction(state, kShape, bytes);
    if (rows.size() != 1 || rows.front().status != Status::ok) return rows;  // skipped, timeout
    Measurement& lat = rows.front();
    Measurement bw = bandwidth_of(lat.samples, static_cast<double>(bytes), Metric::bandwidth,
                                  "GB/s", lat.technique, lat.stop);
    const Checked& c = state.resource<Checked>();
    lat.note = bw.note = reduction::error_note(c.error) + "; " +
                         std::to_string(state.ctx().gpus.size()) + " GPUs x " +
                         std::to_string(c.blocks) + " blocks of " +
                         std::to_string(reduction::kThreads) + " threads; " + lat.note;
    return {lat, bw};
  }
};

}  // namespace
}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::MultiGridReduction)

// multigpu.cg.multi-grid: cooperative_groups::this_multi_grid().sync() in a kernel launched with
// cudaLaunchCooperativeKernelMultiDevice (the study's workshop version (Zhang, Wahib, Zhang,
// Matsuoka), section 4.3.2). CUDA 13 removed both from the toolkit, but driver 580 still runs
// binaries built with an older one: the kernel lives in the gpubarrier-legacy helper
// (legacy/multi_grid.cu, CUDA 11.x/12.x), which this method runs as a child process; the figures
// are gpubarrier's (src/methods/legacy/figures.hpp). Without the helper, or under mpirun (one
// process drives every GPU), the rows are skipped with the reason.
#include "core/registry.hpp"
#include "core/state.hpp"
#include "methods/legacy/figures.hpp"
#include "methods/legacy/locate.hpp"
#include "runtime/peer_memory.hpp"
#include "runtime/threads_team_method.hpp"

namespace gb {
namespace {

class CgMultiGrid final : public mg::ThreadsTeamMethod {
 public:
  CgMultiGrid()
      : mg::ThreadsTeamMethod(
            {.name = "multigpu.cg.multi-grid",
             .level = Level::multi_gpu,
             .description =
                 "this_multi_grid().sync() after cudaLaunchCooperativeKernelMultiDevice, run by "
                 "the gpubarrier-legacy helper (CUDA 11.x/12.x build; threads mode, differential, "
                 "stamp check with one late block); gpu_count 0 = all given",
             .axes = {
                 {kGpuCountAxis, {0}}, {"blocks_per_sm", {1}}, {"threads_per_block", {128}}}}) {}
  Requirements requirements() const override {
    Requirements r = ThreadsTeamMethod::requirements();
    r.peer_access = true;  // the stamp check reads every GPU's stamps
    return r;
  }
  Usability usable(const RunContext& ctx) const override {
    return legacy::usable(ctx, ThreadsTeamMethod::usable(ctx));
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    if (Usability u = mg::team_feasible(ctx, p); !u.ok) return u;
    const long per_sm = p.at("blocks_per_sm"), threads = p.at("threads_per_block");
    if (per_sm < 1 || threads < 32 || threads > 1024)
      return Usability::no("needs blocks_per_sm >= 1 and 32..1024 threads_per_block");
    if (std::string why = mg::peer_access_problem(ctx.gpus); !why.empty())
      return Usability::no(why);
    return Usability::yes();  // co-residency: the helper knows its kernel and says `unsupported`
  }

  Verification verify(State& state) override {
    return legacy::verify_multi_grid(state, shape(state.point()));
  }
  std::vector<Measurement> measure(State& state) override {
    return legacy::measure_multi_grid(state, shape(state.point()));
  }

 private:
  static legacy::Shape shape(const Point& p) {
    legacy::Shape s;
    s.blocks_per_sm = p.at("blocks_per_sm");
    s.threads = p.at("threads_per_block");
    return s;
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::CgMultiGrid)

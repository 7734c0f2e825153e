#include "jobs/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/axis.hpp"
#include "core/glob.hpp"
#include "core/run_context.hpp"

namespace gb::jobs {
namespace {

// Assumptions on the generous side: a point spends up to about a second beyond its sampling
// budget (verification, warm-up, a per-point child process), and a step about 20 s starting
// (srun or mpirun, MPI and CUDA initialisation, the topology probe).
constexpr double kPointSetupS = 1.0;
constexpr double kStepStartupS = 20.0;
// Adaptive sampling stops early when the spread converges; the margin covers slower nodes.
constexpr double kMargin = 1.5;
constexpr long kRoundS = 300;
constexpr long kMinimumS = 600;

// Budgets one point of `m` may spend: host methods sample two rows, each up to the budget.
long budgets_per_point(const MethodInfo& m) {
  return m.name.starts_with("host.") ? 2 : 1;
}

// Sum over the sweep's entries and methods of points x weight(method).
template <class Weight>
long sum_points(const SweepFile& sweep, const Catalogue& catalogue, Weight weight) {
  long total = 0;
  for (const auto& entry : sweep.runs) {
    std::vector<AxisOverride> overrides;
    for (const auto& spec : entry.axes) overrides.push_back(parse_axis(spec));
    for (const auto& name : split_list(entry.methods)) {
      const MethodInfo* m = find_method(catalogue, name);
      if (!m) continue;
      long points = 1;
      for (const auto& axis : m->axes) {
        if (axis.name == kGpuCountAxis) continue;
        const auto o = std::find_if(overrides.begin(), overrides.end(),
                                    [&](const AxisOverride& x) { return x.name == axis.name; });
        points *= static_cast<long>(o != overrides.end() ? o->values.size() : axis.values.size());
      }
      total += points * weight(*m);
    }
  }
  return total;
}

}  // namespace

long count_points(const SweepFile& sweep, const Catalogue& catalogue) {
  return sum_points(sweep, catalogue, [](const MethodInfo&) { return 1L; });
}

long count_budgets(const SweepFile& sweep, const Catalogue& catalogue) {
  return sum_points(sweep, catalogue, budgets_per_point);
}

double point_budget_s(const SweepFile& sweep) {
  return sweep.time_budget_s.value_or(RunOptions{}.time_budget_s);
}

double step_seconds(long points, long budgets, double budget_s) {
  return static_cast<double>(budgets) * budget_s + static_cast<double>(points) * kPointSetupS +
         kStepStartupS;
}

long time_limit_s(double estimated_s) {
  const long padded = static_cast<long>(std::ceil(estimated_s * kMargin));
  return std::max(kMinimumS, (padded + kRoundS - 1) / kRoundS * kRoundS);
}

std::string estimate_explanation(double budget_s) {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "points x (%.3g s time budget, twice for host methods' two rows, + %.3g s set-up "
                "and verification per point) + %.0f s start-up per step, x%.1f margin, rounded up "
                "to %ld minutes (at least %ld)",
                budget_s, kPointSetupS, kStepStartupS, kMargin, kRoundS / 60, kMinimumS / 60);
  return buf;
}

}  // namespace gb::jobs

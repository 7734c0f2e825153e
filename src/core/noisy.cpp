#include "core/noisy.hpp"

#include <cmath>
#include <cstdio>

namespace gb {
namespace {

std::string format(const char* pattern, double a, double b) {
  char text[96];
  std::snprintf(text, sizeof text, pattern, a, b);
  return text;
}

void add(std::string& reasons, const std::string& reason) {
  reasons += (reasons.empty() ? "" : ", ") + reason;
}

}  // namespace

std::string noisy_reason(const Measurement& m) {
  std::string reasons;
  const double cv = m.stats.cv;
  if (cv > kNoisyCv)
    add(reasons, format("cv %.3g > %.3g", cv, kNoisyCv));
  else if (m.stop == StopReason::budget && cv > kNoisyBudgetCv)
    add(reasons, format("time budget spent at cv %.3g > %.3g", cv, kNoisyBudgetCv));
  if (computed_on_means(m.statistic)) {
    const double gap = std::fabs(m.stats.mean - m.stats.median);
    if (gap > kNoisyMeanMedianGap * std::fabs(m.stats.median))
      add(reasons, format("mean and median differ by %.3g%% > %.3g%%",
                          m.stats.median != 0 ? 100 * gap / std::fabs(m.stats.median) : INFINITY,
                          100 * kNoisyMeanMedianGap));
  }
  if (!m.contention.empty()) add(reasons, m.contention);
  return reasons;
}

void mark_noisy(Measurement& m) {
  const std::string reason = noisy_reason(m);
  if (!reason.empty()) m.note += (m.note.empty() ? "" : "; ") + std::string("noisy: ") + reason;
}

}  // namespace gb

#include "core/sm_clock_choice.hpp"

#include <cmath>

namespace gb {
namespace {

bool known(double hz) {
  return std::isfinite(hz) && hz > 0;
}

std::string mhz(double hz) {
  return std::to_string(std::lround(hz / 1e6)) + " MHz";
}

}  // namespace

SmClock choose_sm_clock(double estimate_hz, double nvml_hz, double max_hz) {
  SmClock c;
  c.estimate_hz = known(estimate_hz) ? estimate_hz : 0;
  c.nvml_hz = known(nvml_hz) ? nvml_hz : 0;
  c.max_hz = known(max_hz) ? max_hz : 0;
  const auto within_max = [&](double hz) {
    return c.max_hz == 0 || hz <= c.max_hz * (1 + kSmClockAboveMaxTolerance);
  };
  if (c.estimate_hz > 0 && within_max(c.estimate_hz)) {
    c.hz = c.estimate_hz;
    c.source = SmClockSource::estimate;
  } else if (c.nvml_hz > 0 && within_max(c.nvml_hz)) {
    c.hz = c.nvml_hz;
    c.source = SmClockSource::nvml;
  } else {
    c.hz = c.max_hz;
    c.source = SmClockSource::maximum;
  }
  return c;
}

const char* sm_clock_source_name(SmClockSource source) {
  switch (source) {
    case SmClockSource::estimate:
      return "estimate";
    case SmClockSource::nvml:
      return "nvml";
    case SmClockSource::maximum:
      return "max";
  }
  return "estimate";
}

std::string sm_clock_note(const SmClock& c) {
  // The estimate keeps the note the tools read back ("SM clock N MHz measured").
  if (c.source == SmClockSource::estimate)
    return "SM clock " + std::to_string(static_cast<long>(c.hz / 1e6)) + " MHz measured";
  const std::string estimate = c.estimate_hz > 0
                                   ? "the clock64/%globaltimer estimate " + mhz(c.estimate_hz)
                                   : "no clock64/%globaltimer estimate";
  if (c.source == SmClockSource::nvml)
    return "SM clock " + mhz(c.hz) + " from NVML (" + estimate +
           (c.estimate_hz > 0 ? " is above the GPU's maximum " + mhz(c.max_hz) : "") + ")";
  const std::string nvml =
      c.nvml_hz > 0 ? "NVML's reading " + mhz(c.nvml_hz) + " too" : "no NVML reading";
  return "SM clock " + mhz(c.hz) + ", the GPU's maximum (" + estimate +
         (c.estimate_hz > 0 ? " is above it" : "") + "; " + nvml + ")";
}

}  // namespace gb

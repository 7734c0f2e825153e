// Which SM clock turns clock64() cycles into ns. The estimate (clock64 against %globaltimer over
// a spin of some milliseconds, kernels/common/sm_clock.hpp) is the clock the figure ran at, but
// on some GPUs it reads above the GPU's maximum SM clock (H100s at 1980 MHz: 1993-1995 MHz, 0.7%
// off), which no SM can run at; such an estimate is refused for the SM clock the driver reported
// during the spin (NVML), or else the GPU's maximum, and the row says which was used
// (results/SCHEMA.md, column `sm_clock_source`).
#pragma once

#include <string>

namespace gb {

enum class SmClockSource { estimate, nvml, maximum };

// The SM clock chosen for a figure and what it was chosen from. 0 Hz: not known.
struct SmClock {
  double hz = 0;
  SmClockSource source = SmClockSource::estimate;
  double estimate_hz = 0;  // clock64 against %globaltimer
  double nvml_hz = 0;      // nvmlDeviceGetClockInfo(NVML_CLOCK_SM) during the spin
  double max_hz = 0;       // nvmlDeviceGetMaxClockInfo(NVML_CLOCK_SM), else the CUDA peak
};

// How far above the maximum an estimate may read and still be taken: the maximum is a whole MHz
// and the estimate's timer granularity over the spin is far below this (0.1%, 2 MHz at 2 GHz).
inline constexpr double kSmClockAboveMaxTolerance = 1e-3;

// The estimate when it is a positive number no more than kSmClockAboveMaxTolerance above
// `max_hz` (or `max_hz` is unknown, 0); otherwise the NVML reading when it is positive and not
// above the maximum; otherwise the maximum; with none of them known, hz 0. Inputs of 0 (or not
// finite) are unknown.
SmClock choose_sm_clock(double estimate_hz, double nvml_hz, double max_hz);

// The `sm_clock_source` column: "estimate", "nvml", "max".
const char* sm_clock_source_name(SmClockSource source);

// The note of a figure converted with it: "SM clock 1755 MHz measured" (the estimate), or
// "SM clock 1980 MHz from NVML (the clock64/%globaltimer estimate 1993 MHz is above the GPU's
// maximum 1980 MHz)", "... MHz, the GPU's maximum (the ... estimate ... is above it; no NVML
// reading)".
std::string sm_clock_note(const SmClock& clock);

}  // namespace gb

// The SM clock a clock-technique figure is converted with (core/sm_clock_choice.hpp): the
// clock64/%globaltimer estimate unless it reads above the GPU's maximum, then NVML's reading
// during the spin, then the maximum; the row names the source.
#include <gtest/gtest.h>

#include <cmath>

#include "core/sm_clock_choice.hpp"

namespace gb {
namespace {

constexpr double kMHz = 1e6;

TEST(SmClockChoice, EstimateAtOrBelowTheMaximumIsTaken) {
  const SmClock c = choose_sm_clock(1755.2 * kMHz, 1755 * kMHz, 1980 * kMHz);
  EXPECT_EQ(c.source, SmClockSource::estimate);
  EXPECT_DOUBLE_EQ(c.hz, 1755.2 * kMHz);
  EXPECT_DOUBLE_EQ(c.nvml_hz, 1755 * kMHz);
  EXPECT_DOUBLE_EQ(c.max_hz, 1980 * kMHz);
  // Within the tolerance of a whole-MHz maximum.
  EXPECT_EQ(choose_sm_clock(1981 * kMHz, 0, 1980 * kMHz).source, SmClockSource::estimate);
}

TEST(SmClockChoice, EstimateAboveTheMaximumIsRefusedForNvml) {
  // H100 rows: 1993-1995 MHz estimated on GPUs whose maximum is 1980 MHz.
  const SmClock c = choose_sm_clock(1994 * kMHz, 1980 * kMHz, 1980 * kMHz);
  EXPECT_EQ(c.source, SmClockSource::nvml);
  EXPECT_DOUBLE_EQ(c.hz, 1980 * kMHz);
  EXPECT_DOUBLE_EQ(c.estimate_hz, 1994 * kMHz);
  EXPECT_STREQ(sm_clock_source_name(c.source), "nvml");
  EXPECT_EQ(sm_clock_note(c),
            "SM clock 1980 MHz from NVML (the clock64/%globaltimer estimate 1994 MHz is above "
            "the GPU's maximum 1980 MHz)");
}

TEST(SmClockChoice, WithoutNvmlTheMaximumIsTaken) {
  const SmClock c = choose_sm_clock(1994 * kMHz, 0, 1980 * kMHz);
  EXPECT_EQ(c.source, SmClockSource::maximum);
  EXPECT_DOUBLE_EQ(c.hz, 1980 * kMHz);
  EXPECT_STREQ(sm_clock_source_name(c.source), "max");
  EXPECT_EQ(sm_clock_note(c),
            "SM clock 1980 MHz, the GPU's maximum (the clock64/%globaltimer estimate 1994 MHz "
            "is above it; no NVML reading)");
  // An NVML reading above the maximum is no better than the estimate.
  EXPECT_EQ(choose_sm_clock(1994 * kMHz, 1990 * kMHz, 1980 * kMHz).source, SmClockSource::maximum);
}

TEST(SmClockChoice, UnknownMaximumKeepsTheEstimate) {
  const SmClock c = choose_sm_clock(1994 * kMHz, 1980 * kMHz, 0);
  EXPECT_EQ(c.source, SmClockSource::estimate);
  EXPECT_DOUBLE_EQ(c.hz, 1994 * kMHz);
  EXPECT_STREQ(sm_clock_source_name(c.source), "estimate");
  EXPECT_EQ(sm_clock_note(c), "SM clock 1994 MHz measured");
}

TEST(SmClockChoice, NoEstimateFallsBack) {
  EXPECT_EQ(choose_sm_clock(0, 1755 * kMHz, 1980 * kMHz).source, SmClockSource::nvml);
  EXPECT_EQ(choose_sm_clock(NAN, 0, 1980 * kMHz).source, SmClockSource::maximum);
  EXPECT_EQ(choose_sm_clock(-1, 0, 0).hz, 0);
}

}  // namespace
}  // namespace gb

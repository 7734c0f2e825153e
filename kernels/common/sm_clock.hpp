// The SM clock as it runs now (not the peak): needed to turn clock64() cycles into ns.
#pragma once

#include "core/sm_clock_choice.hpp"

namespace gb {

// Spins one thread for about 20 ms reading clock64() against %globaltimer (the estimate), reads
// the SM clock NVML reports halfway through the spin and the GPU's maximum SM clock (NVML, else
// cudaDevAttrClockRate), and chooses among them (choose_sm_clock: an estimate above the maximum
// is refused).
SmClock measure_sm_clock(int device);

}  // namespace gb

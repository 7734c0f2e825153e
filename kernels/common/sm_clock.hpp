// The SM clock as it runs now (not the peak): needed to turn clock64() cycles into ns.
#pragma once

namespace gb {

// Spins one thread for about 20 ms reading clock64() against %globaltimer; returns Hz.
double measure_sm_clock_hz(int device);

}  // namespace gb

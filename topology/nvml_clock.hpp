// The SM clock as the driver reports it (NVML), for the clock technique's conversion of cycles to
// ns (core/sm_clock_choice.hpp).
#pragma once

#include <string>

namespace gb::topo {

struct NvmlSmClock {
  double current_hz = 0;  // nvmlDeviceGetClockInfo(NVML_CLOCK_SM): now; 0 when not read
  double max_hz = 0;      // nvmlDeviceGetMaxClockInfo(NVML_CLOCK_SM); 0 when not read
};

// The SM clocks of the GPU at `pci_bus_id` (any spelling cudaDeviceGetPCIBusId gives). Both 0
// when built without NVML, without a driver, or when NVML does not know the GPU. Never throws.
// NVML is initialised once per process and left initialised (its calls are cheap after that).
NvmlSmClock nvml_sm_clock(const std::string& pci_bus_id);

}  // namespace gb::topo

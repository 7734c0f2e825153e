// The cooperative multi-device launch itself (the study, section 4.2.1 and Table 1): an empty
// kernel on every GPU and the wait for all of them, its check, and the runs of the fusion
// technique (kernels of __nanosleep units launched back to back).
#pragma once

#include <vector>

#include "helper.hpp"

namespace legacy {

// `steps` timed launch + wait steps after `warmup` untimed ones; ns per step. 1 block/SM x 128
// threads, as kernel.multi-device-launch's emulation.
std::vector<double> launch_steps(const Devices& devices, long warmup, long steps);

// `rounds` launch + wait steps whose kernels stamp host memory (one GPU late in turn); the
// number of stamps the host did not find once the wait returned.
long launch_check(const Devices& devices, long rounds);

// `launches` launches of `units` sleep units of `unit_ns` each, then the wait: seconds.
double fuse(const Devices& devices, int blocks_per_sm, int threads, long launches, long units,
            unsigned unit_ns);

// Why this shape of the sleep kernel cannot run, empty when it can.
std::string sleep_residency(int blocks_per_sm, int threads);

}  // namespace legacy

// multigpu.device.push: the push algorithm (detail/push.cuh says how it crosses) as a device-side
// multi-GPU barrier method.
#include "core/registry.hpp"
#include "multigpu/detail/device_barrier.cuh"
#include "multigpu/detail/push.cuh"

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::Push>)

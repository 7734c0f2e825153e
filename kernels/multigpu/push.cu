// multigpu.device.push: the push algorithm (push.cuh says how it crosses) as a device-side
// multi-GPU barrier method.
#include "core/registry.hpp"
#include "multigpu/frame/device_barrier.cuh"
#include "multigpu/push.cuh"

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::Push>)

// multigpu.device.central: grid.sync, one leader per GPU does a system-scope fetch_add on a counter
// in GPU 0's memory and spins on it, grid.sync (the baseline). Persistent cooperative kernel on
// every GPU, differential technique (detail/device_method.cuh).
#include "core/registry.hpp"
#include "multigpu/detail/device_method.cuh"

namespace gb {
namespace {

class CentralBarrier final : public mg::DeviceBarrierMethod<mg::Algo::central> {
 public:
  std::string_view name() const override { return "multigpu.device.central"; }
  std::string_view description() const override {
    static const std::string text =
        std::string(
            "grid.sync, one leader per GPU does a system-scope fetch_add on a counter in GPU 0's "
            "memory and spins on it, grid.sync (the baseline). ") +
        mg::kDeviceAxesHelp;
    return text;
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::CentralBarrier)

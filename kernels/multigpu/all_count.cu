// multigpu.device.all-count: every block of every GPU counts its arrival on every GPU's counter
// and waits on its own GPU's: no leader, no release hop, the NVLink latency overlaps the local
// arrivals. Persistent cooperative kernel on every GPU, differential technique
// (detail/device_method.cuh).
#include "core/registry.hpp"
#include "multigpu/detail/device_method.cuh"

namespace gb {
namespace {

class AllCountBarrier final : public mg::DeviceBarrierMethod<mg::Algo::all_count> {
 public:
  std::string_view name() const override { return "multigpu.device.all-count"; }
  std::string_view description() const override {
    static const std::string text =
        std::string("every block adds its arrival to every GPU's counter and waits on its own "
                    "GPU's counter (no leader). ") +
        mg::kDeviceAxesHelp;
    return text;
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::AllCountBarrier)

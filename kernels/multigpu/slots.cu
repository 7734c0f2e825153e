// multigpu.device.slots: every block writes its epoch into its own slot on every GPU as soon as
// it arrives and polls all slots of its own GPU: no per-GPU count before the NVLink signal, so the
// signal's latency overlaps the other blocks' arrival. Persistent cooperative kernel on every GPU,
// differential technique (detail/device_method.cuh, algorithm in detail/barrier.cuh).
#include "core/registry.hpp"
#include "multigpu/detail/device_method.cuh"

namespace gb {
namespace {

class SlotsBarrier final : public mg::DeviceBarrierMethod<mg::Algo::slots> {
 public:
  std::string_view name() const override { return "multigpu.device.slots"; }
  std::string_view description() const override {
    static const std::string text = std::string(
                                        "every block writes its epoch into its own slot on every "
                                        "GPU when it arrives and polls all slots of its GPU (no "
                                        "count before the NVLink signal). ") +
                                    mg::kDeviceAxesHelp;
    return text;
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::SlotsBarrier)

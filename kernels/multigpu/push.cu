// multigpu.device.push: each GPU writes its epoch into every peer's inbox in the peer's own memory
// and spins on its local inbox. Persistent cooperative kernel on every GPU, differential technique
// (detail/device_method.cuh).
#include "core/registry.hpp"
#include "multigpu/detail/device_method.cuh"

namespace gb {
namespace {

class PushBarrier final : public mg::DeviceBarrierMethod<mg::Algo::push> {
 public:
  std::string_view name() const override { return "multigpu.device.push"; }
  std::string_view description() const override {
    static const std::string text = std::string(
                                        "each GPU writes its epoch into every peer's inbox in the "
                                        "peer's own memory and spins on its local inbox. ") +
                                    mg::kDeviceAxesHelp;
    return text;
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::PushBarrier)

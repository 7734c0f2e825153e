// multigpu.device.dissemination: ceil(log2 N) rounds of pairwise signals: round k signals GPU
// i+2^k, waits for GPU i-2^k. Persistent cooperative kernel on every GPU, differential technique
// (detail/device_method.cuh).
#include "core/registry.hpp"
#include "multigpu/detail/device_method.cuh"

namespace gb {
namespace {

class DisseminationBarrier final : public mg::DeviceBarrierMethod<mg::Algo::dissemination> {
 public:
  std::string_view name() const override { return "multigpu.device.dissemination"; }
  std::string_view description() const override {
    static const std::string text = std::string(
                                        "ceil(log2 N) rounds of pairwise signals: round k signals "
                                        "GPU i+2^k, waits for GPU i-2^k. ") +
                                    mg::kDeviceAxesHelp;
    return text;
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::DisseminationBarrier)

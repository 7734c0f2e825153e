// multigpu.device.hostflags: single-writer flags in host-mapped memory, member 0 gathers and
// releases (the cuda-samples PeerGroup::sync pattern). Persistent cooperative kernel on every GPU,
// differential technique (detail/device_method.cuh).
#include "core/registry.hpp"
#include "multigpu/detail/device_method.cuh"

namespace gb {
namespace {

class HostflagsBarrier final : public mg::DeviceBarrierMethod<mg::Algo::hostflags> {
 public:
  std::string_view name() const override { return "multigpu.device.hostflags"; }
  std::string_view description() const override {
    static const std::string text =
        std::string(
            "single-writer flags in host-mapped memory, member 0 gathers and releases (the "
            "cuda-samples PeerGroup::sync pattern). ") +
        mg::kDeviceAxesHelp;
    return text;
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::HostflagsBarrier)

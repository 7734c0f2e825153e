// multigpu.device.hierarchical: topology-aware: gather inside each NVLink group, exchange between
// group leaders, release the groups. Persistent cooperative kernel on every GPU, differential
// technique (detail/device_method.cuh).
#include "core/registry.hpp"
#include "multigpu/detail/device_method.cuh"

namespace gb {
namespace {

class HierarchicalBarrier final : public mg::DeviceBarrierMethod<mg::Algo::hierarchical> {
 public:
  std::string_view name() const override { return "multigpu.device.hierarchical"; }
  std::string_view description() const override {
    static const std::string text = std::string(
                                        "topology-aware: gather inside each NVLink group, exchange "
                                        "between group leaders, release the groups. ") +
                                    mg::kDeviceAxesHelp;
    return text;
  }
};

}  // namespace
}  // namespace gb

GB_REGISTER_METHOD(gb::HierarchicalBarrier)

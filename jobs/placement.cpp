#include "jobs/placement.hpp"

namespace gb::jobs {

std::optional<std::string> why_not(const MethodInfo& m, const Slot& slot) {
  if (!m.runs_in(slot.mode)) return std::string();
  if (slot.nodes > 1)
    if (auto why = m.why_not_across_nodes()) return *why;
  if (m.needs_gpu() && !slot.real_gpus) return "needs a GPU: " + slot.no_gpu_why;
  const int team = slot.mode == Mode::mpi ? slot.nodes * slot.per_node : slot.per_node;
  if (slot.mode == Mode::mpi && m.needs_two_ranks() && team < 2)
    return "a barrier among ranks needs 2 or more, and " + std::to_string(slot.nodes) +
           " node(s) x " + std::to_string(slot.per_node) + " GPU(s) give one";
  if (m.needs_gpu() && team < m.req.min_gpus)
    return "needs at least " + std::to_string(m.req.min_gpus) + " GPUs";
  if (m.needs_gpu() && team > m.req.max_gpus)
    return "takes at most " + std::to_string(m.req.max_gpus) + " GPU(s)";
  return std::nullopt;
}

}  // namespace gb::jobs

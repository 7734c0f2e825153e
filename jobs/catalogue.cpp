#include "jobs/catalogue.hpp"

#include <algorithm>

#include "core/registry.hpp"

namespace gb::jobs {

bool MethodInfo::runs_in(Mode mode) const {
  switch (mode) {
    case Mode::threads:
      return req.threads_mode;
    case Mode::mpi:
      return req.mpi_mode || req.mpi_launch;
    case Mode::single:
      break;
  }
  return !req.threads_mode && !req.mpi_mode && !req.mpi_launch;
}

std::optional<std::string> MethodInfo::why_not_across_nodes() const {
  if (!runs_in(Mode::mpi)) return "one process: runs on one node";
  if (level == Level::multi_node) return std::nullopt;
  if (req.peer_access) return "device-side barrier: its peers are GPUs of one node";
  if (req.nccl)
    return "NCCL barrier: across nodes in a later issue, only host methods and multinode.* span "
           "nodes for now";
  return std::nullopt;
}

const Axis* MethodInfo::axis(std::string_view axis_name) const {
  for (const auto& a : axes)
    if (a.name == axis_name) return &a;
  return nullptr;
}

Catalogue registered_methods() {
  Catalogue out;
  for (const auto& m : Registry::instance().create_all())
    out.push_back({std::string(m->name()), m->requirements(), m->axes(), m->level()});
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

const MethodInfo* find_method(const Catalogue& catalogue, std::string_view name) {
  for (const auto& m : catalogue)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace gb::jobs

// multigpu.device.hierarchical, topology-aware: after each GPU's own gather, the members of an
// NVLink group gather at their group's leader (the lowest member), the leaders exchange, then
// each leader releases its group. The groups come from the topology (runtime/hierarchy.hpp).
#include <algorithm>

#include "core/registry.hpp"
#include "multigpu/detail/gpu_gather.cuh"
#include "multigpu/frame/device_barrier.cuh"
#include "runtime/hierarchy.hpp"
#include "topology/nvlink_groups.hpp"

namespace gb::mg {

struct Hierarchical : Algorithm {
  static inline const MethodInfo info{.name = "multigpu.device.hierarchical",
                                      .description =
                                          "topology-aware: gather inside each NVLink group, "
                                          "exchange between group leaders, release the groups."};

  struct Words {
    GpuGather gather;
    Word arrive[kMaxMembers];   // at a group leader: from the members of its group
    Word leaders[kMaxMembers];  // at a group leader: from every other leader
    Word release;               // from this GPU's group leader
  };
  struct Args {
    int group[kMaxMembers] = {};  // this member's group, leader first
    int group_size = 1;
    int leaders[kMaxMembers] = {};  // every group's leader
    int leader_count = 1;
  };

  static std::vector<int> groups(const AlgoSetup& s) {
    std::vector<std::vector<int>> nvlink;
    if (s.ctx.topology) nvlink = topo::nvlink_groups(*s.ctx.topology);
    return member_groups(s.team.topology_index(), nvlink);
  }

  static Args args(const AlgoSetup& s, int local) {
    const Hierarchy h = hierarchy_of(groups(s), s.team.member(local));
    Args x;
    x.group_size = static_cast<int>(h.group.size());
    std::copy(h.group.begin(), h.group.end(), x.group);
    x.leader_count = static_cast<int>(h.leaders.size());
    std::copy(h.leaders.begin(), h.leaders.end(), x.leaders);
    return x;
  }

  // "groups 0,1|2,3": who gathers where.
  static std::string note(const AlgoSetup& s) {
    const std::vector<int> g = groups(s);
    std::string text = "groups ";
    std::vector<int> seen;
    for (std::size_t m = 0; m < g.size(); ++m) {
      if (std::find(seen.begin(), seen.end(), g[m]) != seen.end()) continue;
      seen.push_back(g[m]);
      if (seen.size() > 1) text += '|';
      const Hierarchy h = hierarchy_of(g, static_cast<int>(m));
      for (std::size_t i = 0; i < h.group.size(); ++i)
        text += (i ? "," : "") + std::to_string(h.group[i]);
    }
    return text;
  }
  static constexpr Traits traits{.note = &note};

  template <class Bar>
  __device__ static bool cross(const Bar& a, const Args& x, Word e) {
    const Ordering o = a.ordering;
    const int m = a.member;
    Words* self = a.template own_words<Words>();
    auto await = [&](const Word* p) { return wait_at_least(p, e, o, a.self, a.watchdog_ns); };
    return gather_exchange_release(a, self->gather, e, [&](bool wait) {
      const int leader = x.group[0];
      if (m != leader) {
        store_signal(&a.template words_of<Words>(leader)->arrive[m], e, o);
        return !wait || await(&self->release);
      }
      if (wait) {
        for (int i = 1; i < x.group_size; ++i)
          if (!await(&self->arrive[x.group[i]])) return false;
        fence_if_relaxed(o);
      }
      for (int i = 0; i < x.leader_count; ++i)
        if (x.leaders[i] != m)
          store_signal(&a.template words_of<Words>(x.leaders[i])->leaders[m], e, o);
      if (wait) {
        for (int i = 0; i < x.leader_count; ++i)
          if (x.leaders[i] != m && !await(&self->leaders[x.leaders[i]])) return false;
        fence_if_relaxed(o);
      }
      for (int i = 1; i < x.group_size; ++i)
        store_signal(&a.template words_of<Words>(x.group[i])->release, e, o);
      return true;
    });
  }
};

}  // namespace gb::mg

GB_REGISTER_METHOD(gb::mg::DeviceBarrier<gb::mg::Hierarchical>)

// The two levels of the hierarchical barrier: members whose GPUs share an NVLink group gather at
// their group's leader (the lowest member), the leaders meet, then each leader releases its group.
// Pure functions of the member -> GPU mapping, so any N and any grouping can be unit-tested.
#pragma once

#include <vector>

namespace gb::mg {

// Group id of every member. topology_index[m] is member m's GPU in the topology (-1 unknown);
// nvlink_groups lists topology GPU indices (topo::nvlink_groups). A GPU in no listed group, or
// unknown to the topology, is a group of its own.
std::vector<int> member_groups(const std::vector<int>& topology_index,
                               const std::vector<std::vector<int>>& nvlink_groups);

struct Hierarchy {
  int leader = 0;            // this member's group leader
  std::vector<int> group;    // the members of this member's group, ascending, leader first
  std::vector<int> leaders;  // every group's leader, ascending
};

Hierarchy hierarchy_of(const std::vector<int>& groups, int member);

}  // namespace gb::mg

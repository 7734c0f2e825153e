// Linux cpulist strings ("0-11,24-35"), as nvidia-smi, hwloc and /sys print CPU and NUMA sets.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gb::topo {

// Ids above this are rejected: no machine has them, and "0-4000000000" must not allocate 16 GB.
inline constexpr int kMaxCpuId = 1 << 16;

// Sorted, de-duplicated ids; nullopt when the text is no cpulist. "N/A" and "" are empty lists.
std::optional<std::vector<int>> parse_cpulist(std::string_view text);

// The shortest cpulist of sorted, distinct ids: {0,1,2,5} -> "0-2,5".
std::string format_cpulist(const std::vector<int>& ids);

}  // namespace gb::topo

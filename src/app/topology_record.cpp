#include "app/topology_record.hpp"

#include <cstdio>
#include <exception>
#include <filesystem>

#include "io/atomic_file.hpp"
#include "topology/json.hpp"

namespace gb::cli {

std::string topology_record_path(const std::string& csv_path) {
  return csv_path + ".topology.json";
}

void record_topology(const std::string& csv_path, const topo::Topology& topology, bool resume) {
  const std::string path = topology_record_path(csv_path);
  std::error_code ec;
  if (resume && std::filesystem::exists(path, ec)) return;
  try {
    write_file_atomically(path, topo::to_json(topology).dump(
                                    2, ' ', false, nlohmann::json::error_handler_t::replace) +
                                    "\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpubarrier: warning: the topology beside the CSV was not written: %s\n",
                 e.what());
  }
}

}  // namespace gb::cli

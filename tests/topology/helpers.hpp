// Shared helpers of the topology tests: reading inputs and looking up cells.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "topology/smi_parser.hpp"
#include "topology/topology.hpp"

namespace gb::topo::test {

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline Topology parse_data(const std::string& name) {
  const std::filesystem::path path = std::filesystem::path(GB_TOPO_TEST_DATA) / name;
  return parse_nvidia_smi_topo(read_file(path), name);
}

inline const Nic& nic_named(const Topology& topo, const std::string& name) {
  for (const Nic& nic : topo.nics)
    if (nic.name == name) return nic;
  throw std::runtime_error("no NIC " + name);
}

inline std::string nic_path(const Topology& topo, const std::string& name, int gpu) {
  return nic_named(topo, name).gpu_path.at(gpu).printed;
}

inline std::string cell(const Topology& topo, int a, int b) {
  return topo.links[a][b].printed;
}

using Sets = std::vector<std::vector<int>>;

}  // namespace gb::topo::test

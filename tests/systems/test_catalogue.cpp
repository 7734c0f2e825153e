// Every file of configs/systems loads, and its wiring yields the facts a job generator asks the
// topology module for (groups, subsets, binding) without any of them being typed in.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "helpers.hpp"
#include "topology/binding_advice.hpp"
#include "topology/from_wiring.hpp"
#include "topology/nvlink_groups.hpp"
#include "topology/subsets.hpp"
#include "topology/topology_class.hpp"

namespace gb::test {
namespace {

std::vector<SystemFile> all_systems() {
  std::vector<SystemFile> systems;
  for (const auto& entry : std::filesystem::directory_iterator(kSystemsDir))
    if (entry.path().extension() == ".yaml")
      systems.push_back(load_system_file(entry.path().string()));
  return systems;
}

topo::Topology topology_of(const std::string& name) {
  const SystemFile sys = load_system(name);
  return topo::topology_from_wiring(sys.wiring, sys.name);
}

TEST(Catalogue, HoldsEverySystemTheIssueNames) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kSystemsDir)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    const SystemFile sys = load_system_file(entry.path().string());
    EXPECT_EQ(sys.name, entry.path().stem().string());
    names.insert(sys.name);
  }
  const std::set<std::string> expected{"dgx1-p100", "dgx1-v100", "dgx2",       "dgx-a100",
                                       "dgx-h100",  "dgx-h200",  "dgx-b200",   "gb200-nvl72",
                                       "hgx-h200",  "local",     "local-slurm"};
  EXPECT_EQ(names, expected);
}

TEST(Catalogue, EveryWiredSystemBuildsItsTopologyAndDerivedFacts) {
  for (const SystemFile& sys : all_systems()) {
    SCOPED_TRACE(sys.name);
    if (sys.probe) continue;
    const topo::Topology topo = topo::topology_from_wiring(sys.wiring, sys.name);
    ASSERT_EQ(topo.gpu_count(), sys.gpus_per_node);
    EXPECT_EQ(topo.gpus.front().name, sys.gpu_model);
    EXPECT_EQ(topo::connected_subsets(topo).size(), static_cast<std::size_t>(sys.gpus_per_node));
    const topo::BindingAdvice binding = topo::binding_advice(topo);
    EXPECT_FALSE(binding.srun.empty()) << binding.note;
    for (const auto& gpu : binding.gpus) EXPECT_FALSE(gpu.numactl.empty());
  }
}

TEST(Catalogue, ClassesFollowFromTheWiring) {
  const std::pair<const char*, const char*> cases[] = {
      {"dgx1-p100", "nv1-cubemesh8"}, {"dgx1-v100", "nv1nv2-cubemesh8"},
      {"dgx2", "nv6-clique16"},       {"dgx-a100", "nv12-clique8"},
      {"dgx-h100", "nv18-clique8"},   {"dgx-h200", "nv18-clique8"},
      {"dgx-b200", "nv18-clique8"},   {"gb200-nvl72", "nv18-clique4"},
      {"local-slurm", "pcie-phb8"},
  };
  for (const auto& [name, expected] : cases)
    EXPECT_EQ(topo::topology_class(topology_of(name)), expected) << name;
}

TEST(Catalogue, CubeMeshGroupsAndSubsetsAreDerived) {
  const topo::Topology topo = topology_of("dgx1-v100");
  EXPECT_EQ(topo::nvlink_groups(topo), (Sets{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  const topo::SubsetChoice pair = topo::connected_subsets(topo, 2);
  EXPECT_EQ(pair.best, (std::vector<int>{2, 3}));  // doubled (NV2) and on one PCIe switch
  EXPECT_EQ(topo.nvlink(pair.worst[0], pair.worst[1]), 0);
  const topo::SubsetChoice quad = topo::connected_subsets(topo, 4);
  EXPECT_EQ(quad.best, (std::vector<int>{0, 1, 2, 3}));
}

TEST(Catalogue, CudaArchFromComputeCapability) {
  EXPECT_EQ(load_system("dgx1-p100").cuda_arch(), "60");
  EXPECT_EQ(load_system("dgx-a100").cuda_arch(), "80");
  EXPECT_EQ(load_system("dgx-h100").cuda_arch(), "90");
  EXPECT_EQ(load_system("dgx-b200").cuda_arch(), "100");
  EXPECT_EQ(load_system("gb200-nvl72").cuda_arch(), "100");
}

TEST(Catalogue, EveryGpuOfADgxH100HasItsComputeNicOnItsSwitch) {
  // DGX H100 User Guide, Table 6: the RDMA device of each GPU's OSFP port.
  const std::vector<std::string> nic_of_gpu{"mlx5_0", "mlx5_3", "mlx5_4",  "mlx5_5",
                                            "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"};
  const topo::Topology topo = topology_of("dgx-h100");
  for (int gpu = 0; gpu < 8; ++gpu)
    for (const topo::Nic& nic : topo.nics)
      EXPECT_EQ(nic.gpu_path[gpu].path == topo::PathType::PIX, nic.name == nic_of_gpu[gpu])
          << "GPU " << gpu << " " << nic.name;
}

TEST(Catalogue, AliasStandsForItsTarget) {
  const SystemFile alias = load_system("hgx-h200");
  const SystemFile target = load_system("dgx-h200");
  EXPECT_EQ(alias.name, "hgx-h200");
  EXPECT_EQ(alias.alias_of, "dgx-h200");
  EXPECT_EQ(alias.gpus_per_node, target.gpus_per_node);
  EXPECT_EQ(alias.wiring.gpus, target.wiring.gpus);
  EXPECT_EQ(alias.cuda_arch(), "90");
}

TEST(Catalogue, LocalIsProbedAndLocalSlurmIsTheTestCluster) {
  const SystemFile local = load_system("local");
  EXPECT_TRUE(local.probe);
  EXPECT_EQ(local.gpus_per_node, 0);
  EXPECT_EQ(local.cuda_arch(), "");
  EXPECT_TRUE(local.wiring.gpus.empty());

  const SystemFile cluster = load_system("local-slurm");
  EXPECT_TRUE(cluster.fake_gpus);
  EXPECT_EQ(cluster.max_nodes, 2);
  EXPECT_EQ(cluster.gpus_per_node, 8);
  EXPECT_EQ(cluster.slurm.partition, "gpubarrier");
  EXPECT_EQ(cluster.slurm.launcher, Launcher::Srun);
  EXPECT_EQ(cluster.slurm.srun_mpi, "pmix");
  const auto btl = std::find_if(cluster.env.begin(), cluster.env.end(),
                                [](const auto& kv) { return kv.first == "OMPI_MCA_btl"; });
  ASSERT_NE(btl, cluster.env.end());
  EXPECT_EQ(btl->second, "self,tcp");
}

TEST(Catalogue, NvlinkMulticastIsOffEverywhere) {
  for (const SystemFile& sys : all_systems()) {
    const auto nvls = std::find_if(sys.env.begin(), sys.env.end(),
                                   [](const auto& kv) { return kv.first == "NCCL_NVLS_ENABLE"; });
    ASSERT_NE(nvls, sys.env.end()) << sys.name;
    EXPECT_EQ(nvls->second, "0") << sys.name;
  }
}

TEST(Catalogue, SlurmPlaceholdersDefaultToTheSite) {
  for (const char* name : {"dgx-h100", "dgx-b200", "gb200-nvl72"}) {
    const SystemFile sys = load_system(name);
    EXPECT_FALSE(sys.slurm.partition.has_value()) << name;
    EXPECT_FALSE(sys.slurm.account.has_value()) << name;
    EXPECT_EQ(sys.slurm.gpu_request, GpuRequest::Gres) << name;
    EXPECT_TRUE(sys.slurm.exclusive) << name;
  }
  EXPECT_EQ(load_system("gb200-nvl72").nvlink_domain_nodes, 18);
}

}  // namespace
}  // namespace gb::test

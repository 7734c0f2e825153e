// Mistakes in a system file are reported as file:line:column, the dotted key, what was expected
// there and, for a misspelt key or value, the closest known one.
#include <gtest/gtest.h>

#include <cstdlib>

#include "errors/errors.hpp"
#include "helpers.hpp"

namespace gb::test {
namespace {

// A valid two-GPU node; each case below changes one line of it.
const std::string kValid =
    "name: t\n"                                       // 1
    "gpus_per_node: 2\n"                              // 2
    "gpu: {model: X, compute_capability: \"9.0\"}\n"  // 3
    "numa:\n"                                         // 4
    "  0: 0-3\n"                                      // 5
    "wiring:\n"                                       // 6
    "  nvlink: {4: [0-1]}\n"                          // 7
    "  pcie: [0/hb0/sw0, 0/hb0/sw0]\n"                // 8
    "slurm:\n"                                        // 9
    "  launcher: srun\n";                             // 10

std::string replace(const std::string& from, const std::string& to) {
  std::string text = kValid;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(SystemErrors, ValidTextLoads) {
  const SystemFile sys = parse_system_text(kValid, "t.yaml");
  EXPECT_EQ(sys.gpus_per_node, 2);
  EXPECT_EQ(sys.cuda_arch(), "90");
  ASSERT_EQ(sys.wiring.nvlink.size(), 1u);
  EXPECT_EQ(sys.wiring.nvlink[0].links, 4);
  EXPECT_EQ(sys.env, (std::vector<std::pair<std::string, std::string>>{{"NCCL_NVLS_ENABLE", "0"}}));
}

TEST(SystemErrors, NameFileLineColumnKeyAndExpectation) {
  const struct {
    std::string text;
    int line;
    int column;
    const char* expected;
  } cases[] = {
      {replace("gpus_per_node: 2", "gpus_per_nod: 2"), 2, 1,
       "gpus_per_nod: unknown key; did you mean 'gpus_per_node'?"},
      {replace("  launcher: srun", "  partion: x"), 10, 3,
       "slurm.partion: unknown key; did you mean 'partition'?"},
      {replace("launcher: srun", "launcher: srum"), 10, 13,
       "slurm.launcher: expected one of srun, mpirun, got 'srum'; did you mean 'srun'?"},
      {replace("gpus_per_node: 2", "gpus_per_node: two"), 2, 16,
       "gpus_per_node: expected a positive integer, got 'two'"},
      {replace("[0-1]", "[0-2]"), 7, 16, "wiring.nvlink.4: GPU pair 0-2: GPUs are 0-1"},
      {replace("[0-1]", "[0+1]"), 7, 16, "wiring.nvlink.4: expected a GPU pair such as 0-1"},
      {replace("[0-1]", "[0-0]"), 7, 3, "wiring: NVLink 0-0 joins a GPU to itself"},
      {replace(", 0/hb0/sw0]", "]"), 8, 9, "wiring.pcie: expected a list of 2 PCIe positions"},
      {replace("0/hb0/sw0]", "0]"), 8, 21, "wiring.pcie[1]: expected numa/host-bridge"},
      {replace("0/hb0/sw0]", "1/hb0]"), 8, 21, "wiring.pcie[1]: NUMA node 1 is not under 'numa'"},
      {replace("\"9.0\"", "\"nine\""), 3, 37, "gpu.compute_capability: expected \"major.minor\""},
      {replace("0: 0-3", "0: 3-x"), 5, 6, "numa.0: expected a CPU list"},
      {replace("name: t\n", "name: t\nprobe: true\n"), 3, 16,
       "gpus_per_node: not allowed with probe: true"},
      {replace("gpu: {model: X, compute_capability: \"9.0\"}\n", ""), 1, 1,
       "gpu: required (or probe: true)"},
      {replace("  launcher: srun", "  exclusive: maybe"), 10, 14,
       "slurm.exclusive: expected true or false"},
      {replace("slurm:", "env: {1X: a}\nslurm:"), 9, 7, "env.1X: expected an environment"},
      {replace("  pcie: [0/hb0/sw0, 0/hb0/sw0]", "  pcie: [0/hb0/sw0, 0/hb0/sw0"), 9, 6,
       "end of sequence flow not found"},
  };
  for (const auto& c : cases) {
    try {
      parse_system_text(c.text, "s.yaml");
      ADD_FAILURE() << "accepted:\n" << c.text;
    } catch (const ParseError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("s.yaml:", 0), 0u) << what;
      EXPECT_EQ(e.line(), c.line) << what;
      EXPECT_EQ(e.column(), c.column) << what;
      EXPECT_NE(what.find(c.expected), std::string::npos) << what;
    }
  }
}

// A temporary catalogue folder, removed again at the end of the test.
class SystemFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gb-systems-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) const {
    const auto path = dir_ / (name + ".yaml");
    std::ofstream(path) << text;
    return path.string();
  }

  std::filesystem::path dir_;
};

TEST_F(SystemFolder, NameMustMatchTheFile) {
  const std::string path = write("other", kValid);
  try {
    load_system_file(path);
    ADD_FAILURE() << "accepted a name that is not the file's";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 1);
    EXPECT_NE(std::string(e.what()).find("name: expected 'other', the file's name"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(SystemFolder, AliasesResolveButDoNotChain) {
  write("t", kValid);
  const SystemFile alias = load_system_file(write("u", "name: u\nalias_of: t\n"));
  EXPECT_EQ(alias.name, "u");
  EXPECT_EQ(alias.alias_of, "t");
  EXPECT_EQ(alias.gpus_per_node, 2);

  const std::string chained = write("v", "name: v\nalias_of: u\n");
  EXPECT_THROW(load_system_file(chained), UsageError);
  EXPECT_THROW(load_system_file(write("w", "name: w\nalias_of: missing\n")), UsageError);
  try {
    load_system_file(write("x", "name: x\nalias_of: t\ngpus_per_node: 4\n"));
    ADD_FAILURE() << "an alias with its own facts";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(std::string(e.what()).find("an alias holds only name and alias_of"),
              std::string::npos);
  }
}

TEST_F(SystemFolder, UnreadableFileIsAUsageError) {
  EXPECT_THROW(load_system_file((dir_ / "none.yaml").string()), UsageError);
}

}  // namespace
}  // namespace gb::test

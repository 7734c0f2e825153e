#include <gtest/gtest.h>

#include <filesystem>

#include "errors/errors.hpp"
#include "io/sweep_file.hpp"

using namespace gb;

namespace {

// A sweep file's text that must be refused: at `line`, with `expected` in the message.
struct Refusal {
  const char* text;
  int line;
  const char* expected;
};

void expect_refused(const Refusal& c) {
  try {
    parse_sweep_text(c.text, "s.yaml");
    ADD_FAILURE() << "accepted: " << c.text;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), c.line) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("s.yaml:", 0), 0u) << e.what();
  }
}

}  // namespace

TEST(SweepFile, ParsesEntriesAndDefaults) {
  const auto s = parse_sweep_text(
      "name: t\nsamples: 7\ntime_budget: 0.25\nruns:\n"
      "  - methods: [gpu.grid.cg, host.*]\n"
      "    axes: {blocks_per_sm: [1, 2], threads_per_block: \"32:128:*2\"}\n"
      "  - methods: host.omp.barrier\n",
      "mem.yaml");
  EXPECT_EQ(s.name, "t");
  EXPECT_EQ(s.samples, 7);
  EXPECT_DOUBLE_EQ(*s.time_budget_s, 0.25);
  ASSERT_EQ(s.runs.size(), 2u);
  EXPECT_EQ(s.runs[0].methods, "gpu.grid.cg,host.*");
  EXPECT_EQ(s.runs[0].axes,
            (std::vector<std::string>{"blocks_per_sm=1,2", "threads_per_block=32:128:*2"}));
  EXPECT_TRUE(s.runs[1].axes.empty());
}

TEST(SweepFile, ErrorsNameFileLineAndExpectation) {
  const Refusal cases[] = {
      {"runs:\n  - methods: x\n    axis: {a: [1]}\n", 3, "unknown key 'axis' in a run entry"},
      {"samples: many\nruns:\n  - methods: x\n", 1, "expected an integer"},
      {"runs:\n  - axes: {a: [1]}\n", 2, "run entry has no 'methods'"},
      {"runs: [\n", 2, ""},
      {"name: x\n", 1, "the sweep has no 'runs'"},
      {"- a\n- b\n", 1, "expected a map with 'runs'"},
      {"runs:\n  - methods: x\n    axes: {gpu_count: \"1:8:0\"}\n", 3,
       "gpu_count: '1:8:0' is malformed"},
  };
  for (const Refusal& c : cases) expect_refused(c);
}

// An alias stands for its anchor's whole subtree wherever it appears, so a kilobyte of them can
// stand for billions of nodes; a second document would be ignored. Both are refused with a line.
TEST(SweepFile, AnchorsAliasesAndSecondDocumentsAreRefused) {
  const char* alias = "not accepted in sweep and system files";
  const char* second = "holds one YAML document; found a second one here";
  const Refusal cases[] = {
      {"runs:\n  - methods: &m host.omp.barrier\n", 2, alias},
      {"a: &a {b: 1}\nruns:\n  - methods: x\n", 1, alias},
      {"runs:\n  - &e\n    methods: x\n", 2, alias},
      {"runs:\n  - methods: x\n---\nruns:\n  - methods: y\n", 3, second},
      {"---\nruns:\n  - methods: x\n...\n---\n", 5, second},
  };
  for (const Refusal& c : cases) expect_refused(c);
  // One document, with its optional start and end markers; '*' and '&' inside a value are text.
  const SweepFile one =
      parse_sweep_text("---\nname: 'a&b *c'\nruns:\n  - methods: host.*\n...\n", "s.yaml");
  EXPECT_EQ(one.name, "a&b *c");
  EXPECT_EQ(one.runs.size(), 1u);
}

TEST(SweepFile, ShippedSweepsParse) {
  const std::filesystem::path dir = GB_SOURCE_DIR "/configs/sweeps";
  int n = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    EXPECT_NO_THROW(load_sweep_file(f.path().string())) << f.path();
    ++n;
  }
  EXPECT_GT(n, 0);
  EXPECT_THROW(load_sweep_file("/nonexistent/sweep.yaml"), UsageError);
}

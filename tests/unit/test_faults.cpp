// Fault injection lives in one module (src/core/faults.hpp): its table lists every test hook
// variable the sources name, nothing else reads one, docs/reliability.md ("Test hooks") shows
// every row, and the hooks do what the table says.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/faults.hpp"

namespace gb {
namespace {

namespace fs = std::filesystem;

// The folders whose code may read a hook.
const char* const kCodeFolders[] = {"src", "kernels", "jobs", "topology", "legacy"};
const char* const kModule = "src/core/faults.cpp";

// A test hook's variable, wherever it is named.
const std::regex kHookName("GPUBARRIER_(LEGACY_)?TEST_[A-Z0-9_]+");

struct SourceFile {
  std::string path;  // relative to the repository
  std::string text;
};

std::vector<SourceFile> code_files() {
  std::vector<SourceFile> files;
  const fs::path root = GB_SOURCE_DIR;
  for (const char* folder : kCodeFolders) {
    if (!fs::is_directory(root / folder)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / folder)) {
      if (!e.is_regular_file()) continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      files.push_back({fs::relative(e.path(), root).generic_string(), text.str()});
    }
  }
  return files;
}

std::set<std::string> names_in(const std::string& text) {
  std::set<std::string> names;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kHookName);
       it != std::sregex_iterator(); ++it)
    names.insert(it->str());
  return names;
}

std::set<std::string> table_names() {
  std::set<std::string> names;
  for (const faults::HookInfo& h : faults::hooks()) names.insert(std::string(h.variable));
  return names;
}

// Whether `path` may read `variable` itself: the module, or the program its row names as the
// one that asks (the legacy helper, which cannot link the module).
bool may_read(const std::string& path, const std::string& variable) {
  if (path == kModule) return true;
  for (const faults::HookInfo& h : faults::hooks())
    if (h.variable == variable) return h.asks.starts_with(path + ":");
  return false;
}

TEST(Faults, EveryHookHasOneRowOfItsOwn) {
  std::set<std::string> seen;
  for (const faults::HookInfo& h : faults::hooks()) {
    EXPECT_EQ(&faults::info(h.hook), &h) << h.variable;
    EXPECT_TRUE(std::regex_match(std::string(h.variable), kHookName)) << h.variable;
    EXPECT_TRUE(seen.insert(std::string(h.variable)).second) << h.variable << " twice";
    EXPECT_FALSE(h.value.empty() || h.effect.empty() || h.asks.empty())
        << h.variable << ": every column filled";
  }
  for (faults::Hook hook : {faults::Hook::break_check, faults::Hook::crash, faults::Hook::hang,
                            faults::Hook::throw_member, faults::Hook::ranks_as_nodes,
                            faults::Hook::legacy_hang})
    EXPECT_NO_THROW(faults::info(hook));
}

// A new hook read anywhere in the code must have its row first.
TEST(Faults, TheTableListsEveryHookTheCodeNames) {
  const std::set<std::string> table = table_names();
  const std::vector<SourceFile> files = code_files();
  ASSERT_FALSE(files.empty()) << "no sources under " << GB_SOURCE_DIR;
  bool module_seen = false;
  for (const SourceFile& f : files) {
    module_seen = module_seen || f.path == kModule;
    for (const std::string& name : names_in(f.text))
      EXPECT_TRUE(table.count(name)) << f.path << " names " << name
                                     << ", which src/core/faults.cpp's table does not list";
  }
  EXPECT_TRUE(module_seen) << kModule << " not found";
}

// Code asks the module; it does not read the variable itself, whether through getenv or a
// helper handed the name.
TEST(Faults, NothingButTheModuleReadsAHook) {
  const std::regex literal("\"(GPUBARRIER_(LEGACY_)?TEST_[A-Z0-9_]+)\"");
  for (const SourceFile& f : code_files()) {
    const bool reads_env = f.text.find("getenv") != std::string::npos;
    for (const std::string& name : names_in(f.text))
      if (reads_env)
        EXPECT_TRUE(may_read(f.path, name))
            << f.path << " calls getenv and names " << name << ": ask core/faults.hpp instead";
    for (auto it = std::sregex_iterator(f.text.begin(), f.text.end(), literal);
         it != std::sregex_iterator(); ++it)
      EXPECT_TRUE(may_read(f.path, (*it)[1].str()))
          << f.path << " holds the name " << (*it)[1].str() << " on its own: ask core/faults.hpp";
  }
}

std::string reliability_doc() {
  std::ifstream in(std::string(GB_SOURCE_DIR) + "/docs/reliability.md");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The cells of the Markdown table row `line`, a bar escaped with a backslash kept in its cell
// as a bar.
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (line[i] == '|') {
      const std::size_t first = cell.find_first_not_of(' ');
      cells.push_back(first == std::string::npos
                          ? std::string()
                          : cell.substr(first, cell.find_last_not_of(' ') - first + 1));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return cells;
}

// The rows of the Test hooks table: variable, value, effect, the tests that set it.
std::vector<std::vector<std::string>> hook_rows(const std::string& doc) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(doc.substr(doc.find("## Test hooks")));
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("| `GPUBARRIER_")) rows.push_back(cells_of(line));
  return rows;
}

// The code's table says what a hook is and who asks for it; the tests that set a hook are the
// documentation's to say (docs/reliability.md), and its rows follow the code's: one per hook, in
// the table's order, with the same value and a test that sets it.
template <class Row>
constexpr bool kNamesTests = requires(Row row) { row.tests; };

TEST(Faults, TheDocsRowsFollowTheTable) {
  static_assert(!kNamesTests<faults::HookInfo>,
                "the tests that set a hook are listed in docs/reliability.md, not in the code");
  const std::vector<std::vector<std::string>> rows = hook_rows(reliability_doc());
  const auto table = faults::hooks();
  ASSERT_EQ(rows.size(), table.size()) << "docs/reliability.md's Test hooks rows";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 4u) << "row " << i + 1 << ": variable, value, effect, tests";
    EXPECT_EQ(rows[i][0], "`" + std::string(table[i].variable) + "`") << "row " << i + 1;
    EXPECT_EQ(rows[i][1], "`" + std::string(table[i].value) + "`") << table[i].variable;
    EXPECT_NE(rows[i][3].find('`'), std::string::npos)
        << table[i].variable << ": the doc names no test that sets it";
  }
}

TEST(Faults, TheDocsShowEveryRowAndNoOtherHook) {
  const std::string doc = reliability_doc();
  ASSERT_FALSE(doc.empty()) << "docs/reliability.md";
  const auto section = doc.find("## Test hooks");
  ASSERT_NE(section, std::string::npos) << "docs/reliability.md has no Test hooks section";
  const std::set<std::string> table = table_names();
  for (const faults::HookInfo& h : faults::hooks())
    EXPECT_NE(doc.find("| `" + std::string(h.variable) + "` |", section), std::string::npos)
        << h.variable << " has no row in docs/reliability.md's Test hooks table";
  for (const std::string& name : names_in(doc))
    EXPECT_TRUE(table.count(name)) << "docs/reliability.md names " << name << ", not a hook";
}

TEST(Faults, BreakCheckMatchesTheGlob) {
  unsetenv("GPUBARRIER_TEST_BREAK");
  EXPECT_FALSE(faults::active(faults::Hook::break_check));
  EXPECT_FALSE(faults::break_check("gpu.grid.cg"));
  setenv("GPUBARRIER_TEST_BREAK", "gpu.grid.*", 1);
  EXPECT_TRUE(faults::active(faults::Hook::break_check));
  EXPECT_EQ(faults::setting(faults::Hook::break_check), "gpu.grid.*");
  EXPECT_TRUE(faults::break_check("gpu.grid.cg"));
  EXPECT_FALSE(faults::break_check("gpu.sync.block"));
  setenv("GPUBARRIER_TEST_BREAK", "", 1);
  EXPECT_FALSE(faults::break_check("gpu.grid.cg"));
  unsetenv("GPUBARRIER_TEST_BREAK");
}

TEST(Faults, CrashOrHangLeavesOtherPointsAndRanksAlone) {
  unsetenv("GPUBARRIER_TEST_HANG");
  setenv("GPUBARRIER_TEST_CRASH", "host.omp.barrier group_size=3", 1);
  faults::crash_or_hang("host.omp.barrier", "group_size=2");  // returns
  faults::crash_or_hang("host.mpi.barrier", "group_size=3");  // returns
  setenv("GPUBARRIER_TEST_CRASH", "host.omp.barrier@99999", 1);  // another rank's
  faults::crash_or_hang("host.omp.barrier", "group_size=3");
  unsetenv("GPUBARRIER_TEST_CRASH");
}

TEST(FaultsDeathTest, CrashAbortsTheMatchingPoint) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        setenv("GPUBARRIER_TEST_CRASH", "host.omp.barrier group_size=3", 1);
        faults::crash_or_hang("host.omp.barrier", "group_size=3");
      },
      "GPUBARRIER_TEST_CRASH: aborting in host.omp.barrier group_size=3");
  EXPECT_DEATH(
      {
        setenv("GPUBARRIER_TEST_CRASH", "host.omp.*", 1);  // the method alone matches too
        faults::crash_or_hang("host.omp.barrier", "group_size=3");
      },
      "aborting");
}

TEST(Faults, DeviceFaultNamesArePrefixesOfTheEnum) {
  using faults::DeviceFault;
  const std::vector<ValueName> some = faults::device_fault_names(DeviceFault::absent);
  ASSERT_EQ(some.size(), 3u);
  EXPECT_EQ(some[1].code, static_cast<long>(DeviceFault::skip_wait));
  EXPECT_EQ(some[1].name, "skip-wait");
  const std::vector<ValueName> all = faults::device_fault_names(DeviceFault::absent_timing);
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all[3].name, "unordered");
  EXPECT_EQ(all[4].code, static_cast<long>(DeviceFault::absent_timing));
  for (const ValueName& n : all) EXPECT_FALSE(n.meaning.empty()) << n.name;
}

}  // namespace
}  // namespace gb

// Adding a method is one source file (docs/architecture.md, "Adding a method"): every registered
// method is registered by a file of its own and named by no other source file, and each example
// that section tells a reader to copy is such a file, beside the frame it names. A method's
// other files are the regenerated documents (scripts/regenerate-docs).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/registry.hpp"

namespace fs = std::filesystem;
using namespace gb;

namespace {

const fs::path kRoot = GB_SOURCE_DIR;

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every C++/CUDA source of the methods' layers and below, by path relative to the root.
std::map<std::string, std::string> sources() {
  std::map<std::string, std::string> out;
  for (const char* folder : {"src", "kernels", "topology", "jobs"})
    for (const auto& e : fs::recursive_directory_iterator(kRoot / folder)) {
      const std::string ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".cpp" || ext == ".hpp" || ext == ".cu" || ext == ".cuh"))
        out[fs::relative(e.path(), kRoot).string()] = read(e.path());
    }
  return out;
}

// The registrations of a file: lines that start with the macro (not its definition, not the
// examples in comments).
int registrations(const std::string& text) {
  static const std::regex line("^GB_REGISTER_METHOD\\(", std::regex::multiline);
  return static_cast<int>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), line), std::sregex_iterator()));
}

}  // namespace

TEST(MethodFiles, EachMethodIsRegisteredAndNamedByOneFile) {
  const auto files = sources();
  ASSERT_GT(files.size(), 100u) << "no sources under " << kRoot;
  int registered = 0;
  for (const auto& [path, text] : files) {
    const int n = registrations(text);
    EXPECT_LE(n, 1) << path << " registers " << n << " methods: one file per method";
    registered += n;
  }
  const auto methods = Registry::instance().create_all();
  EXPECT_EQ(registered, static_cast<int>(methods.size()));
  for (const auto& m : methods) {
    const std::string literal = "\"" + std::string(m->name()) + "\"";
    std::vector<std::string> naming;
    for (const auto& [path, text] : files)
      if (text.find(literal) != std::string::npos)
        naming.push_back(path);
    EXPECT_EQ(naming.size(), 1u) << m->name() << " is named by " << naming.size()
                                 << " source files, the first "
                                 << (naming.empty() ? "none" : naming.front())
                                 << ": a method's name belongs to its own file";
  }
}

TEST(MethodFiles, TheExamplesToCopyAreOneFileEach) {
  const std::string doc = read(kRoot / "docs/architecture.md");
  const auto at = doc.find("## Adding a method");
  ASSERT_NE(at, std::string::npos);
  const std::string section = doc.substr(at);
  EXPECT_NE(section.find("scripts/regenerate-docs"), std::string::npos);
  EXPECT_NE(section.find("gpubarrier_tools/data/schema.json"), std::string::npos);
  EXPECT_TRUE(fs::exists(kRoot / "scripts/regenerate-docs"));
  static const std::regex path("`((kernels|src/methods)/[a-z_/]+\\.(cu|cuh|cpp))`");
  std::set<std::string> examples, frames;
  for (auto it = std::sregex_iterator(section.begin(), section.end(), path);
       it != std::sregex_iterator(); ++it) {
    const std::string p = (*it)[1];
    (p.find("/detail/") != std::string::npos || p.find("/frame/") != std::string::npos ? frames
                                                                                       : examples)
        .insert(p);
  }
  EXPECT_GE(examples.size(), 7u) << "an example for each kind of method";
  for (const std::string& p : examples) {
    ASSERT_TRUE(fs::exists(kRoot / p)) << p;
    if (p.ends_with(".cuh")) continue;  // a policy header that a second method reuses
    EXPECT_EQ(registrations(read(kRoot / p)), 1) << p << " is no method file of its own";
  }
  // Every frame the section names is where it says, private to its level (detail/) or the
  // multi-GPU level's public frame/.
  EXPECT_GE(frames.size(), 6u);
  for (const std::string& p : frames) EXPECT_TRUE(fs::exists(kRoot / p)) << p;
}

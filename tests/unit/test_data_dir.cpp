// Where the data files are (src/paths/data_dir.cpp), for an executable in its build folder, in an
// install prefix, copied elsewhere with the source tree still there, and with nothing anywhere.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "paths/data_dir.hpp"

namespace gb::paths {
namespace {

namespace fs = std::filesystem;

// A fresh folder under the test's temporary folder; `data` folders get configs/ and
// gpubarrier_tools/.
struct Tree {
  fs::path root = fs::temp_directory_path() /
                  ("gb-data-dir-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                   "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  Tree() {
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~Tree() { fs::remove_all(root); }
  fs::path folder(const std::string& rel) const {
    fs::create_directories(root / rel);
    return root / rel;
  }
  fs::path data(const std::string& rel) const {
    folder(rel + "/configs");
    folder(rel + "/gpubarrier_tools");
    return root / rel;
  }
};

TEST(DataDir, BuildFolderUsesItsSourceTree) {
  Tree t;
  const fs::path source = t.data("src");
  const fs::path build = t.folder("src/build");
  const DataDir d = data_dir(build, build, source);
  EXPECT_TRUE(d.found);
  EXPECT_EQ(d.origin, "source tree");
  EXPECT_EQ(d.path, source);
}

TEST(DataDir, InstalledPrefixWinsOverTheSourceTree) {
  Tree t;
  const fs::path source = t.data("src");
  const fs::path installed = t.data("prefix/share/gpubarrier");
  const DataDir d = data_dir(t.folder("prefix/bin"), t.folder("src/build"), source);
  EXPECT_TRUE(d.found);
  EXPECT_EQ(d.origin, "installed");
  EXPECT_EQ(d.path, installed);
}

TEST(DataDir, CopiedExecutableFallsBackToAnExistingSourceTree) {
  Tree t;
  const fs::path source = t.data("src");
  const DataDir d = data_dir(t.folder("elsewhere/bin"), t.folder("src/build"), source);
  EXPECT_TRUE(d.found);
  EXPECT_EQ(d.origin, "source tree");
  EXPECT_EQ(d.path, source);
}

TEST(DataDir, NothingFoundNamesTheInstalledPlace) {
  Tree t;
  // A prefix with share/gpubarrier but without its gpubarrier_tools/ is no install either.
  t.folder("prefix/share/gpubarrier/configs");
  const DataDir d = data_dir(t.folder("prefix/bin"), t.root / "gone/build", t.root / "gone");
  EXPECT_FALSE(d.found);
  EXPECT_EQ(d.origin, "not found");
  EXPECT_EQ(d.path, t.root / "prefix/share/gpubarrier");
}

TEST(DataDir, ThisTestRunsFromItsBuildFolder) {
  // test_unit sits in the build folder's tests/, not beside gpubarrier: not the build folder
  // itself, so the source tree is found as the fallback.
  const DataDir& d = data_dir();
  EXPECT_TRUE(d.found);
  EXPECT_TRUE(fs::is_regular_file(d.path / "configs" / "sweeps" / "quick.yaml")) << d.path;
  EXPECT_NE(data_dir_line().find("data files: "), std::string::npos);
}

}  // namespace
}  // namespace gb::paths

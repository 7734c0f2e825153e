// Where gpubarrier's data files are (gpubarrier_tools/, configs/, jobs/templates/, reframe/), found
// relative to the running executable: <prefix>/share/gpubarrier after `cmake --install`, the source tree
// when it runs from its build folder. Every lookup of those files starts here.
#pragma once

#include <filesystem>
#include <string>

namespace gb::paths {

// The folder under an install prefix that holds the data files ("share/gpubarrier").
inline constexpr const char* kInstalledData = "share/gpubarrier";

struct DataDir {
  std::filesystem::path path;  // where the files are; where they should be when `found` is false
  std::string origin;          // "installed", "source tree" or "not found"
  bool found = false;
};

// The folder of this executable (/proc/self/exe, symlinks resolved); "." when it cannot be read.
std::filesystem::path executable_dir();

// The rule, for an executable in `exe_dir` of a build configured in `build_dir` from `source_dir`:
// the source tree when the executable is in its build folder; else <exe_dir>/../share/gpubarrier
// when that holds the data files (an installed gpubarrier); else the source tree when it still
// exists (a copied executable); else not found, with the installed location as `path`.
DataDir data_dir(const std::filesystem::path& exe_dir, const std::filesystem::path& build_dir,
                 const std::filesystem::path& source_dir);

// The same for this process (its executable and the build it came from), worked out once.
const DataDir& data_dir();

// One line for --version: "data files: <path> (<origin>)".
std::string data_dir_line();

// The Python tools' folder: GPUBARRIER_TOOLS when set, else gpubarrier_tools/ of the data files.
std::filesystem::path tools_dir();

// The first executable file `name` in PATH's folders, as a path; empty when there is none.
std::string find_on_path(const std::string& name);

}  // namespace gb::paths

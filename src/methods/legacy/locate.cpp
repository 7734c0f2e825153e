#include "methods/legacy/locate.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "methods/legacy/protocol.hpp"
#include "paths/data_dir.hpp"

namespace gb::legacy {
namespace {

namespace fs = std::filesystem;

bool executable_file(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

HelperLocation locate_helper(const char* env_value, const std::string& self_dir) {
  if (env_value && *env_value) {
    if (executable_file(env_value)) return {env_value, {}};
    return {{},
            "GPUBARRIER_LEGACY_HELPER=" + std::string(env_value) +
                " is not an executable file (it names the gpubarrier-legacy helper to use)"};
  }
  const std::string path = (fs::path(self_dir) / kHelperName).string();
  if (executable_file(path)) return {path, {}};
  return {{},
          std::string(kHelperName) + " is not next to gpubarrier (" + self_dir +
              "/): this method needs that helper, built with a CUDA 11.x/12.x toolkit because "
              "CUDA 13 removed this_multi_grid() and cudaLaunchCooperativeKernelMultiDevice; "
              "build it with `GPUBARRIER_LEGACY=1 scripts/setup`, or configure with "
              "-DGPUBARRIER_LEGACY_CUDA=/path/to/cuda-11.x-or-12.x and build the target "
              "gpubarrier-legacy (or point GPUBARRIER_LEGACY_HELPER at one)"};
}

HelperLocation locate_helper() {
  return locate_helper(std::getenv("GPUBARRIER_LEGACY_HELPER"), paths::executable_dir().string());
}

Usability usable(const RunContext& ctx, const Usability& base) {
  if (ctx.launch.under_mpi)
    return Usability::no(
        "no mpi mode: cudaLaunchCooperativeKernelMultiDevice is one process driving every GPU; "
        "start gpubarrier without mpirun (threads mode)");
  const HelperLocation where = locate_helper();
  if (where.path.empty())
    return Usability::no(base.ok ? where.problem : base.reason + "; and " + where.problem);
  return base;
}

}  // namespace gb::legacy

// Where gpubarrier finds gpubarrier-legacy, and what the legacy methods say where it is absent or
// cannot be used (README.md, "GPU machine").
#pragma once

#include <string>

#include "core/method.hpp"
#include "core/run_context.hpp"

namespace gb::legacy {

struct HelperLocation {
  std::string path;     // empty when absent
  std::string problem;  // why it is absent, and how to provide it
};

// GPUBARRIER_LEGACY_HELPER when set (it must be an executable file), else gpubarrier-legacy in
// `self_dir`, the folder of the running gpubarrier (the build puts the helper there, and
// `cmake --install` puts both in <prefix>/bin).
HelperLocation locate_helper(const char* env_value, const std::string& self_dir);
// The same for this process (its environment and /proc/self/exe).
HelperLocation locate_helper();

// Why a legacy method cannot run in this process: under mpirun (one process drives every GPU:
// there is no mpi mode); else `base` (the method's own checks, e.g. no GPU visible) and the
// helper's absence, both when both apply, so that a build without the helper says so everywhere.
Usability usable(const RunContext& ctx, const Usability& base);

}  // namespace gb::legacy

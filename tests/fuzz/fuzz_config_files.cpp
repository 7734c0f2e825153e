// libFuzzer targets for the sweep-file and system-file loaders (src/io/sweep_file.cpp,
// src/io/system_file.cpp): yaml-cpp behind the size and nesting limits of src/io/config_limits.
// A loader must either return a value or throw gb::UsageError (gb::ParseError is one, and names
// file, line and what was expected); anything else (a crash, a sanitizer report, a
// YAML::Exception or another exception, a hang) is a bug. One source, two targets:
// fuzz_sweep_file (GB_FUZZ_SWEEP) and fuzz_system_file (GB_FUZZ_SYSTEM).
//
// Build (clang only) and run from the repository root:
//   cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DGPUBARRIER_FUZZ=ON
//   cmake --build build-fuzz --target fuzz_sweep_file fuzz_system_file
//   mkdir -p /tmp/corpus-sweep
//   build-fuzz/tests/fuzz/fuzz_sweep_file /tmp/corpus-sweep tests/fuzz/corpus/sweep_file \
//       -dict=tests/fuzz/yaml.dict -max_total_time=240 -timeout=5 -rss_limit_mb=4096
// (and the same for fuzz_system_file with tests/fuzz/corpus/system_file). A crash leaves
// crash-<hash> in the working directory: reproduce it with the target and that file; then make
// it a case of tests/unit/test_config_limits.cpp.
#include <cstddef>
#include <cstdint>
#include <string>

#include "errors/errors.hpp"
#include "io/sweep_file.hpp"
#include "io/system_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
#if defined(GB_FUZZ_SWEEP)
    const gb::SweepFile sweep = gb::parse_sweep_text(text, "fuzz.yaml");
    for (const auto& run : sweep.runs) (void)run.methods.size();
#else
    // An alias is resolved beside the source: the shipped catalogue, so aliases load for real.
    const gb::SystemFile sys = gb::parse_system_text(text, GB_SYSTEMS_DIR "/fuzz.yaml");
    (void)sys.cuda_arch();
#endif
  } catch (const gb::UsageError&) {
    return 0;
  }
  return 0;
}

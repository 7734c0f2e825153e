// libFuzzer target for the `nvidia-smi topo -m` parser and everything derived from its result.
// The parser must either return a topology or throw gb::ParseError; anything else (a crash, a
// sanitizer report, another exception such as JSON's on text that is not UTF-8, a hang) is a bug.
//
// Build (clang only) and run from the repository root:
//   cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DGPUBARRIER_FUZZ=ON
//   cmake --build build-fuzz --target fuzz_smi_parser
//   mkdir -p /tmp/fuzz-corpus
//   build-fuzz/tests/fuzz/fuzz_smi_parser /tmp/fuzz-corpus tests/fuzz/corpus \
//       -dict=tests/fuzz/smi.dict -max_total_time=180 -timeout=5 -jobs=2
// New inputs go to /tmp/fuzz-corpus (the first folder); tests/fuzz/corpus stays a small seed
// set. A crash leaves crash-<hash> in the working directory: reproduce it with
//   build-fuzz/tests/fuzz/fuzz_smi_parser crash-<hash>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "errors/errors.hpp"
#include "topology/json.hpp"
#include "topology/smi_parser.hpp"
#include "topology/text.hpp"
#include "topology/topology_class.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gb::topo::Topology topo;
  try {
    topo = gb::topo::parse_nvidia_smi_topo(text, "fuzz");
  } catch (const gb::ParseError&) {
    return 0;
  }
  // What `gpubarrier topo --smi-file F [--json]` does with a parsed file. The parser passes only
  // UTF-8 text, so the strict dump (which throws on anything else) must succeed.
  (void)gb::topo::to_json(topo).dump(2);
  (void)gb::topo::to_text(topo);
  if (topo.gpu_count() > 1) (void)gb::topo::topology_class(topo, {0, topo.gpu_count() - 1});
  return 0;
}

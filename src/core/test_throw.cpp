#include "core/test_throw.hpp"

#include <atomic>
#include <cstdlib>
#include <string>

#include "core/errors.hpp"

namespace gb {
namespace {

// Set by the runner's thread before the members' threads start (an OpenMP region's start orders
// it before their reads).
std::atomic<const char*> g_phase{""};
std::atomic<bool> g_thrown{false};

}  // namespace

TestPhase::TestPhase(const char* phase) {
  g_phase = phase;
}

TestPhase::~TestPhase() {
  g_phase = "";
}

void test_throw(int member) {
  const char* spec = std::getenv("GPUBARRIER_TEST_THROW");
  if (!spec || !*spec) return;
  const std::string s(spec);
  const auto colon = s.find(':');
  const std::string phase = s.substr(0, colon);
  char* end = nullptr;
  const long who = colon == std::string::npos ? -1 : std::strtol(s.c_str() + colon + 1, &end, 10);
  if ((phase != "verify" && phase != "measure") || who < 0 || !end || *end)
    throw Error("GPUBARRIER_TEST_THROW=" + s + ": expected <verify|measure>:<member>");
  if (phase == g_phase.load() && who == member && !g_thrown.exchange(true))
    throw Error("GPUBARRIER_TEST_THROW: member " + std::to_string(member) + " throws in " + phase);
}

}  // namespace gb

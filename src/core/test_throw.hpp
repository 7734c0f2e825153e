// TEST-ONLY: GPUBARRIER_TEST_THROW=<phase>:<member> makes one member throw, as a real failure of
// its work would, so that tests can show that the whole team ends the point as a `failed` row,
// hangs nowhere and goes on with the next point (core/agreement.hpp). <phase>: verify or
// measure, the part of a point the runner is in; <member>: a rank under mpirun (of a method run
// on every rank), else a thread (a GPU's thread of a team, or a thread of host.omp.barrier). It
// throws once per process: where that member first starts its part of a parallel section or host
// loop in that phase (Team::parallel, ReferenceLoop::run_member), inside the guard that catches a
// real failure there; later points run clean. Never set in a real run.
#pragma once

namespace gb {

// Names the part of a point that runs while it lives (the runner's verify and measure).
class TestPhase {
 public:
  explicit TestPhase(const char* phase);
  ~TestPhase();
  TestPhase(const TestPhase&) = delete;
  TestPhase& operator=(const TestPhase&) = delete;
};

// Throws gb::Error the first time GPUBARRIER_TEST_THROW names the current phase and `member`,
// and whenever it is malformed (a test that sets it must not pass because of a typo).
void test_throw(int member);

}  // namespace gb

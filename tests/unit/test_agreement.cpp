// A member that fails keeps meeting the others and the failure is raised after the loop
// (core/agreement.hpp), outside MPI; the MPI side runs in tests/mpi/test_mpi.py.
#include <gtest/gtest.h>

#include <barrier>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "core/agreement.hpp"
#include "core/faults.hpp"
#include "core/host_loop_reference.hpp"
#include "quick_context.hpp"

using namespace gb;
using gb::test::quick_context;

TEST(MemberFailure, KeepsTheFirstFailureAndSkipsLaterWork) {
  MemberFailure f;
  int runs = 0;
  f.guard([&] { ++runs; });
  EXPECT_FALSE(f.failed());
  f.guard([&] {
    ++runs;
    throw std::runtime_error("cudaStreamSynchronize failed");
  });
  f.guard([&] { ++runs; });  // skipped: this member failed already
  f.keep("a later failure");
  EXPECT_TRUE(f.failed());
  EXPECT_EQ(runs, 2);
  EXPECT_EQ(f.what(), "cudaStreamSynchronize failed");
  f.clear();
  EXPECT_FALSE(f.failed());
}

TEST(Agreement, OutsideMpiAFailureStaysLocalAndSettleNamesTheFirstMember) {
  RunContext ctx = quick_context();
  ctx.collective = true;  // threads mode: collective, but no ranks to agree with
  EXPECT_FALSE(ranks_agree(ctx));
  EXPECT_NO_THROW(agree(ctx, "rank-less failure"));
  EXPECT_TRUE(any_rank_refuses(ctx, true));
  EXPECT_FALSE(any_rank_refuses(ctx, false));
  std::vector<MemberFailure> members(3);
  const auto label = [](int m) { return "thread " + std::to_string(m); };
  EXPECT_NO_THROW(settle(ctx, members, label));
  members[2].keep("second");
  members[1].keep("first");
  try {
    settle(ctx, members, label);
    FAIL() << "settle must throw";
  } catch (const TeamFailure& e) {
    EXPECT_STREQ(e.what(), "thread 1 failed: first");
  }
}

TEST(TestThrow, AMalformedSpecFailsLoudly) {
  setenv("GPUBARRIER_TEST_THROW", "measure", 1);
  EXPECT_THROW(faults::throw_if_named(0), Error);
  setenv("GPUBARRIER_TEST_THROW", "teardown:1", 1);
  EXPECT_THROW(faults::throw_if_named(1), Error);
  unsetenv("GPUBARRIER_TEST_THROW");
  EXPECT_NO_THROW(faults::throw_if_named(1));
}

// Thread 1 throws at the start of its loop; thread 0 would wait for it at the next barrier
// forever if it left. It keeps meeting thread 0 instead, and the loop's end raises its failure.
TEST(ReferenceLoop, AThreadThatThrowsEndsTheLoopWithTheOthersAndFailsIt) {
  RunContext ctx = quick_context();
  setenv("GPUBARRIER_TEST_THROW", "measure:1", 1);
  const faults::Phase phase(PointPart::measure);
  ReferenceLoop loop(ctx, epcc_convention(), 2);
  std::barrier<> meet(2);
  auto member = [&](int i) {
    loop.run_member(
        i, [&] { meet.arrive_and_wait(); }, {}, [&] { meet.arrive_and_wait(); });
  };
  std::thread other(member, 1);
  member(0);
  other.join();
  unsetenv("GPUBARRIER_TEST_THROW");
  try {
    loop.settle();
    FAIL() << "settle must throw";
  } catch (const TeamFailure& e) {
    EXPECT_STREQ(e.what(), "thread 1 failed: GPUBARRIER_TEST_THROW: member 1 throws in measure");
  }
}

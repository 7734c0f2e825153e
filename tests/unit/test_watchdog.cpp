// The spin-loop watchdog's give-up rule and its host side, on the CPU with a fake clock.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "core/watchdog.hpp"

using namespace gb;

namespace {

struct FakeClock {
  const std::uint64_t* now;
  std::uint64_t operator()() const { return *now; }
};

struct FakeFlag {
  unsigned* word;
  bool raised() const { return *word != 0; }
  void raise() const { *word = 1; }
};

using Budget = SpinBudget<FakeClock, FakeFlag>;
constexpr unsigned kEvery = Budget::kCheckEvery;

// Spins until expired() or `limit` polls, advancing the clock by `ns_per_poll` each poll.
long spin(Budget& b, std::uint64_t& now, std::uint64_t ns_per_poll, long limit) {
  for (long polls = 1; polls <= limit; ++polls) {
    now += ns_per_poll;
    if (b.expired()) return polls;
  }
  return -1;
}

}  // namespace

TEST(SpinBudget, GivesUpOnceTheBudgetIsSpentAndRaisesTheFlag) {
  std::uint64_t now = 1'000'000;
  unsigned flag = 0;
  Budget b(10'000, FakeClock{&now}, FakeFlag{&flag});
  // 100 ns per poll: the budget starts at poll 64 and is spent 100 polls later; the clock is
  // read only every 64 polls, so the give-up comes at the next multiple of 64 after that.
  const long polls = spin(b, now, 100, 100'000);
  EXPECT_EQ(polls, 192);
  EXPECT_EQ(polls % kEvery, 0);
  EXPECT_EQ(flag, 1u);
}

TEST(SpinBudget, QuickBarrierNeverReadsTheClock) {
  unsigned flag = 0;
  int reads = 0;
  struct CountingClock {
    int* reads;
    std::uint64_t operator()() const {
      ++*reads;
      return 0;
    }
  };
  SpinBudget<CountingClock, FakeFlag> b(1, CountingClock{&reads}, FakeFlag{&flag});
  for (unsigned i = 1; i < kEvery; ++i) EXPECT_FALSE(b.expired());
  EXPECT_EQ(reads, 0);
}

TEST(SpinBudget, StopsAtOnceWhenAnotherSpinnerGaveUp) {
  std::uint64_t now = 0;
  unsigned flag = 0;
  Budget b(1'000'000'000, FakeClock{&now}, FakeFlag{&flag});
  EXPECT_EQ(spin(b, now, 1, 5 * kEvery), -1);  // far inside its own budget
  flag = 1;                                    // another block's loop gave up
  EXPECT_EQ(spin(b, now, 1, 2 * kEvery), kEvery);
}

TEST(SpinBudget, BudgetCountsFromTheFirstCheckNotFromConstruction) {
  std::uint64_t now = 0;
  unsigned flag = 0;
  Budget b(1000, FakeClock{&now}, FakeFlag{&flag});
  now = 1'000'000;  // a long time passes before the loop starts spinning
  EXPECT_EQ(spin(b, now, 0, 3 * kEvery), -1);
  EXPECT_EQ(flag, 0u);
}

TEST(SpinBudget, SurvivesClockStartingNearWrap) {
  std::uint64_t now = UINT64_MAX - 50;
  unsigned flag = 0;
  Budget b(1000, FakeClock{&now}, FakeFlag{&flag});
  EXPECT_EQ(spin(b, now, 10, 100'000), 3 * kEvery);  // unsigned difference wraps correctly
}

TEST(WatchdogHost, BudgetFromOptions) {
  RunOptions o;
  o.watchdog_s = 2.0;
  EXPECT_EQ(watchdog_budget_ns(o), 2'000'000'000u);
  o.watchdog_s = 0.25;
  EXPECT_EQ(watchdog_budget_ns(o), 250'000'000u);
  for (double bad : {0.0, -1.0, 1e9, std::nan(""), HUGE_VAL}) {
    o.watchdog_s = bad;
    EXPECT_THROW(watchdog_budget_ns(o), UsageError) << bad;
  }
}

TEST(WatchdogHost, TimeoutMeasurementIsATimeoutRow) {
  RunOptions o;
  o.watchdog_s = 0.5;
  const std::string detail = watchdog_detail(o, "gpu.grid.atomic-sense");
  EXPECT_NE(detail.find("gpu.grid.atomic-sense"), std::string::npos);
  EXPECT_NE(detail.find("0.5 s"), std::string::npos);
  const Measurement m = timeout_measurement(Metric::latency, "ns", Technique::differential, detail);
  EXPECT_EQ(m.status, Status::timeout);
  EXPECT_EQ(m.metric, Metric::latency);
  EXPECT_EQ(m.technique, Technique::differential);
  EXPECT_EQ(m.note, detail);
  EXPECT_EQ(m.stats.count, 0u);
}

TEST(WatchdogHost, TimeoutIsAnError) {
  EXPECT_THROW(throw WatchdogTimeout("x"), Error);
}

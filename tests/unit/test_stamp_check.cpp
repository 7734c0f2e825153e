// The host-side barrier check on stamp records whose verdict is known: hand-made records and
// records produced by a small timing model of a working and of a broken barrier.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/check_draw.hpp"
#include "core/stamp_check.hpp"
#include "errors/errors.hpp"

using namespace gb;

namespace {

// Records of a barrier that works: all arrive before anyone leaves, every peer seen at round r.
std::vector<StampRecord> good_records(int rounds, int participants) {
  std::vector<StampRecord> v;
  for (int r = 1; r <= rounds; ++r)
    for (int i = 0; i < participants; ++i)
      v.push_back(
          {100L * r + i, 100L * r + 50 + i, static_cast<unsigned>(r), static_cast<unsigned>(r)});
  return v;
}

StampRecord& at(std::vector<StampRecord>& v, int participants, int round, int who) {
  return v[static_cast<std::size_t>(round - 1) * participants + who];
}

constexpr int kNobodyWaits = -2;  // Model::early: no barrier at all

// What the timing model below runs: who leaves as soon as it arrives (-1 nobody, kNobodyWaits
// everybody), the work before each publish (drawn from 1..work), and how long the late
// participant of each round (each in turn, as the warps of a block's check) waits beyond it.
struct Model {
  int early = -1;
  long long work = 40;
  long long late = 0;
};

// A timing model of the protocol: each participant publishes, reads its clock, arrives; a working
// barrier releases everyone once the last has arrived, a broken one lets `early` leave as soon as
// it arrives. Peers are read after leaving; a stamp is visible once its publish time has passed.
std::vector<StampRecord> simulate(int rounds, int n, Model m, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<long long> work(1, m.work);
  std::vector<long long> now(n, 0);
  std::vector<std::vector<long long>> published(n);  // published[j][r-1]: when j wrote r
  std::vector<StampRecord> records;
  for (int r = 1; r <= rounds; ++r) {
    std::vector<StampRecord> round(n);
    long long last_in = 0;
    for (int i = 0; i < n; ++i) {
      now[i] += work(rng);
      if (check_late(i, n, 0, 1, seed, static_cast<unsigned long long>(r))) now[i] += m.late;
      published[i].push_back(now[i]);
      round[i].before = now[i] + 1;
      last_in = std::max(last_in, round[i].before);
    }
    for (int i = 0; i < n; ++i) {
      const bool leaves = i == m.early || m.early == kNobodyWaits;
      round[i].after = (leaves ? round[i].before : last_in) + 5;
      now[i] = round[i].after;
    }
    records.insert(records.end(), round.begin(), round.end());
  }
  // Peers are read just after leaving; the model only needs the publish times of this round.
  for (int r = 1; r <= rounds; ++r)
    for (int i = 0; i < n; ++i) {
      StampRecord& s = records[static_cast<std::size_t>(r - 1) * n + i];
      const long long read = s.after + 1;
      s.seen_min = ~0u;
      s.seen_max = 0;
      for (int j = 0; j < n; ++j) {
        unsigned seen = 0;
        for (int q = 0; q < rounds && published[j][q] <= read; ++q) seen = q + 1;
        s.seen_min = std::min(s.seen_min, seen);
        s.seen_max = std::max(s.seen_max, seen);
      }
    }
  return records;
}

}  // namespace

TEST(StampCheck, WorkingBarrierPasses) {
  const auto v = good_records(8, 32);
  const StampFindings f = check_stamps(v, {8, 32, {}});
  EXPECT_TRUE(f.ok()) << f.first;
  EXPECT_EQ(f.records, 8 * 32);
  EXPECT_EQ(f.verdict().result, Verification::Result::passed);
}

TEST(StampCheck, PeerAlreadyInTheNextRoundIsFine) {
  auto v = good_records(4, 4);
  at(v, 4, 2, 1).seen_max = 3;  // a fast peer left round 2 and published 3: allowed
  EXPECT_TRUE(check_stamps(v, {4, 4, {}}).ok());
}

TEST(StampCheck, StaleStampIsCaught) {
  auto v = good_records(4, 4);
  at(v, 4, 3, 2).seen_min = 2;
  const StampFindings f = check_stamps(v, {4, 4, {}});
  EXPECT_EQ(f.stale, 1);
  EXPECT_EQ(f.ahead, 0);
  EXPECT_NE(f.first.find("round 3, participant 2 read stamp 2"), std::string::npos) << f.first;
  const Verification verdict = f.verdict();
  EXPECT_EQ(verdict.result, Verification::Result::failed);
  EXPECT_NE(verdict.detail.find("1 stale peer stamps"), std::string::npos) << verdict.detail;
}

TEST(StampCheck, StampFromBeyondTheNextBarrierIsCaught) {
  auto v = good_records(4, 4);
  at(v, 4, 1, 0).seen_max = 3;
  const StampFindings f = check_stamps(v, {4, 4, {}});
  EXPECT_EQ(f.ahead, 1);
  EXPECT_FALSE(f.ok());
}

TEST(StampCheck, LeavingBeforeTheLastArrivalIsCaught) {
  auto v = good_records(2, 8);
  at(v, 8, 2, 6).after = at(v, 8, 2, 7).before - 1;  // Fig. 17: 6 left before 7 arrived
  const StampFindings f = check_stamps(v, {2, 8, {}});
  EXPECT_EQ(f.out_of_order, 1);
  EXPECT_EQ(f.stale, 0);
  EXPECT_NE(f.first.find("participant 6 left"), std::string::npos) << f.first;
  EXPECT_NE(f.first.find("participant 7 arrived"), std::string::npos) << f.first;
}

TEST(StampCheck, ClocksAreComparedOnlyWithinAGroup) {
  // Two SMs with unrelated clocks: group 1's clock is far behind group 0's.
  auto v = good_records(3, 4);
  for (int r = 1; r <= 3; ++r)
    for (int i = 2; i < 4; ++i) {
      at(v, 4, r, i).before -= 1'000'000;
      at(v, 4, r, i).after -= 1'000'000;
    }
  EXPECT_FALSE(check_stamps(v, {3, 4, {}}).ok());
  EXPECT_TRUE(check_stamps(v, {3, 4, {7, 7, 3, 3}}).ok());
}

TEST(StampCheck, NonParticipantsAreIgnored) {
  auto v = good_records(2, 4);
  for (int r = 1; r <= 2; ++r) at(v, 4, r, 3) = StampRecord{};  // a lane outside the group
  const StampFindings f = check_stamps(v, {2, 4, {0, 0, 0, -1}});
  EXPECT_TRUE(f.ok()) << f.first;
  EXPECT_EQ(f.records, 2 * 3);
}

TEST(StampCheck, ModelOfAWorkingBarrierPasses) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto v = simulate(16, 12, {}, seed);
    const StampFindings f = check_stamps(v, {16, 12, {}});
    EXPECT_TRUE(f.ok()) << "seed " << seed << ": " << f.first;
  }
}

TEST(StampCheck, ModelOfAWorkingBarrierWithALateParticipantPasses) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto v = simulate(16, 12, {.late = 1000}, seed);
    const StampFindings f = check_stamps(v, {16, 12, {}});
    EXPECT_TRUE(f.ok()) << "seed " << seed << ": " << f.first;
  }
}

TEST(StampCheck, MissingBarrierIsCaughtOnlyWithALateParticipant) {
  // Participants in step (the warps of a block run the same code): without a barrier each reads
  // its peers' stamps after they were written, and nothing shows. With one late participant per
  // round, all of them starting together, the others read its stale stamp and leave before it
  // arrives in the first round already.
  const Model in_step{.early = kNobodyWaits, .work = 1};
  EXPECT_TRUE(check_stamps(simulate(16, 8, in_step, 1), {16, 8, {}}).ok());
  Model late = in_step;
  late.late = 1000;
  const StampFindings f = check_stamps(simulate(16, 8, late, 1), {16, 8, {}});
  EXPECT_GT(f.stale, 0);
  EXPECT_GT(f.out_of_order, 0);
  EXPECT_EQ(f.first.rfind("round 1,", 0), 0u) << f.first;
  EXPECT_EQ(f.verdict().result, Verification::Result::failed);
}

TEST(StampCheck, ModelOfABarrierThatLetsOneThroughIsCaught) {
  // The participant that leaves early reads stale stamps of the peers still working, and its
  // clock reading after the barrier precedes their arrival.
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto v = simulate(16, 12, {.early = 5}, seed);
    const StampFindings f = check_stamps(v, {16, 12, {}});
    EXPECT_FALSE(f.ok()) << "seed " << seed;
    EXPECT_GT(f.out_of_order, 0) << "seed " << seed;
    EXPECT_GT(f.stale, 0) << "seed " << seed;
    EXPECT_EQ(f.verdict().result, Verification::Result::failed);
  }
}

TEST(StampCheck, LayoutMismatchIsACallerBug) {
  const auto v = good_records(2, 4);
  EXPECT_THROW(check_stamps(v, {3, 4, {}}), Error);
  EXPECT_THROW(check_stamps(v, {2, 4, {0, 0}}), Error);
}

// Spinning members without a CPU each (by their masks, or by the CPU time they got), and a loop
// figure far from the per-step one of the same point: each makes a host figure noisy
// (core/oversubscription.hpp, results/SCHEMA.md "Noisy figures").
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/noisy.hpp"
#include "core/oversubscription.hpp"
#include "core/record.hpp"

using namespace gb;

namespace {

Measurement host_figure(Metric metric, double value) {
  Measurement m;
  m.metric = metric;
  m.unit = "ns";
  m.technique = Technique::host_loop;
  m.statistic =
      metric == Metric::loop_latency ? Statistic::loop_mean_max_threads : Statistic::median;
  m.value = value;
  m.stats.mean = value;
  m.stats.median = value;
  m.stats.cv = 0.01;
  m.stop = StopReason::converged;
  return m;
}

}  // namespace

TEST(Oversubscription, ATeamLargerThanItsCpusIsOversubscribed) {
  EXPECT_EQ(oversubscription({{0, "", 8, {0, 1}}}, "threads"),
            "oversubscribed: 8 spinning threads on 2 CPUs");
  EXPECT_EQ(oversubscription({{0, "", 2, {3}}}, "threads"),
            "oversubscribed: 2 spinning threads on 1 CPU");
  EXPECT_EQ(oversubscription({{0, "", 2, {0, 1}}}, "threads"), "");
  EXPECT_EQ(oversubscription({{0, "", 1, {0}}}, "threads"), "");
  // Unknown CPUs (no affinity mask read): nothing is claimed.
  EXPECT_EQ(oversubscription({{0, "", 8, {}}}, "threads"), "");
}

TEST(Oversubscription, RanksOfANodeCountAgainstTheUnionOfTheirCpus) {
  // Two ranks bound to a core each: two CPUs for two members.
  EXPECT_EQ(oversubscription({{0, "n1", 1, {0}}, {0, "n1", 1, {1}}}, "ranks"), "");
  // Three unbound ranks on a 2-CPU node.
  EXPECT_EQ(
      oversubscription({{0, "n1", 1, {0, 1}}, {0, "n1", 1, {0, 1}}, {0, "n1", 1, {0, 1}}}, "ranks"),
      "oversubscribed: 3 spinning ranks on 2 CPUs of n1");
  // Two ranks bound to the same core.
  EXPECT_EQ(oversubscription({{0, "n1", 1, {0}}, {0, "n1", 1, {0}}}, "ranks"),
            "oversubscribed: 2 spinning ranks on 1 CPU of n1");
  // One rank per node, each with one CPU: no node is oversubscribed.
  EXPECT_EQ(oversubscription({{0, "n1", 1, {0}}, {1, "n2", 1, {0}}}, "ranks"), "");
  // The node that is oversubscribed is named, whichever rank looks.
  EXPECT_EQ(oversubscription({{0, "n1", 1, {0, 1}}, {1, "n2", 1, {0}}, {1, "n2", 1, {0}}}, "ranks"),
            "oversubscribed: 2 spinning ranks on 1 CPU of n2");
}

TEST(Oversubscription, ThisProcessHasCpus) {
  const std::vector<int> cpus = process_cpus();
  ASSERT_FALSE(cpus.empty());
  EXPECT_TRUE(std::is_sorted(cpus.begin(), cpus.end()));
}

TEST(CpuShare, MembersWithoutTheirCpusAreNamed) {
  EXPECT_EQ(cpu_wait(0.25, "ranks"), "ranks had 25% of a CPU each (other work took the rest)");
  EXPECT_EQ(cpu_wait(0.5, "threads"), "threads had 50% of a CPU each (other work took the rest)");
  EXPECT_EQ(cpu_wait(kMinCpuShare, "threads"), "");
  EXPECT_EQ(cpu_wait(0.99, "ranks"), "");
  // No time passed, or members it cannot count: nothing is claimed.
  EXPECT_EQ(cpu_wait(1.0, "ranks"), "");
}

TEST(CpuShare, AProcessThatSleptHadNoCpu) {
  // Sleeping stands for a member whose CPU other work took: its CPU time stays put while the
  // wall clock runs.
  const CpuShare share;
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_LT(share.of(1), kMinCpuShare);
  EXPECT_NE(cpu_wait(share.of(1), "ranks"), "");
  EXPECT_EQ(CpuShare().of(0), 1);
}

TEST(LoopAgreement, ALoopFarFromThePerStepFigureIsNoisy) {
  EXPECT_EQ(loop_disagreement(500, 480), "");
  EXPECT_EQ(loop_disagreement(1900, 480), "");  // 3.96x: within 4x
  EXPECT_EQ(loop_disagreement(3.96e6, 480),
            "loop_latency 8250x latency (more than 4x apart: members waited for CPUs)");
  EXPECT_EQ(loop_disagreement(100, 480),
            "loop_latency 0.208x latency (more than 4x apart: members waited for CPUs)");
  EXPECT_EQ(loop_disagreement(100, 0), "");  // no per-step figure to compare with
}

TEST(LoopAgreement, BothRowsOfThePointAreMarkedNoisy) {
  std::vector<Measurement> figures{host_figure(Metric::loop_latency, 3.96e6),
                                   host_figure(Metric::latency, 480)};
  check_loop_agreement(figures);
  for (const Measurement& m : figures) {
    const std::string reason = noisy_reason(m);
    EXPECT_NE(reason.find("loop_latency 8250x latency"), std::string::npos) << name_of(m.metric);
    Measurement marked = m;
    mark_noisy(marked);
    EXPECT_NE(marked.note.find("noisy: "), std::string::npos) << marked.note;
  }
  // Figures that agree, or a point without both rows, stay quiet.
  std::vector<Measurement> quiet{host_figure(Metric::loop_latency, 300),
                                 host_figure(Metric::latency, 480)};
  check_loop_agreement(quiet);
  for (const Measurement& m : quiet) EXPECT_EQ(noisy_reason(m), "") << name_of(m.metric);
  std::vector<Measurement> alone{host_figure(Metric::latency, 480)};
  check_loop_agreement(alone);
  EXPECT_EQ(noisy_reason(alone[0]), "");
}

TEST(Oversubscription, AnOversubscribedFigureIsNoisyWhateverItsSpread) {
  Measurement m = host_figure(Metric::latency, 480);
  m.contention = "oversubscribed: 8 spinning threads on 2 CPUs";
  EXPECT_EQ(noisy_reason(m), "oversubscribed: 8 spinning threads on 2 CPUs");
  m.stats.cv = 0.3;
  EXPECT_EQ(noisy_reason(m), "cv 0.3 > 0.25, oversubscribed: 8 spinning threads on 2 CPUs");
}

// selfcheck's printers (io/selfcheck_tables.hpp, io/selfcheck_json.hpp) on a made-up outcome.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "core/selfcheck_outcome.hpp"
#include "io/selfcheck_json.hpp"
#include "io/selfcheck_tables.hpp"
#include "measured.hpp"
#include "text_contains.hpp"

using namespace gb;
using namespace gb::selfcheck;

namespace {

using gb::test::measured;

Outcome outcome(double differential_at_2048) {
  Outcome o;
  o.gpu = 1;
  o.gpu_model = "NVIDIA H100 80GB HBM3";
  o.sm_clock_hz = 1.98e9;
  o.tolerance = 0.05;
  o.loop_body = 512;
  o.base_trips = 10;
  o.base_adds = 512;
  o.loop_lo = {4.037, 0.001, 20, StopReason::converged};
  o.reference = {3.996, 0.001, 20, StopReason::converged};
  o.loop.push_back(judge_loop(5120, 7168, measured(4.038, 0.001),
                              measured(differential_at_2048, 0.046), 1.98e9, 0.05));
  o.loop.push_back(
      judge_loop(5120, 10240, measured(4.038, 0.001), measured(4.05, 0.04), 1.98e9, 0.05));
  o.chains.push_back(
      judge_chain(512, 2560, measured(3.999, 0.001), measured(4.377, 0.044), o.reference));
  o.chains.push_back(
      judge_chain(512, 10752, measured(5.005, 0.001), measured(5.054, 0.051), o.reference));
  return o;
}

std::string printed(const Outcome& o) {
  std::FILE* f = std::tmpfile();
  print_selfcheck(f, o);
  std::rewind(f);
  std::string text;
  char buf[4096];
  while (const std::size_t n = std::fread(buf, 1, sizeof buf, f)) text.append(buf, n);
  std::fclose(f);
  return text;
}

using gb::test::has;

}  // namespace

TEST(SelfcheckPrint, TablesShowBothTechniquesAndTheVerdict) {
  const std::string text = printed(outcome(4.05));
  EXPECT_TRUE(has(text, "GPU 1: NVIDIA H100 80GB HBM3, SM clock 1980 MHz measured")) << text;
  EXPECT_TRUE(has(text, "R_lo = 5120 adds (10 trips), clock 4.037 cycles/add.")) << text;
  EXPECT_TRUE(has(text, "     2048     14      4.038      100         4.050     0.046")) << text;
  EXPECT_TRUE(has(text, "     2560        40      3.999   yes         4.377")) << text;
  EXPECT_TRUE(has(text, "    10752       168      5.005    no")) << text;
  EXPECT_TRUE(has(text, "PASS: the loop kernel's differential figure agrees")) << text;
  EXPECT_TRUE(has(text, "\nThe unrolled chain stops fitting the instruction cache at 10752 adds"))
      << text;
}

TEST(SelfcheckPrint, TablesSayFailWhenTheTechniquesDisagree) {
  const std::string text = printed(outcome(4.588));
  EXPECT_TRUE(has(text, "13.6%     NO")) << text;
  EXPECT_TRUE(has(text, "FAIL: the loop kernel's differential figure disagrees")) << text;
}

TEST(SelfcheckPrint, JsonKeepsItsShape) {
  const nlohmann::json j = selfcheck_json(outcome(4.588));
  EXPECT_EQ(j["gpu"], 1);
  EXPECT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["icache"].size(), 2u);
  EXPECT_EQ(j["rows"][0]["repeat_difference"], 2048);
  EXPECT_EQ(j["rows"][0]["trips_hi"], 14);
  EXPECT_EQ(j["rows"][0]["agreement"], "none");
  EXPECT_EQ(j["rows"][0]["agrees"], false);
  EXPECT_EQ(j["rows"][0]["differential"]["samples"], 100);
  EXPECT_NEAR(j["rows"][0]["differential"]["se_cycles"].get<double>(), 0.046, 1e-12);
  EXPECT_EQ(j["icache"][1]["fits_icache"], false);
  EXPECT_EQ(j["stops_fitting_at"]["adds"], 10752);
  EXPECT_NEAR(j["reference_cycles"].get<double>(), 3.996, 1e-12);
  EXPECT_EQ(j["ok"], false);
  EXPECT_TRUE(j["verdict"].get<std::string>().starts_with("the loop kernel's differential"));
}

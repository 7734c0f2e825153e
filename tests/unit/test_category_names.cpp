// Categorical values are enums with one name table each (core/names.hpp): every name reads back
// as its value, a text no table holds is refused naming the names it could have been, and no
// source compares or sets such a category as a string, so a misspelt name cannot pass unnoticed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "app/isolation_mode.hpp"
#include "core/host_loop_reference.hpp"
#include "core/metric.hpp"
#include "core/names.hpp"
#include "core/point_part.hpp"
#include "core/statistic.hpp"
#include "core/stop_reason.hpp"
#include "core/technique.hpp"
#include "jobs/request.hpp"

namespace fs = std::filesystem;
using namespace gb;

namespace {

// Every value of E is named once, every name once, and each name reads back as its value.
template <class E>
void expect_round_trip() {
  std::set<std::string_view> names;
  std::set<E> values;
  for (const Named<E>& n : name_table(E{})) {
    EXPECT_TRUE(names.insert(n.name).second) << "name '" << n.name << "' twice";
    EXPECT_TRUE(values.insert(n.value).second) << "a value named twice: '" << n.name << "'";
    EXPECT_EQ(name_of(n.value), n.name);
    ASSERT_TRUE(from_name<E>(n.name).has_value()) << n.name;
    EXPECT_EQ(*from_name<E>(n.name), n.value) << n.name;
  }
}

// A text no table holds is refused, and the message names the text and every name.
template <class E>
void expect_refused(std::string_view text, std::string_view what) {
  EXPECT_FALSE(from_name<E>(text).has_value()) << text;
  try {
    parse_name<E>(text, what);
    ADD_FAILURE() << "'" << text << "' was accepted as a " << what;
  } catch (const UsageError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("unknown " + std::string(what) + " '" + std::string(text) + "'"),
              std::string::npos)
        << message;
    for (const Named<E>& n : name_table(E{}))
      EXPECT_NE(message.find("'" + std::string(n.name) + "'"), std::string::npos)
          << message << " lacks " << n.name;
  }
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST(CategoryNames, TechniqueNamesRoundTrip) {
  expect_round_trip<Technique>();
  EXPECT_EQ(name_of(Technique::host_loop), "host-loop");
  EXPECT_EQ(name_of(Technique::none), "");
  expect_refused<Technique>("Clock", "technique");
  expect_refused<Technique>("host_loop", "technique");
}

// The metric names are the CSV's `metric` column as results/SCHEMA.md lists it, byte for byte.
TEST(CategoryNames, MetricNamesRoundTrip) {
  expect_round_trip<Metric>();
  EXPECT_EQ(name_of(Metric::none), "");
  EXPECT_EQ(names_of<Metric>(),
            (std::vector<std::string>{
                "", "latency", "loop_latency", "interval", "loop_interval", "latency_cycles",
                "throughput", "throughput_cycles", "launch_interval", "launch_overhead",
                "one_way_latency", "check_stale_stamps", "check_stale_payload",
                "check_early_release", "check_left_early", "check_never_arrived", "bandwidth",
                "bandwidth_cycles", "cycles_per_add"}));
}

TEST(CategoryNames, UnknownMetricIsRefused) {
  expect_refused<Metric>("Latency", "metric");
  expect_refused<Metric>("latency ", "metric");
  expect_refused<Metric>("latency-cycles", "metric");
}

TEST(CategoryNames, StatisticNamesRoundTrip) {
  expect_round_trip<Statistic>();
  EXPECT_EQ(name_of(Statistic::loop_mean_max_threads), "loop-mean-max-threads");
  expect_refused<Statistic>("mean", "statistic");
  EXPECT_TRUE(from_equation(Statistic::eq6));
  EXPECT_TRUE(from_equation(Statistic::eq7));
  EXPECT_FALSE(from_equation(Statistic::loop_mean_avg_ranks));
}

TEST(CategoryNames, StopReasonNamesRoundTrip) {
  expect_round_trip<StopReason>();
  expect_refused<StopReason>("budget ", "stop reason");
}

TEST(CategoryNames, IsolationNamesRoundTrip) {
  expect_round_trip<cli::Isolation>();
  expect_refused<cli::Isolation>("methods", "--isolate");
  EXPECT_EQ(names_of<cli::Isolation>(), (std::vector<std::string>{"method", "point", "none"}));
}

TEST(CategoryNames, JobsSchedulerAndBindNamesRoundTrip) {
  expect_round_trip<jobs::Scheduler>();
  expect_round_trip<jobs::Bind>();
  EXPECT_EQ(names_of<jobs::Scheduler>(), (std::vector<std::string>{"slurm", "none"}));
  EXPECT_EQ(names_of<jobs::Bind>(), (std::vector<std::string>{"core", "none"}));
  expect_refused<jobs::Scheduler>("pbs", "--scheduler");
  expect_round_trip<jobs::Subset>();
  EXPECT_EQ(names_of<jobs::Subset>(), (std::vector<std::string>{"best", "worst"}));
}

TEST(CategoryNames, PointPartNamesRoundTrip) {
  expect_round_trip<PointPart>();
  expect_refused<PointPart>("measuring", "part");
}

// The loop statistic names its combination and its members, as the reference tools do.
TEST(CategoryNames, LoopConventionsNameTheirStatistic) {
  for (LoopCombine combine : {LoopCombine::average, LoopCombine::maximum})
    for (LoopMember member : {LoopMember::rank, LoopMember::thread}) {
      const std::string name(name_of(LoopConvention{combine, member}.statistic()));
      EXPECT_EQ(name, std::string("loop-mean-") +
                          (combine == LoopCombine::average ? "avg-" : "max-") +
                          (member == LoopMember::rank ? "ranks" : "threads"));
    }
}

// Code compares and sets the enums: a technique, statistic, stop reason, metric, isolation, loop
// member, point part or GPU subset written as a string literal in a comparison or an assignment
// would be text that no table checks.
TEST(CategoryNames, NoSourceComparesACategoryAsText) {
  const fs::path root = GB_SOURCE_DIR;
  static const std::regex as_text(
      R"(\b(technique|statistic|stop|metric|isolate|members|phase|subsets?)(\(\))?\s*(==|!=|=)\s*")");
  int files = 0;
  for (const char* folder : {"src", "kernels", "topology", "jobs"})
    for (const auto& e : fs::recursive_directory_iterator(root / folder)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".cu" && ext != ".cuh"))
        continue;
      ++files;
      std::istringstream lines(read(e.path()));
      std::string line;
      for (int number = 1; std::getline(lines, line); ++number)
        EXPECT_FALSE(std::regex_search(line, as_text))
            << fs::relative(e.path(), root).string() << ":" << number << ": " << line;
    }
  EXPECT_GT(files, 100) << "no sources under " << root;
}

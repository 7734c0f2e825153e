// Schema v2: provenance columns after note, older layouts, and records that cross the pipe from an
// isolated child without losing anything.
#include <gtest/gtest.h>

#include <cmath>

#include "core/run_context.hpp"
#include "errors/errors.hpp"
#include "io/point_stream.hpp"
#include "io/row.hpp"

using namespace gb;

TEST(RowV2, ProvenanceColumnsFollowNote) {
  const auto cols = Row::columns_of_version(2);
  ASSERT_EQ(cols.size(), 44u);
  const std::vector<std::string> tail(cols.end() - 4, cols.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"note", "node", "slurm_job_id", "slurm_step_id"}));
}

TEST(RowV2, OlderLayoutIsAPrefix) {
  const auto v1 = Row::columns_of_version(1);
  EXPECT_EQ(v1.size(), 41u);
  EXPECT_EQ(v1.back(), "note");
  EXPECT_TRUE(std::equal(v1.begin(), v1.end(), Row::columns().begin()));
  const auto v2 = Row::columns_of_version(2);
  EXPECT_TRUE(std::equal(v2.begin(), v2.end(), Row::columns().begin()));
  EXPECT_TRUE(Row::columns_of_version(0).empty());
}

TEST(RowV2, NodeAndSlurmIdsComeFromTheEnvironment) {
  RunContext ctx;
  ctx.env.host = "vm";
  ctx.env.node = "gpu-node-3";
  ctx.env.slurm_job_id = "4711";
  ctx.env.slurm_step_id = "2";
  const Row row =
      to_row(make_record(ctx, "r", MethodId{"m", Level::host, 0}, Point{}, "", Status::ok, ""));
  EXPECT_EQ(row.get("host"), "vm");
  EXPECT_EQ(row.get("node"), "gpu-node-3");
  EXPECT_EQ(row.get("slurm_job_id"), "4711");
  EXPECT_EQ(row.get("slurm_step_id"), "2");
}

TEST(RowV2, MethodOnAllRanksNamesEveryRanksNode) {
  RunContext ctx;
  ctx.launch.under_mpi = true;
  ctx.launch.size = 2;
  ctx.collective = true;
  ctx.env.node = "a";
  ctx.env.rank_nodes = {"a", "b"};
  const MethodId m{"host.mpi.barrier", Level::host, 0};
  EXPECT_EQ(make_record(ctx, "r", m, Point{}, "", Status::ok, "").node, "a,b");
  ctx.collective = false;  // run on rank 0 alone
  EXPECT_EQ(make_record(ctx, "r", m, Point{}, "", Status::ok, "").node, "a");
}

TEST(PointStream, RecordsRoundTripExactly) {
  RunContext ctx;
  ctx.env.host = "vm";
  ctx.env.node = "n1";
  ctx.env.slurm_job_id = "7";
  ctx.env.system = "dgx-h100";
  ctx.env.gpu_model = "H100";
  ctx.gpus = {0, 3};
  Record r = make_record(ctx, "run", MethodId{"gpu.grid.cg", Level::grid, 1},
                         Point({{"blocks_per_sm", 2}, {"threads_per_block", 128}, {"ordering", 0}},
                               {{"ordering", "release-acquire"}}),
                         "nv18-clique2", Status::ok, "");
  Measurement m;
  m.metric = Metric::latency;
  m.unit = "ns";
  m.technique = Technique::differential;
  m.value = 1010.123456789012;
  m.stats.count = 20;
  m.stats.mean = 1.0 / 3.0;
  m.stats.cv = std::nan("");
  m.reps_lo = 512;
  m.reps_hi = 5632;
  m.stop = StopReason::converged;
  m.note = "verified, \"quoted\"\nsecond line";
  m.gpus = {3};
  r = with_figure(r, m);
  const PointMessage back = decode_point_message(encode_record(r));
  ASSERT_EQ(back.kind, PointMessage::Kind::record);
  EXPECT_EQ(to_row(back.record).fields, to_row(r).fields);
  EXPECT_EQ(back.record.figure.metric, Metric::latency);
  EXPECT_EQ(back.record.figure.value, m.value);
  EXPECT_EQ(back.record.figure.stats.mean, m.stats.mean);
  EXPECT_TRUE(std::isnan(back.record.figure.stats.cv));
  EXPECT_EQ(back.record.node, r.node);
  EXPECT_EQ(back.record.point.values(), r.point.values());
  EXPECT_EQ(back.record.point.names(), r.point.names());
  // The CSV's config names a categorical value (the method reads its code).
  EXPECT_EQ(to_row(back.record).get("config"),
            "blocks_per_sm=2 threads_per_block=128 ordering=release-acquire");
  EXPECT_EQ(back.record.point.at("ordering"), 0);
}

// A child's figure whose metric this build has no name for is a malformed message, refused
// naming the metric, never a row with a metric that no reader knows.
TEST(PointStream, UnknownMetricIsRefused) {
  RunContext ctx;
  Measurement m;
  m.metric = Metric::latency;
  const Record r = with_figure(
      make_record(ctx, "r", MethodId{"m", Level::host, 0}, Point{}, "", Status::ok, ""), m);
  std::string line = encode_record(r);
  const std::string known = "\"metric\":\"latency\"";
  ASSERT_NE(line.find(known), std::string::npos) << line;
  line.replace(line.find(known), known.size(), "\"metric\":\"latency_ns\"");
  try {
    decode_point_message(line);
    ADD_FAILURE() << "a record with metric 'latency_ns' was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown metric 'latency_ns'"), std::string::npos)
        << e.what();
  }
}

TEST(PointStream, ControlMessages) {
  EXPECT_EQ(decode_point_message(encode_end(Status::timeout)).status, Status::timeout);
  const PointMessage exit = decode_point_message(encode_exit(true));
  EXPECT_EQ(exit.kind, PointMessage::Kind::exit);
  EXPECT_TRUE(exit.more);
  EXPECT_THROW(decode_point_message("{\"nonsense\": 1}"), Error);
  EXPECT_THROW(decode_point_message("not json"), Error);
}

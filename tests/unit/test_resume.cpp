// --resume: point keys, the completion log, and what a killed run leaves in the CSV.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/run_context.hpp"
#include "errors/errors.hpp"
#include "io/csv_reader.hpp"
#include "io/csv_writer.hpp"
#include "io/resume_log.hpp"
#include "io/resume_recover.hpp"
#include "io/row.hpp"

using namespace gb;
namespace fs = std::filesystem;

namespace {

const MethodId kOmp{"host.omp.barrier", Level::host, 0};
const MethodId kGrid{"gpu.grid.cg", Level::grid, 1};

Record record(const MethodId& m, long value, std::vector<int> gpus = {}) {
  RunContext ctx;
  ctx.env.host = "vm";
  ctx.env.node = "node1";
  ctx.gpus = std::move(gpus);
  return make_record(ctx, "run1", m, Point({{"group_size", value}}), "", Status::ok, "");
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void append(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary | std::ios::app) << text;
}

// A folder with out.csv, written like a session does: rows, then a completion line per point.
class ResumeFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gb_resume_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    csv_ = (dir_ / "out.csv").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Points 2, 3, 4 finished (one row each); `unfinished` rows of point 5 without a log line.
  void write_run(int unfinished = 0) {
    DoneLog log(csv_);
    log.start_fresh();
    CsvWriter w(csv_);
    for (long g : {2, 3, 4}) {
      const Record r = record(kOmp, g);
      w.write(r);
      log.append({w.rows_written(), Status::ok, r.run_id, point_key(r)});
    }
    for (int i = 0; i < unfinished; ++i) w.write(record(kOmp, 5));
  }

  ResumeState recover(std::vector<std::string>& notes) {
    DoneLog log(csv_);
    return recover_output(csv_, log, notes);
  }

  fs::path dir_;
  std::string csv_;
};


TEST(PointKey, IsTheKeyColumnsOfTheRecord) {
  const Record r = record(kGrid, 2, {0, 1});
  const PointKey k = point_key(r);
  const Row row = to_row(r);
  EXPECT_EQ(k.method, row.get("method"));
  EXPECT_EQ(k.config, row.get("config"));
  EXPECT_EQ(k.gpu_ids, row.get("gpu_ids"));
  EXPECT_EQ(k.gpu_ids, "0,1");
  EXPECT_EQ(k.launcher, row.get("launcher"));
  EXPECT_EQ(k.ranks, row.get("ranks"));
  EXPECT_EQ(k.nodes, row.get("nodes"));
}

TEST(PointKey, DiffersByAxisValueAndGpuSet) {
  EXPECT_NE(point_key(record(kOmp, 2)), point_key(record(kOmp, 4)));
  EXPECT_NE(point_key(record(kGrid, 2, {0})), point_key(record(kGrid, 2, {1})));
  EXPECT_EQ(point_key(record(kGrid, 2, {0})), point_key(record(kGrid, 2, {0})));
}

TEST(DoneLog, RoundTripsAwkwardKeys) {
  DoneEntry e{7, Status::timeout, "r", {"m", "a=1 b=2", "0,1", "threads", "2", "1"}};
  const DoneLogText t = parse_done_log(format_done_log({e}), "mem");
  ASSERT_EQ(t.entries.size(), 1u);
  EXPECT_EQ(t.entries[0].key, e.key);
  EXPECT_EQ(t.entries[0].rows, 7);
  EXPECT_EQ(t.entries[0].status, Status::timeout);
  EXPECT_FALSE(t.torn);
  EXPECT_TRUE(t.headed);
}

TEST(DoneLog, TornLastLineIsDropped) {
  const std::string text =
      format_done_log({{1, Status::ok, "r", {"m", "", "", "single", "1", "1"}}});
  const DoneLogText t = parse_done_log(text + "2,ok,r,m2,x", "mem");
  EXPECT_TRUE(t.torn);
  ASSERT_EQ(t.entries.size(), 1u);
  EXPECT_EQ(t.good_bytes, text.size());
}

TEST(DoneLog, WrongHeaderNamesTheFile) {
  try {
    parse_done_log("a,b\r\n", "x.csv.done");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("x.csv.done:1"), std::string::npos) << e.what();
  }
}

TEST_F(ResumeFiles, SecondWriterIsRefused) {
  DoneLog first(csv_);
  try {
    DoneLog second(csv_);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("another gpubarrier"), std::string::npos) << e.what();
  }
}

TEST_F(ResumeFiles, CompleteRunIsKeptAsItIs) {
  write_run();
  const std::string before = slurp(csv_);
  std::vector<std::string> notes;
  const ResumeState s = recover(notes);
  EXPECT_FALSE(s.fresh);
  EXPECT_EQ(s.done.size(), 3u);
  EXPECT_EQ(s.rows, 3);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(slurp(csv_), before);
}

TEST_F(ResumeFiles, RowsOfAnUnfinishedPointAreRemoved) {
  write_run(0);
  const std::string finished = slurp(csv_);
  {
    CsvWriter w(csv_, CsvWriter::Open::append);
    w.write(record(kOmp, 5));
    w.write(record(kOmp, 5));
  }
  std::vector<std::string> notes;
  const ResumeState s = recover(notes);
  EXPECT_EQ(s.rows, 3);
  EXPECT_EQ(slurp(csv_), finished);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(
      notes[0].find("dropped 2 row(s) without a completion line (host.omp.barrier group_size=5)"),
      std::string::npos)
      << notes[0];
  EXPECT_NE(notes[0].find("out.csv:5-6"), std::string::npos) << notes[0];
}

TEST_F(ResumeFiles, TornLastRowIsDroppedAndReported) {
  write_run(0);
  const std::string finished = slurp(csv_);
  append(csv_, "2,run1,2026-11-23T10:00:00Z,vm,loc");
  append(csv_ + ".done", "4,ok,run1,host.omp");
  std::vector<std::string> notes;
  const ResumeState s = recover(notes);
  EXPECT_EQ(s.done.size(), 3u);
  EXPECT_EQ(slurp(csv_), finished);
  EXPECT_EQ(notes.size(), 2u);
  bool csv_note = false, log_note = false;
  for (const auto& n : notes) {
    csv_note |= n.find("out.csv:5: dropped a torn last row") != std::string::npos;
    log_note |= n.find("out.csv.done: dropped a torn last line") != std::string::npos;
  }
  EXPECT_TRUE(csv_note && log_note) << notes[0] << "\n" << notes[1];
  // The repaired log takes new lines again.
  DoneLog log(csv_);
  log.append({4, Status::ok, "run2", point_key(record(kOmp, 5))});
  EXPECT_EQ(parse_done_log(log.read(), "log").entries.size(), 4u);
}

TEST_F(ResumeFiles, NoCsvStartsAfresh) {
  std::vector<std::string> notes;
  EXPECT_TRUE(recover(notes).fresh);
}

TEST_F(ResumeFiles, RowsWithoutALogAreRefused) {
  write_run(0);
  fs::remove(csv_ + ".done");
  std::vector<std::string> notes;
  try {
    recover(notes);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("no completion log"), std::string::npos) << e.what();
  }
}

TEST_F(ResumeFiles, LogAheadOfTheCsvIsRefused) {
  write_run(0);
  DoneLog(csv_ + "").append({9, Status::ok, "r", point_key(record(kOmp, 9))});
  std::vector<std::string> notes;
  EXPECT_THROW(recover(notes), UsageError);
}

TEST_F(ResumeFiles, OtherSchemaVersionIsRefusedNamingTheColumn) {
  std::string header;
  for (const auto& c : Row::columns_of_version(1)) header += (header.empty() ? "" : ",") + c;
  std::ofstream(csv_, std::ios::binary) << header << "\r\n";
  std::vector<std::string> notes;
  try {
    recover(notes);
    FAIL();
  } catch (const UsageError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("out.csv"), std::string::npos) << m;
    EXPECT_NE(m.find("schema v1"), std::string::npos) << m;
    EXPECT_NE(m.find("'node'"), std::string::npos) << m;
  }
}

TEST_F(ResumeFiles, DifferentHeaderIsRefusedNamingTheColumn) {
  write_run(0);
  std::string text = slurp(csv_);
  text.replace(text.find("metric"), 6, "figure");
  std::ofstream(csv_, std::ios::binary) << text;
  std::vector<std::string> notes;
  try {
    recover(notes);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("is 'figure', expected 'metric'"), std::string::npos)
        << e.what();
  }
}

TEST_F(ResumeFiles, RowOfAnotherVersionIsRefusedNamingLineAndColumn) {
  write_run(0);
  std::string text = slurp(csv_);
  text.replace(text.find("\r\n5,") + 2, 1, "1");
  std::ofstream(csv_, std::ios::binary) << text;
  std::vector<std::string> notes;
  try {
    recover(notes);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("out.csv:2: column schema_version is '1'"),
              std::string::npos)
        << e.what();
  }
}

TEST(CsvReader, KnowsWhereRecordsEndAndWhichIsTorn) {
  const std::string text = "a,b\r\n\"x\r\ny\",2\r\n3,\"unterminated";
  const CsvText t = split_csv(text);
  ASSERT_EQ(t.records.size(), 2u);
  EXPECT_EQ(t.records[1].line, 2);
  EXPECT_EQ(t.records[1].fields[0], "x\r\ny");
  EXPECT_EQ(t.records[1].end, text.find("3,"));
  ASSERT_TRUE(t.torn);
  EXPECT_EQ(t.torn->line, 4);
  EXPECT_FALSE(split_csv("a,b\r\n").torn);
  EXPECT_TRUE(split_csv("a,b\r").torn);  // the LF of the CRLF never came
}

}  // namespace

// `gpubarrier merge`: v1 and v2 files upgraded to v3, duplicates dropped, and what it refuses,
// by name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "errors/errors.hpp"
#include "io/csv_merge.hpp"
#include "io/csv_reader.hpp"
#include "io/row.hpp"

using namespace gb;
namespace fs = std::filesystem;

namespace {

// A merge's output held in memory.
class TextOutput : public MergeOutput {
 public:
  void append(std::string_view text) override { text_ += text; }
  void read(std::uint64_t offset, std::size_t size, std::string& text) override {
    text = text_.substr(offset, size);
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// What merge_csv_files said, and the rows it kept, in order.
struct Merged {
  MergeResult result;
  std::vector<std::vector<std::string>> rows;
};

Merged merge(const std::vector<std::string>& paths, const FigureHashFn& hash = {}) {
  TextOutput out;
  Merged m;
  m.result = merge_csv_files(
      paths, out, [&m](const std::vector<std::string>& row) { m.rows.push_back(row); }, hash);
  // What it wrote is the header and the rows it kept, each once.
  EXPECT_EQ(out.text(), format_csv(m.rows));
  EXPECT_EQ(m.result.rows, static_cast<long>(m.rows.size()));
  return m;
}

class MergeFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gb_merge_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A file with `columns` and one row per entry of `rows` (column -> value; others empty).
  std::string file(const std::string& name, const std::vector<std::string>& columns,
                   const std::vector<std::map<std::string, std::string>>& rows,
                   const std::string& tail = "") {
    const std::string path = (dir_ / name).string();
    std::ofstream out(path, std::ios::binary);
    for (std::size_t i = 0; i < columns.size(); ++i) out << (i ? "," : "") << columns[i];
    out << "\r\n";
    for (const auto& r : rows) {
      for (std::size_t i = 0; i < columns.size(); ++i) {
        const auto it = r.find(columns[i]);
        out << (i ? "," : "") << (it == r.end() ? "" : it->second);
      }
      out << "\r\n";
    }
    out << tail;
    return path;
  }

  static std::map<std::string, std::string> row(const std::string& version, const std::string& run,
                                                const std::string& value,
                                                const std::string& status = "ok") {
    return {{"schema_version", version}, {"run_id", run},       {"method", "host.omp.barrier"},
            {"config", "group_size=2"},  {"metric", "latency"}, {"value", value},
            {"status", status}};
  }

  static std::string refusal(const std::vector<std::string>& paths, const FigureHashFn& hash = {}) {
    try {
      merge(paths, hash);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "(not refused)";
  }

  fs::path dir_;
};

std::string get(const std::vector<std::string>& row, const std::string& column) {
  const auto& cols = Row::columns();
  return row[static_cast<std::size_t>(std::find(cols.begin(), cols.end(), column) - cols.begin())];
}

TEST_F(MergeFiles, OlderRowsAreUpgradedKeepingTheirVersion) {
  const auto v1 = file("v1.csv", Row::columns_of_version(1), {row("1", "a", "10")});
  auto v2row = row("2", "b", "11");
  v2row["node"] = "n7";
  const auto v2 = file("v2.csv", Row::columns_of_version(2), {v2row});
  auto v3row = row("3", "c", "12");
  v3row["node"] = "n8";
  v3row["git_sha"] = "0123456789ab";
  v3row["gpu_uuids"] = "\"GPU-a,GPU-b\"";
  v3row["sm_clock_mhz"] = "1980";
  v3row["statistic"] = "median";
  const auto v3 = file("v3.csv", Row::columns_of_version(3), {v3row});
  auto v4row = row("4", "d", "13");
  v4row["mpi_thread_level"] = "funneled";
  const auto v4 = file("v4.csv", Row::columns_of_version(4), {v4row});
  auto v5row = row("5", "e", "14");
  v5row["sm_clock_mhz"] = "1980";
  v5row["sm_clock_source"] = "nvml";
  const auto v5 = file("v5.csv", Row::columns(), {v5row});
  const Merged m = merge({v1, v2, v3, v4, v5});
  ASSERT_EQ(m.rows.size(), 5u);
  EXPECT_EQ(m.result.files, 5);
  EXPECT_EQ(m.result.upgraded, 4);
  for (const auto& r : m.rows) EXPECT_EQ(r.size(), Row::columns().size());
  EXPECT_EQ(get(m.rows[0], "schema_version"), "1");
  EXPECT_EQ(get(m.rows[0], "node"), "");
  EXPECT_EQ(get(m.rows[0], "value"), "10");
  EXPECT_EQ(get(m.rows[1], "schema_version"), "2");
  EXPECT_EQ(get(m.rows[1], "node"), "n7");
  EXPECT_EQ(get(m.rows[1], "statistic"), "");
  EXPECT_EQ(get(m.rows[2], "schema_version"), "3");
  EXPECT_EQ(get(m.rows[2], "git_sha"), "0123456789ab");
  EXPECT_EQ(get(m.rows[2], "gpu_uuids"), "GPU-a,GPU-b");
  EXPECT_EQ(get(m.rows[2], "sm_clock_mhz"), "1980");
  EXPECT_EQ(get(m.rows[2], "statistic"), "median");
  EXPECT_EQ(get(m.rows[2], "mpi_thread_level"), "");
  EXPECT_EQ(get(m.rows[3], "schema_version"), "4");
  EXPECT_EQ(get(m.rows[3], "mpi_thread_level"), "funneled");
  EXPECT_EQ(get(m.rows[3], "sm_clock_source"), "");
  EXPECT_EQ(get(m.rows[4], "schema_version"), "5");
  EXPECT_EQ(get(m.rows[4], "sm_clock_source"), "nvml");
  EXPECT_EQ(m.result.by_status.at("ok"), 5);
}

TEST_F(MergeFiles, ColumnsAreMatchedByName) {
  std::vector<std::string> cols = Row::columns();
  std::reverse(cols.begin(), cols.end());
  const auto path = file("rev.csv", cols, {row("2", "a", "10")});
  const Merged m = merge({path});
  EXPECT_EQ(get(m.rows[0], "value"), "10");
  EXPECT_EQ(get(m.rows[0], "method"), "host.omp.barrier");
}

TEST_F(MergeFiles, ExactDuplicatesAreDroppedOnce) {
  const auto a = file("a.csv", Row::columns(), {row("2", "a", "10"), row("2", "b", "12")});
  const Merged m = merge({a, a});
  EXPECT_EQ(m.rows.size(), 2u);
  EXPECT_EQ(m.result.duplicates, 2);
}

TEST_F(MergeFiles, TheSameFigureWithOtherContentsIsRefused) {
  const auto a = file("a.csv", Row::columns(), {row("2", "a", "10")});
  const auto b = file("b.csv", Row::columns(), {row("2", "a", "99")});
  const std::string m = refusal({a, b});
  EXPECT_NE(m.find("b.csv:2 and "), std::string::npos) << m;
  EXPECT_NE(m.find("a.csv:2"), std::string::npos) << m;
}

// Figures told apart by a hash that gives every one the same value: each is read back from the
// output and compared in full, so nothing is dropped or refused that is not a repeat or a clash.
TEST_F(MergeFiles, FiguresThatHashAlikeAreToldApart) {
  const auto same = [](std::string_view) { return std::size_t{7}; };
  const auto a = file("a.csv", Row::columns(),
                      {row("4", "a", "10"), row("4", "b", "12"), row("4", "a", "10", "failed")});
  const Merged m = merge({a, a}, same);
  ASSERT_EQ(m.rows.size(), 3u);
  EXPECT_EQ(m.result.duplicates, 3);
  EXPECT_EQ(get(m.rows[1], "run_id"), "b");
  EXPECT_EQ(get(m.rows[2], "status"), "failed");
  const auto b = file("b.csv", Row::columns(), {row("4", "c", "1"), row("4", "b", "99")});
  const std::string clash = refusal({a, b}, same);
  EXPECT_NE(clash.find("b.csv:3 and "), std::string::npos) << clash;
  EXPECT_NE(clash.find("a.csv:3 are the same figure"), std::string::npos) << clash;
}

// The records of a text that comes a byte at a time are those of the text read whole: CRLF, a
// doubled quote and a quoted line end split across pieces, a bare CR before text, a torn end.
TEST(CsvRecordReader, ReadsTextInPiecesAsWhole) {
  const std::string text = "a,\"b\"\"c\"\r\n\"x\r\ny\",2\r3,4\n5,\"open";
  std::size_t at = 0;
  CsvRecordReader reader([&]() {
    return at < text.size() ? std::string_view(text).substr(at++, 1) : std::string_view();
  });
  const CsvText whole = split_csv(text);
  ASSERT_EQ(whole.records.size(), 3u);
  EXPECT_EQ(whole.records[0].fields, (std::vector<std::string>{"a", "b\"c"}));
  EXPECT_EQ(whole.records[1].fields, (std::vector<std::string>{"x\r\ny", "2"}));
  EXPECT_EQ(whole.records[2].line, 4);
  CsvRecord record;
  for (const CsvRecord& r : whole.records) {
    ASSERT_TRUE(reader.next(record));
    EXPECT_EQ(record.fields, r.fields);
    EXPECT_EQ(record.line, r.line);
    EXPECT_EQ(record.end, r.end);
  }
  EXPECT_FALSE(reader.next(record));
  ASSERT_TRUE(reader.torn() && whole.torn);
  EXPECT_EQ(reader.torn()->fields, whole.torn->fields);
  EXPECT_EQ(reader.torn()->line, 5);
  EXPECT_EQ(reader.open_quote_line(), 5);
  EXPECT_EQ(whole.open_quote_line, 5);
}

TEST_F(MergeFiles, ByteOrderMarkIsDropped) {
  const auto plain = file("plain.csv", Row::columns(), {row("4", "a", "10")});
  std::ifstream in(plain, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string marked = (dir_ / "marked.csv").string();
  std::ofstream(marked, std::ios::binary) << "\xEF\xBB\xBF" << text;
  const Merged m = merge({marked, plain});
  ASSERT_EQ(m.rows.size(), 1u);
  EXPECT_EQ(m.result.duplicates, 1);
}

TEST_F(MergeFiles, UnknownColumnIsRefusedNamingFileLineAndColumn) {
  auto cols = Row::columns();
  cols.push_back("colour");
  const auto path = file("odd.csv", cols, {row("2", "a", "10")});
  const std::string m = refusal({path});
  EXPECT_NE(m.find("odd.csv:1: column 53 'colour' is not a column"), std::string::npos) << m;
}

TEST_F(MergeFiles, MissingV3ColumnIsRefusedForAV3RowOnly) {
  auto cols = Row::columns();
  cols.erase(std::find(cols.begin(), cols.end(), "statistic"));
  const std::string m = refusal({file("nostat.csv", cols, {row("3", "a", "10")})});
  EXPECT_NE(m.find("nostat.csv:1: missing column 'statistic', which schema v3 requires"),
            std::string::npos)
      << m;
  EXPECT_NO_THROW(merge({file("v2rows.csv", cols, {row("2", "a", "10")})}));
}

TEST_F(MergeFiles, MissingRequiredColumnIsRefused) {
  auto cols = Row::columns();
  cols.erase(std::find(cols.begin(), cols.end(), "slurm_job_id"));
  const auto path = file("short.csv", cols, {row("2", "a", "10")});
  const std::string m = refusal({path});
  EXPECT_NE(m.find("short.csv:1: missing column 'slurm_job_id', which schema v2 requires"),
            std::string::npos)
      << m;
  // The same columns are fine for a v1 row.
  EXPECT_NO_THROW(merge({file("v1rows.csv", cols, {row("1", "a", "10")})}));
}

TEST_F(MergeFiles, TornRowsAreRefused) {
  const auto torn = file("torn.csv", Row::columns(), {row("2", "a", "10")}, "2,b,2026-11");
  const std::string m = refusal({torn});
  EXPECT_NE(m.find("torn.csv:3: the last row is torn"), std::string::npos) << m;
  const auto short_row = file("fields.csv", Row::columns(), {row("2", "a", "10")}, "2,b\r\n");
  EXPECT_NE(refusal({short_row}).find("fields.csv:3: 2 fields, the header has 52"),
            std::string::npos);
}

TEST_F(MergeFiles, UnknownSchemaVersionIsRefused) {
  const auto path = file("v9.csv", Row::columns(), {row("9", "a", "10")});
  EXPECT_NE(refusal({path}).find("v9.csv:2: column schema_version: '9' is not a known"),
            std::string::npos);
}

TEST_F(MergeFiles, FormatsTheCurrentHeaderFirst) {
  const std::string text = format_csv({});
  EXPECT_EQ(text.substr(0, 15), "schema_version,");
  EXPECT_NE(text.find(",note,node,slurm_job_id,slurm_step_id,gpubarrier_version,git_sha,"
                      "nvidia_driver,gpu_uuids,sm_clock_mhz,statistic,mpi_thread_level,"
                      "sm_clock_source\r\n"),
            std::string::npos);
}

}  // namespace

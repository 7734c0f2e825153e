#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "errors/errors.hpp"
#include "io/csv_writer.hpp"
#include "io/row.hpp"

using namespace gb;

TEST(Csv, QuotesPerRfc4180) {
  EXPECT_EQ(csv_quote("plain"), "plain");
  EXPECT_EQ(csv_quote("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_quote("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_quote("two\nlines"), "\"two\nlines\"");
}

TEST(Csv, RoundTripsAwkwardFields) {
  const std::vector<std::string> fields{"a,b", "q\"q", "multi\r\nline", "", "plain"};
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_quote(fields[i]);
  const auto parsed = parse_csv(line + "\r\n", "mem");
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(parsed[0], fields);
}

TEST(Csv, UnterminatedQuoteNamesLine) {
  try {
    parse_csv("a,b\n\"open,c\n", "x.csv");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find("x.csv:2"), std::string::npos);
  }
}

TEST(Csv, WriterFailsBeforeMeasuringOnUnwritablePath) {
  EXPECT_THROW(CsvWriter("/proc/definitely/not/writable.csv"), UsageError);
}

TEST(Csv, WriterWritesHeaderImmediately) {
  const auto path = std::filesystem::temp_directory_path() / "gb_test_header" / "out.csv";
  std::filesystem::remove_all(path.parent_path());
  {
    CsvWriter w(path.string());
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    const auto rows = parse_csv(ss.str(), path.string());
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0], Row::columns());
  }
  std::filesystem::remove_all(path.parent_path());
}

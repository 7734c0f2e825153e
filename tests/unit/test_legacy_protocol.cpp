// The line format between gpubarrier and gpubarrier-legacy (src/methods/legacy/protocol.hpp):
// replies are split into a word and key=value fields, and anything malformed is named, never guessed.
#include <gtest/gtest.h>

#include "methods/legacy/protocol.hpp"

namespace gb::legacy {
namespace {

TEST(LegacyProtocol, ReplyWithFields) {
  Reply r;
  ASSERT_EQ(parse_reply("sync reps=5632 seconds=0.0426", r), "");
  EXPECT_EQ(r.word, "sync");
  double s = 0;
  long reps = 0;
  EXPECT_EQ(field_number(r, "seconds", s), "");
  EXPECT_EQ(field_count(r, "reps", reps), "");
  EXPECT_DOUBLE_EQ(s, 0.0426);
  EXPECT_EQ(reps, 5632);
}

TEST(LegacyProtocol, FreeTextWordsKeepTheirText) {
  Reply r;
  ASSERT_EQ(parse_reply("unsupported GPU 1 cannot access GPU 0's memory", r), "");
  EXPECT_EQ(r.word, "unsupported");
  EXPECT_EQ(r.text, "GPU 1 cannot access GPU 0's memory");
  ASSERT_EQ(parse_reply("error a=b is not a field here\r", r), "");
  EXPECT_EQ(r.text, "a=b is not a field here");
  EXPECT_TRUE(r.fields.empty());
}

TEST(LegacyProtocol, ListOfNumbers) {
  Reply r;
  ASSERT_EQ(parse_reply("launch ns=12000,11500.5,1.2e4", r), "");
  std::vector<double> ns;
  ASSERT_EQ(field_numbers(r, "ns", ns), "");
  EXPECT_EQ(ns, (std::vector<double>{12000, 11500.5, 12000}));
}

TEST(LegacyProtocol, MalformedLinesAreNamed) {
  Reply r;
  EXPECT_NE(parse_reply("", r).find("empty line"), std::string::npos);
  EXPECT_NE(parse_reply(" sync reps=1", r).find("empty line"), std::string::npos);
  EXPECT_NE(parse_reply("sync reps", r).find("'reps' is not key=value"), std::string::npos);
  EXPECT_NE(parse_reply("sync =5", r).find("'=5' is not key=value"), std::string::npos);
  EXPECT_NE(parse_reply("sync reps=", r).find("not key=value"), std::string::npos);
}

TEST(LegacyProtocol, MalformedValuesAreNamed) {
  Reply r;
  ASSERT_EQ(parse_reply("sync reps=-1 seconds=soon stale=3x n=nan", r), "");
  double d = 0;
  long c = 0;
  EXPECT_EQ(field_number(r, "seconds", d), "field 'seconds' is not a number: 'soon'");
  EXPECT_EQ(field_number(r, "n", d), "field 'n' is not a number: 'nan'");
  EXPECT_EQ(field_count(r, "reps", c), "field 'reps' is not a count: '-1'");
  EXPECT_EQ(field_count(r, "stale", c), "field 'stale' is not a count: '3x'");
  EXPECT_EQ(field_count(r, "blocks", c), "no field 'blocks'");
  std::vector<double> ns;
  ASSERT_EQ(parse_reply("launch ns=1,,2", r), "");
  EXPECT_EQ(field_numbers(r, "ns", ns), "field 'ns' holds '', not a number");
  ASSERT_EQ(parse_reply("launch ns=1,2,x", r), "");
  EXPECT_EQ(field_numbers(r, "ns", ns), "field 'ns' holds 'x', not a number");
}

}  // namespace
}  // namespace gb::legacy

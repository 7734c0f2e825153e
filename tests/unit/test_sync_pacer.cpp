// When appended files are fsynced (io/sync_pacer.hpp): at once after a measurement, paced for
// lines that measured nothing, and whatever is left when the file closes.
#include <gtest/gtest.h>

#include "core/progress.hpp"
#include "io/sync_pacer.hpp"

namespace gb {

TEST(SyncPacer, MeasurementsAreSyncedAtOnceSkippedRowsAtMostOnceASecond) {
  SyncPacer p;
  EXPECT_TRUE(p.due(false));  // the first line of a file
  EXPECT_FALSE(p.dirty());
  for (int i = 0; i < 1000; ++i) EXPECT_FALSE(p.due(false)) << i;  // well within one second
  EXPECT_TRUE(p.dirty());                                          // so the file's close syncs them
  EXPECT_TRUE(p.due(true));
  EXPECT_FALSE(p.dirty());
  EXPECT_TRUE(p.due(true));  // every measurement, however close together
}

TEST(ProgressLine, CountsTheRunningPointAndEstimatesTheRest) {
  ProgressLine line(4, false);  // disabled: nothing printed, the text is still kept
  line.begin("gpu.grid.cg blocks_per_sm=1");
  EXPECT_EQ(line.text().rfind("[1/4 0s] gpu.grid.cg blocks_per_sm=1", 0), 0u) << line.text();
  line.end();
  line.begin("gpu.grid.cg blocks_per_sm=2");
  EXPECT_NE(line.text().find("[2/4 "), std::string::npos) << line.text();
  EXPECT_NE(line.text().find(" left] gpu.grid.cg blocks_per_sm=2"), std::string::npos)
      << line.text();
}

}  // namespace gb

// --mpi-thread-level's names and the MPI_THREAD_* constants (runtime/mpi_thread_level.hpp).
#include "runtime/mpi_thread_level.hpp"

#include <gtest/gtest.h>

#include <set>

#include "errors/errors.hpp"
#include "runtime/mpi_check.hpp"

namespace gb {
namespace {

TEST(MpiThreadLevel, NamesInTheStandardsOrder) {
  EXPECT_EQ(names_of<MpiThreadLevel>(),
            (std::vector<std::string>{"single", "funneled", "serialized", "multiple"}));
  std::set<MpiThreadLevel> levels;
  for (const auto& n : kMpiThreadLevelNames) {
    EXPECT_EQ(parse_mpi_thread_level(n.name), n.value) << n.name;
    EXPECT_EQ(name_of(n.value), n.name);
    EXPECT_TRUE(levels.insert(n.value).second) << n.name;
  }
}

TEST(MpiThreadLevel, AnUnknownNameIsRefusedNamingTheChoices) {
  try {
    parse_mpi_thread_level("threaded");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "--mpi-thread-level 'threaded': expected single, funneled, serialized or "
                 "multiple");
  }
  EXPECT_THROW(parse_mpi_thread_level("Single"), UsageError);  // names are lower case
}

TEST(MpiThreadLevel, ValuesRoundTripWithMpi) {
#ifdef GPUBARRIER_HAVE_MPI
  for (const auto& n : kMpiThreadLevelNames)
    EXPECT_EQ(mpi_thread_level_name(mpi_thread_level_value(n.value)), n.name);
  EXPECT_EQ(mpi_thread_level_value(MpiThreadLevel::single), MPI_THREAD_SINGLE);
  EXPECT_EQ(mpi_thread_level_value(MpiThreadLevel::funneled), MPI_THREAD_FUNNELED);
  EXPECT_EQ(mpi_thread_level_name(-12345), "");
#else
  GTEST_SKIP() << "built without MPI";
#endif
}

}  // namespace
}  // namespace gb

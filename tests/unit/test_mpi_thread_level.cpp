// --mpi-thread-level's names and the MPI_THREAD_* constants (runtime/mpi_thread_level.hpp).
#include "runtime/mpi_thread_level.hpp"

#include <gtest/gtest.h>

#include "errors/errors.hpp"
#include "runtime/mpi_check.hpp"

namespace gb {
namespace {

TEST(MpiThreadLevel, NamesInTheStandardsOrder) {
  const auto& names = mpi_thread_level_names();
  ASSERT_EQ(names.size(), 4u);
  for (std::size_t i = 0; i < names.size(); ++i)
    EXPECT_EQ(mpi_thread_level_rank(names[i]), static_cast<int>(i)) << names[i];
}

TEST(MpiThreadLevel, AnUnknownNameIsRefusedNamingTheChoices) {
  try {
    mpi_thread_level_rank("threaded");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "--mpi-thread-level 'threaded': expected single, funneled, serialized or "
                 "multiple");
  }
  EXPECT_THROW(mpi_thread_level_value("Single"), UsageError);  // names are lower case
}

TEST(MpiThreadLevel, ValuesRoundTripWithMpi) {
#ifdef GPUBARRIER_HAVE_MPI
  for (const auto& name : mpi_thread_level_names())
    EXPECT_EQ(mpi_thread_level_name(mpi_thread_level_value(name)), name);
  EXPECT_EQ(mpi_thread_level_value("single"), MPI_THREAD_SINGLE);
  EXPECT_EQ(mpi_thread_level_value("funneled"), MPI_THREAD_FUNNELED);
  EXPECT_EQ(mpi_thread_level_name(-12345), "");
#else
  GTEST_SKIP() << "built without MPI";
#endif
}

}  // namespace
}  // namespace gb

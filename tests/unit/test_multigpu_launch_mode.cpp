// Launch-mode selection and the gpu_count axis of multi-GPU methods.
#include <gtest/gtest.h>

#include "core/launch_mode.hpp"

namespace gb::mg {
namespace {

Requirements modes(bool threads, bool mpi, bool mpi_launch = false) {
  Requirements r;
  r.threads_mode = threads;
  r.mpi_mode = mpi;
  r.mpi_launch = mpi_launch;
  return r;
}

Launch under_mpirun(int size) {
  Launch l;
  l.under_mpi = true;
  l.launcher = "mpi";
  l.size = size;
  return l;
}

TEST(MultigpuLaunchMode, HowGpubarrierWasStartedPicksTheMode) {
  EXPECT_EQ(launch_mode(Launch{}, modes(true, true)), Mode::threads);
  EXPECT_EQ(launch_mode(under_mpirun(2), modes(true, true)), Mode::mpi);
  EXPECT_EQ(launch_mode(under_mpirun(2), modes(true, false)), Mode::single);
  EXPECT_EQ(launch_mode(Launch{}, modes(false, true, true)), Mode::single);
  EXPECT_EQ(launch_mode(under_mpirun(2), modes(false, false, true)), Mode::mpi);
  EXPECT_EQ(launch_mode(Launch{}, Requirements{}), Mode::single);
}

TEST(MultigpuLaunchMode, ThreadsOnlyMethodsRefuseMpirun) {
  EXPECT_NE(mode_problem(under_mpirun(2), modes(true, false)), "");
  EXPECT_EQ(mode_problem(under_mpirun(2), modes(true, true)), "");
  EXPECT_EQ(mode_problem(Launch{}, modes(true, false)), "");
}

TEST(MultigpuLaunchMode, GpuCountZeroMeansAllGiven) {
  const Point all({{"gpu_count", 0}, {"ordering", 1}});
  EXPECT_EQ(resolve_gpu_count(all, 8).at("gpu_count"), 8);
  EXPECT_EQ(resolve_gpu_count(all, 8).at("ordering"), 1);
  EXPECT_EQ(resolve_gpu_count(Point({{"gpu_count", 3}}), 8).at("gpu_count"), 3);
  EXPECT_FALSE(resolve_gpu_count(Point({{"ordering", 0}}), 8).find("gpu_count"));
}

TEST(MultigpuLaunchMode, ThreadsModeTakesTheFirstGpus) {
  const std::vector<int> given{4, 5, 6, 7};
  EXPECT_EQ(first_gpus(given, 3), (std::vector<int>{4, 5, 6}));
  EXPECT_EQ(first_gpus(given, 4), given);
  // Out of range: all of them, so that feasible() names the problem.
  EXPECT_EQ(first_gpus(given, 5), given);
  EXPECT_EQ(first_gpus(given, 0), given);
}

}  // namespace
}  // namespace gb::mg

// Teardown that gives back what a half-built object acquired and reports, never throws, a
// failed release (core/teardown.hpp): the logic behind PeerMemory, HostShared, Team and the NCCL
// session, with injected failures instead of CUDA.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "core/teardown.hpp"

using namespace gb;

namespace {

// Acquires `count` things, each recorded in `releases` with a release that logs its name, then
// throws when `fail_after` of them are acquired: a constructor that fails halfway.
struct HalfBuilt {
  HalfBuilt(std::vector<std::string>& log, int count, int fail_after) {
    for (int i = 0; i < count; ++i) {
      if (i == fail_after) throw std::runtime_error("acquisition " + std::to_string(i) + " failed");
      const std::string name = "thing " + std::to_string(i);
      releases.add(name, [&log, name] {
        log.push_back(name);
        return std::string();
      });
    }
  }
  Releases releases;
};

}  // namespace

TEST(Releases, AConstructorThatThrowsHalfwayGivesBackWhatItAcquiredLastFirst) {
  std::vector<std::string> log;
  EXPECT_THROW(HalfBuilt(log, 4, 2), std::runtime_error);
  EXPECT_EQ(log, (std::vector<std::string>{"thing 1", "thing 0"}));
}

TEST(Releases, ADestroyedObjectGivesBackEverythingOnce) {
  std::vector<std::string> log;
  {
    HalfBuilt whole(log, 3, -1);
    EXPECT_EQ(whole.releases.release_all(), 0);
    EXPECT_EQ(log, (std::vector<std::string>{"thing 2", "thing 1", "thing 0"}));
  }
  EXPECT_EQ(log.size(), 3u);  // the destructor found nothing left
}

TEST(Releases, AFailedReleaseIsReportedOnStderrAndTheOthersStillRun) {
  std::vector<std::string> log;
  Releases releases;
  releases.add("the first allocation", [&] {
    log.push_back("first");
    return std::string();
  });
  releases.add("an IPC mapping", [&]() -> std::string {
    log.push_back("mapping");
    return "cudaErrorInvalidValue: invalid argument";
  });
  releases.add("a stream", [&]() -> std::string {
    log.push_back("stream");
    throw std::runtime_error("exceptions are reported too");
  });
  testing::internal::CaptureStderr();
  EXPECT_EQ(releases.release_all(), 2);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(log, (std::vector<std::string>{"stream", "mapping", "first"}));
  EXPECT_NE(err.find("releasing an IPC mapping failed: cudaErrorInvalidValue: invalid argument"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("releasing a stream failed: exceptions are reported too"), std::string::npos)
      << err;
  EXPECT_EQ(err.find("the first allocation"), std::string::npos) << err;
}

TEST(Releases, CudaFailureIsEmptyForSuccess) {
  EXPECT_EQ(cuda_failure(cudaSuccess), "");
  EXPECT_EQ(cuda_failure(cudaErrorInvalidValue).rfind("cudaErrorInvalidValue: ", 0), 0u);
}

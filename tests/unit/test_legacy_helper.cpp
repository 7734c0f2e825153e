// gpubarrier's side of the process boundary to gpubarrier-legacy, against a fake helper of our
// own (tests/legacy/fake_helper.py, no GPU): canned timings become the project's figures, and a
// helper that hangs, dies, errs, babbles or refuses becomes a timeout, failed or skipped outcome.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/state.hpp"
#include "methods/legacy/figures.hpp"
#include "methods/legacy/helper_process.hpp"
#include "methods/legacy/locate.hpp"
#include "quick_context.hpp"

namespace gb::legacy {
namespace {

namespace fs = std::filesystem;
const std::string kFake = std::string(GB_SOURCE_DIR) + "/tests/legacy/fake_helper.py";

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// GPUBARRIER_LEGACY_HELPER names the fake helper in `mode` for the life of this object.
class FakeHelper {
 public:
  explicit FakeHelper(const char* mode)
      : dir_(fs::temp_directory_path() / ("gb-legacy-" + std::to_string(getpid()))) {
    fs::create_directories(dir_);
    setenv("GPUBARRIER_LEGACY_HELPER", kFake.c_str(), 1);
    setenv("FAKE_LEGACY_MODE", mode, 1);
    setenv("FAKE_LEGACY_PIDFILE", (dir_ / "pid").c_str(), 1);
    setenv("FAKE_LEGACY_ARGS", (dir_ / "args").c_str(), 1);
  }
  ~FakeHelper() {
    for (const char* v : {"GPUBARRIER_LEGACY_HELPER", "FAKE_LEGACY_MODE", "FAKE_LEGACY_PIDFILE",
                          "FAKE_LEGACY_ARGS"})
      unsetenv(v);
    fs::remove_all(dir_);
  }
  pid_t pid() const { return static_cast<pid_t>(std::stol(read_file(dir_ / "pid"))); }
  std::string args() const { return read_file(dir_ / "args"); }

 private:
  fs::path dir_;
};

RunContext context() {
  return test::helper_context();
}

const Point kPoint({{"gpu_count", 2}, {"blocks_per_sm", 2}, {"threads_per_block", 256}});
const Shape kShape{2, 256, 1000, 0};

bool gone(pid_t pid) {
  return kill(pid, 0) == -1 && errno == ESRCH;
}

TEST(LegacyHelper, MultiGridFiguresComeFromTheHelpersTimings) {
  FakeHelper fake("ok");
  RunContext ctx = context();
  State state(ctx, kPoint);
  EXPECT_EQ(verify_multi_grid(state, kShape).result, Verification::Result::passed);
  const std::vector<Measurement> m = measure_multi_grid(state, kShape);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].technique, Technique::differential);
  EXPECT_EQ(m[0].statistic, Statistic::eq7);
  EXPECT_NEAR(m[0].value, 7400, 1e-3);  // the fake's 7.4 us per sync, by Eq. 7
  EXPECT_EQ(m[0].reps_hi, 36);
  EXPECT_NE(m[0].note.find("2 GPUs x 264 blocks"), std::string::npos) << m[0].note;
  EXPECT_NE(m[0].note.find("CUDA 11.8 runtime, driver 13.0"), std::string::npos) << m[0].note;
  EXPECT_EQ(fake.args(), "--gpus 0,1 --blocks-per-sm 2 --threads 256 --unit-ns 1000 --host-wait 0");
}

TEST(LegacyHelper, StaleStampsFailTheCheck) {
  FakeHelper fake("stale");
  RunContext ctx = context();
  State state(ctx, kPoint);
  const Verification v = verify_multi_grid(state, kShape);
  EXPECT_EQ(v.result, Verification::Result::failed);
  EXPECT_EQ(v.detail, "3 stale stamps seen after the sync in 64 crossings");
  EXPECT_EQ(verify_real_launch(state, kShape).result, Verification::Result::failed);
}

TEST(LegacyHelper, AHangInTheCheckIsATimeoutAndTheHelperIsKilled) {
  FakeHelper fake("hang_check");
  RunContext ctx = context();
  State state(ctx, kPoint);
  const auto t0 = std::chrono::steady_clock::now();
  const Verification v = verify_multi_grid(state, kShape);
  // Catches a hang only (the deadline is 0.564 s): a loaded machine must not fail it.
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(120));
  EXPECT_EQ(v.result, Verification::Result::timeout);
  EXPECT_NE(v.detail.find("host-side deadline (0.564 s"), std::string::npos) << v.detail;
  EXPECT_NE(v.detail.find("was killed"), std::string::npos) << v.detail;
  EXPECT_TRUE(gone(fake.pid()));
}

TEST(LegacyHelper, AHangWhileTimingIsATimeoutRow) {
  FakeHelper fake("hang_sync");
  RunContext ctx = context();
  State state(ctx, kPoint);
  const std::vector<Measurement> m = measure_multi_grid(state, kShape);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].status, Status::timeout);
  EXPECT_EQ(m[0].technique, Technique::differential);
  EXPECT_NE(m[0].note.find("'sync 36'"), std::string::npos) << m[0].note;
  EXPECT_TRUE(gone(fake.pid()));
}

// A helper that fails is the runner's `failed` row: the error says how it ended and why.
void expect_failure(const char* mode, const std::string& what) {
  FakeHelper fake(mode);
  RunContext ctx = context();
  State state(ctx, kPoint);
  try {
    measure_multi_grid(state, kShape);
    ADD_FAILURE() << mode << ": no failure";
  } catch (const HelperFailed& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << mode << ": " << e.what();
  }
}

TEST(LegacyHelper, ACrashNamesTheExitAndTheHelpersLastWords) {
  expect_failure("crash_sync", "exited with status 1; stderr: boom: cudaLaunchCooperative");
  expect_failure("signal_sync", "was killed by signal 11");
}

TEST(LegacyHelper, AnErrorLineIsAFailure) {
  expect_failure("error_sync",
                 "gpubarrier-legacy: cudaLaunchCooperativeKernelMultiDevice failed: "
                 "cudaErrorCooperativeLaunchTooLarge");
}

TEST(LegacyHelper, AMalformedReplyIsAFailure) {
  expect_failure("malformed_sync", "field 'seconds' is not a number: 'soon'");
  expect_failure("protocol2", "speaks protocol 2, this gpubarrier 1");
  expect_failure("extra_gpu", "drives 3 GPUs, 2 were asked for");
}

TEST(LegacyHelper, UnsupportedSkipsThePoint) {
  FakeHelper fake("unsupported");
  RunContext ctx = context();
  State state(ctx, kPoint);
  EXPECT_EQ(verify_multi_grid(state, kShape).result, Verification::Result::not_applicable);
  EXPECT_TRUE(state.skipped());
  EXPECT_EQ(state.skip_reason(), "GPU 1 cannot access GPU 0's memory");
  EXPECT_TRUE(measure_multi_grid(state, kShape).empty());
}

TEST(LegacyHelper, RealLaunchFiguresAreHostLoopFigures) {
  FakeHelper fake("ok");
  RunContext ctx = context();
  State state(ctx, kPoint);
  EXPECT_EQ(verify_real_launch(state, kShape).result, Verification::Result::passed);
  const std::vector<Measurement> m = measure_real_launch(state, kShape);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].technique, Technique::host_loop);
  EXPECT_EQ(m[0].value, 12000);
  EXPECT_GE(m[0].samples.size(), 100u);  // whole batches
  EXPECT_NE(m[0].note.find("cudaLaunchCooperativeKernelMultiDevice"), std::string::npos);
}

TEST(LegacyHelper, FusionGivesTheMultiDeviceLaunchOverhead) {
  FakeHelper fake("ok");
  RunContext ctx = context();
  State state(ctx, kPoint);
  const std::vector<Measurement> m = measure_multi_device_fusion(state, kShape, 100, 10);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].metric, Metric::launch_overhead);
  EXPECT_EQ(m[0].statistic, Statistic::eq6);
  EXPECT_NEAR(m[0].value, 20000, 1e-3);  // the fake's 20 us per launch, by Eq. 6
}

TEST(LegacyHelper, AHelperThatCannotRunIsNamed) {
  try {
    HelperProcess p({"/nonexistent/gpubarrier-legacy"});
    ADD_FAILURE() << "started";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot run /nonexistent/gpubarrier-legacy: No such file or directory");
  }
}

TEST(LegacyHelper, ExchangeReturnsLinesInOrder) {
  HelperProcess p({"/bin/sh", "-c", "echo one; read x; echo \"got $x\"; echo two >&2; exit 4"});
  EXPECT_EQ(p.exchange("", 5), "one");
  EXPECT_EQ(p.exchange("hello", 5), "got hello");
  try {
    p.exchange("", 5);
    ADD_FAILURE() << "a line after the end";
  } catch (const HelperFailed& e) {
    EXPECT_EQ(std::string(e.what()), "/bin/sh exited with status 4; stderr: two");
  }
}

TEST(LegacyLocate, AbsentHelperSaysHowToBuildIt) {
  const HelperLocation where = locate_helper(nullptr, "/nonexistent");
  EXPECT_TRUE(where.path.empty());
  EXPECT_NE(where.problem.find("not next to gpubarrier (/nonexistent/)"), std::string::npos);
  EXPECT_NE(where.problem.find("GPUBARRIER_LEGACY=1 scripts/setup"), std::string::npos);
  EXPECT_NE(where.problem.find("-DGPUBARRIER_LEGACY_CUDA="), std::string::npos);
}

TEST(LegacyLocate, EnvironmentFirstThenNextToGpubarrier) {
  EXPECT_EQ(locate_helper(kFake.c_str(), "/nonexistent").path, kFake);
  const fs::path dir = fs::temp_directory_path() / ("gb-locate-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string plain = (dir / "plain").string();
  std::ofstream(plain) << "not a program\n";
  fs::permissions(plain, fs::perms::owner_read | fs::perms::owner_write);
  const HelperLocation bad = locate_helper(plain.c_str(), "/nonexistent");
  EXPECT_TRUE(bad.path.empty());
  EXPECT_EQ(bad.problem.rfind("GPUBARRIER_LEGACY_HELPER=" + plain + " is not an executable", 0),
            0u);
  fs::copy_file(kFake, dir / "gpubarrier-legacy");
  EXPECT_EQ(locate_helper("", dir.string()).path, (dir / "gpubarrier-legacy").string());
  fs::remove_all(dir);
}

TEST(LegacyLocate, NoGpuAndNoHelperAreBothSaid) {
  const char* before = std::getenv("GPUBARRIER_LEGACY_HELPER");
  const std::string saved = before ? before : "";
  setenv("GPUBARRIER_LEGACY_HELPER", "/nonexistent/gpubarrier-legacy", 1);
  const Usability u = usable(context(), Usability::no("no CUDA GPU visible: none here"));
  EXPECT_EQ(u.reason.rfind("no CUDA GPU visible: none here; and GPUBARRIER_LEGACY_HELPER=", 0), 0u)
      << u.reason;
  setenv("GPUBARRIER_LEGACY_HELPER", kFake.c_str(), 1);
  EXPECT_EQ(usable(context(), Usability::no("no GPU")).reason, "no GPU");
  EXPECT_TRUE(usable(context(), Usability::yes()).ok);
  if (before)
    setenv("GPUBARRIER_LEGACY_HELPER", saved.c_str(), 1);
  else
    unsetenv("GPUBARRIER_LEGACY_HELPER");
}

TEST(LegacyLocate, NoMpiMode) {
  RunContext ctx = context();
  ctx.launch.under_mpi = true;
  const Usability u = usable(ctx, Usability::yes());
  EXPECT_FALSE(u.ok);
  EXPECT_EQ(u.reason.rfind("no mpi mode: cudaLaunchCooperativeKernelMultiDevice is one process", 0),
            0u);
}

}  // namespace
}  // namespace gb::legacy

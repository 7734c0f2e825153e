// multigpu.torch.symm-barrier's side of the process boundary (multigpu/torch_symm_script.hpp):
// the script's JSON lines parsed (bad lines give a clear error, input bounded), and the method run
// against a fake script of our own (tests/peers/fake_torch_script.py: no torch, no GPU), whose
// canned replay times become the project's differential figure and whose skips, errors, garbage
// and hangs become skipped, failed and timeout outcomes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "core/registry.hpp"
#include "core/state.hpp"
#include "methods/legacy/helper_process.hpp"
#include "multigpu/torch_symm_script.hpp"
#include "paths/data_dir.hpp"
#include "quick_context.hpp"

namespace gb::torch_peer {
namespace {

namespace fs = std::filesystem;

ScriptLine parsed(const std::string& line) {
  return ScriptLine::parse(line);
}

// The message of the ScriptError that parsing `line` (and reading `field` as a count) throws.
std::string parse_error(const std::string& line, const char* field = nullptr) {
  try {
    const ScriptLine r = ScriptLine::parse(line);
    if (field) r.count(field);
  } catch (const ScriptError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TorchPeerLine, FieldsOfEveryKind) {
  const ScriptLine r = parsed(
      R"({"event": "ready", "torch": "2.11.0", "gpus": 2, "multicast": false, "s": 1.5e-3})");
  EXPECT_EQ(r.event(), "ready");
  EXPECT_EQ(r.text("torch"), "2.11.0");
  EXPECT_EQ(r.count("gpus"), 2);
  EXPECT_DOUBLE_EQ(r.number("s"), 1.5e-3);
}

TEST(TorchPeerLine, BadLinesSayWhatIsWrong) {
  EXPECT_NE(parse_error("NCCL INFO Bootstrap").find("a line that is not JSON: 'NCCL INFO"),
            std::string::npos);
  EXPECT_NE(parse_error("[1, 2]").find("no JSON object"), std::string::npos);
  EXPECT_NE(parse_error(R"({"stale": 0})").find("without an \"event\" string"), std::string::npos);
  EXPECT_NE(parse_error(R"({"event": ""})").find("without an \"event\" string"), std::string::npos);
  EXPECT_NE(parse_error(R"({"event": 3})").find("without an \"event\" string"), std::string::npos);
  EXPECT_NE(parse_error(R"({"event": "time", "seconds": [1]})")
                .find("'time' line: field 'seconds' is not a number, string or boolean"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"event": "time", "seconds": null})").find("field 'seconds'"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"event": "check"})", "stale")
                .find("'check' line without the count field 'stale'"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"event": "check", "stale": -1})", "stale").find("is not a count"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"event": "check", "stale": 1.5})", "stale").find("is not a count"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"event": "check", "stale": "0"})", "stale").find("is not a count"),
            std::string::npos);
  EXPECT_THROW(parsed(R"({"event": "x"})").text("reason"), ScriptError);
}

TEST(TorchPeerLine, InputIsBounded) {
  const std::string huge =
      R"({"event": "error", "what": ")" + std::string(kMaxLineBytes, 'x') + R"("})";
  EXPECT_NE(parse_error(huge).find("more than the 16384 any line"), std::string::npos)
      << parse_error(huge);
  // A message shows the start of a bad line, not all of it.
  EXPECT_LT(parse_error(std::string(kMaxLineBytes, 'y')).size(), 400u);
}

// The method, with GPUBARRIER_TOOLS and GPUBARRIER_TORCH_PYTHON naming the fake script in `mode`
// for the life of this object.
class FakeScript {
 public:
  explicit FakeScript(const char* mode)
      : dir_(fs::temp_directory_path() / ("gb-torch-" + std::to_string(getpid()))) {
    fs::create_directories(dir_ / "peers");
    fs::copy_file(std::string(GB_SOURCE_DIR) + "/tests/peers/fake_torch_script.py", dir_ / kScript,
                  fs::copy_options::overwrite_existing);
    setenv("GPUBARRIER_TOOLS", dir_.c_str(), 1);
    setenv("GPUBARRIER_TORCH_PYTHON", paths::find_on_path("python3").c_str(), 1);
    setenv("FAKE_TORCH_MODE", mode, 1);
    for (auto& m : Registry::instance().create_all())
      if (m->name() == "multigpu.torch.symm-barrier") method_ = std::move(m);
  }
  ~FakeScript() {
    for (const char* v : {"GPUBARRIER_TOOLS", "GPUBARRIER_TORCH_PYTHON", "FAKE_TORCH_MODE"})
      unsetenv(v);
    fs::remove_all(dir_);
  }
  Method& method() { return *method_; }

 private:
  fs::path dir_;
  std::unique_ptr<Method> method_;
};

RunContext context() {
  return test::helper_context();
}

const Point kPoint({{"gpu_count", 2}, {"channel", 0}});

TEST(TorchPeer, FiguresComeFromTheScriptsReplays) {
  FakeScript fake("ok");
  RunContext ctx = context();
  State state(ctx, kPoint);
  EXPECT_EQ(fake.method().verify(state).result, Verification::Result::passed);
  const std::vector<Measurement> m = fake.method().measure(state);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].metric, Metric::latency);
  EXPECT_EQ(m[0].unit, "ns");
  EXPECT_EQ(m[0].technique, Technique::differential);
  EXPECT_EQ(m[0].statistic, Statistic::eq7);
  EXPECT_NEAR(m[0].value, 4000, 1e-3);  // the fake's 4 us per barrier, by Eq. 7
  EXPECT_EQ(m[0].reps_lo, 4);
  EXPECT_EQ(m[0].reps_hi, 36);
  EXPECT_GE(m[0].samples.size(), 10u);
  for (const char* words : {"CUDA graph of R barrier() calls, one kernel per barrier", "2 GPUs",
                            "torch 2.11.0, CUDA backend, channel 0, multicast off"})
    EXPECT_NE(m[0].note.find(words), std::string::npos) << m[0].note;
}

TEST(TorchPeer, StaleStampsFailTheCheck) {
  FakeScript fake("stale");
  RunContext ctx = context();
  State state(ctx, kPoint);
  const Verification v = fake.method().verify(state);
  EXPECT_EQ(v.result, Verification::Result::failed);
  EXPECT_EQ(v.detail, "3 stale stamps seen after the barrier in 64 crossings");
}

TEST(TorchPeer, TheScriptsSkipSkipsThePoint) {
  FakeScript fake("skip");
  RunContext ctx = context();
  State state(ctx, kPoint);
  EXPECT_EQ(fake.method().verify(state).result, Verification::Result::not_applicable);
  EXPECT_TRUE(state.skipped());
  EXPECT_EQ(state.skip_reason(), "PyTorch is not importable by the fake (No module named 'torch')");
  EXPECT_TRUE(fake.method().measure(state).empty());
}

TEST(TorchPeer, AHangWhileTimingIsATimeoutRow) {
  FakeScript fake("hang_time");
  RunContext ctx = context();
  State state(ctx, kPoint);
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<Measurement> m = fake.method().measure(state);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(120));  // a hang only
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].status, Status::timeout);
  EXPECT_NE(m[0].note.find("host-side deadline"), std::string::npos) << m[0].note;
  EXPECT_NE(m[0].note.find("answering 'time 36'"), std::string::npos) << m[0].note;
}

// A script that fails is the runner's `failed` row: the error says what went wrong.
template <class E>
void expect_failure(const char* mode, bool in_verify, const std::string& what) {
  FakeScript fake(mode);
  RunContext ctx = context();
  State state(ctx, kPoint);
  try {
    if (in_verify)
      fake.method().verify(state);
    else
      fake.method().measure(state);
    ADD_FAILURE() << mode << ": no failure";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << mode << ": " << e.what();
  }
}

TEST(TorchPeer, FailuresSayWhatWentWrong) {
  expect_failure<ScriptError>(
      "error_time", false,
      "PyTorch's barrier script: GPU 1: RuntimeError: CUDA driver error: invalid argument");
  expect_failure<ScriptError>("garbage_time", false,
                              "sent a line that is not JSON: 'NCCL INFO this is not JSON'");
  expect_failure<ScriptError>("wrong_gpus", false, "the script drives 3 GPUs, 2 were asked for");
  expect_failure<legacy::HelperFailed>(
      "crash_check", true,
      "exited with status 1; stderr: RuntimeError: CUDA error: an illegal memory access");
  expect_failure<legacy::HelperFailed>("long_line", false, "wrote a line of more than 1048576");
}

}  // namespace
}  // namespace gb::torch_peer

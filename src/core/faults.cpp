#include "core/faults.hpp"

#include <unistd.h>

#include <array>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/glob.hpp"
#include "core/launch.hpp"
#include "errors/errors.hpp"

namespace gb::faults {
namespace {

// Every environment hook. docs/reliability.md ("Test hooks") shows this table to users, with the
// tests that set each hook; a new hook goes here first (tests/unit/test_faults.cpp keeps the two
// in step).
constexpr std::array kHooks{
    HookInfo{Hook::break_check, "GPUBARRIER_TEST_BREAK", "<method glob>",
             "the check kernels of the matching block, cluster and grid methods skip their "
             "barrier; timed kernels never do",
             "kernels/block, kernels/cluster, kernels/grid (break_check)"},
    HookInfo{Hook::crash, "GPUBARRIER_TEST_CRASH", "<glob>[@<rank>]",
             "a point whose \"<method> <point>\" or method matches aborts (with @<rank>: on that "
             "rank of an MPI launch alone)",
             "the runner, at the start of every point (crash_or_hang)"},
    HookInfo{Hook::hang, "GPUBARRIER_TEST_HANG", "<glob>[@<rank>]",
             "a matching point hangs forever (with @<rank>: on that rank alone)",
             "the runner, at the start of every point (crash_or_hang)"},
    HookInfo{Hook::throw_member, "GPUBARRIER_TEST_THROW", "<verify|measure>:<member>",
             "that member (a rank under mpirun, else a thread) throws once per process where it "
             "starts its part of the phase",
             "the team's parallel sections and the host loops (throw_if_named)"},
    HookInfo{Hook::ranks_as_nodes, "GPUBARRIER_TEST_RANKS_AS_NODES", "<k>",
             "every k consecutive ranks count as one node (multi-node methods on one machine; "
             "`<system>-simulated` in the system column); 0: off",
             "the launcher's node layout (ranks_per_node)"},
    HookInfo{Hook::legacy_hang, "GPUBARRIER_LEGACY_TEST_HANG", "1",
             "block 0 of the legacy helper's first GPU leaves the multi-grid sync at once, so "
             "the others spin until gpubarrier's deadline kills the helper",
             "legacy/multi_grid.cu: the gpubarrier-legacy helper, a program of its own built "
             "with another CUDA toolkit, which cannot link this module and reads it itself"},
};

// Whether a GPUBARRIER_TEST_CRASH / _HANG setting matches the point.
bool point_matches(std::string_view setting, std::string_view method, std::string_view what) {
  if (setting.empty()) return false;
  if (const auto at = setting.rfind('@'); at != std::string_view::npos) {
    // The launcher's rank (no MPI call: the hooks run before and outside it).
    if (setting.substr(at + 1) != std::to_string(launcher_rank())) return false;
    setting = setting.substr(0, at);
  }
  return glob_match(setting, what) || glob_match(setting, method);
}

// The phase of GPUBARRIER_TEST_THROW: set by the runner's thread before the members' threads
// start (an OpenMP region's start orders it before their reads).
std::atomic<PointPart> g_phase{PointPart::none};
std::atomic<bool> g_thrown{false};

// The device faults' names and meanings, in the enum's order.
constexpr std::array<NamedValue, 5> kDeviceFaults{{
    {"none", "no fault: the barrier as it is"},
    {"skip-wait", "every member signals but never waits (the check must catch it)"},
    {"absent", "the last member never arrives (the others must end on the watchdog, not hang)"},
    {"unordered",
     "every release, acquire and fence dropped (relaxed signals): only the memory check can "
     "notice"},
    {"absent-timing",
     "the last member is absent only while timing (the check passes, the timing ends as a "
     "timeout)"},
}};

}  // namespace

std::span<const HookInfo> hooks() {
  return kHooks;
}

const HookInfo& info(Hook hook) {
  for (const HookInfo& h : kHooks)
    if (h.hook == hook) return h;
  throw Error("faults: a hook without a row in the table");
}

namespace {

// The hook's variable; null when unset. The one getenv of a hook.
const char* variable_value(Hook hook) {
  return std::getenv(std::string(info(hook).variable).c_str());
}

}  // namespace

std::string_view setting(Hook hook) {
  const char* v = variable_value(hook);
  return v ? v : "";
}

bool active(Hook hook) {
  return !setting(hook).empty();
}

bool break_check(std::string_view method) {
  const std::string_view glob = setting(Hook::break_check);
  if (glob.empty() || !glob_match(glob, method)) return false;
  std::fprintf(stderr, "GPUBARRIER_TEST_BREAK: the check of %.*s runs without its barrier\n",
               static_cast<int>(method.size()), method.data());
  return true;
}

void crash_or_hang(std::string_view method, std::string_view point) {
  const std::string what = std::string(method) + " " + std::string(point);
  if (point_matches(setting(Hook::crash), method, what)) {
    std::fprintf(stderr, "GPUBARRIER_TEST_CRASH: aborting in %s\n", what.c_str());
    std::abort();
  }
  if (point_matches(setting(Hook::hang), method, what)) {
    std::fprintf(stderr, "GPUBARRIER_TEST_HANG: hanging in %s\n", what.c_str());
    for (;;) pause();
  }
}

Phase::Phase(PointPart part) {
  g_phase = part;
}

Phase::~Phase() {
  g_phase = PointPart::none;
}

void throw_if_named(int member) {
  const std::string s(setting(Hook::throw_member));
  if (s.empty()) return;
  const auto colon = s.find(':');
  const std::string phase = s.substr(0, colon);
  char* end = nullptr;
  const long who = colon == std::string::npos ? -1 : std::strtol(s.c_str() + colon + 1, &end, 10);
  const std::optional<PointPart> part = from_name<PointPart>(phase);
  if ((part != PointPart::verify && part != PointPart::measure) || who < 0 || !end || *end)
    throw Error("GPUBARRIER_TEST_THROW=" + s + ": expected <verify|measure>:<member>");
  if (part == g_phase.load() && who == member && !g_thrown.exchange(true))
    throw Error("GPUBARRIER_TEST_THROW: member " + std::to_string(member) + " throws in " + phase);
}

std::optional<int> parse_ranks_per_node(const char* value) {
  if (!value) return 0;
  int k = 0;
  const char* end = value + std::strlen(value);
  const auto [ptr, ec] = std::from_chars(value, end, k);
  if (ec != std::errc() || ptr != end || ptr == value || k < 0) return std::nullopt;
  return k;
}

int ranks_per_node() {
  static const int k = [] {
    const char* v = variable_value(Hook::ranks_as_nodes);  // set but empty: not a count
    const std::optional<int> parsed = parse_ranks_per_node(v);
    if (!parsed)
      throw UsageError(std::string("GPUBARRIER_TEST_RANKS_AS_NODES='") + v +
                       "': expected a number of ranks per simulated node (1 = every rank a "
                       "node of its own), or 0 for off");
    if (*parsed == 1)
      std::fprintf(stderr,
                   "GPUBARRIER_TEST_RANKS_AS_NODES: every rank counts as a node of its own\n");
    else if (*parsed > 1)
      std::fprintf(stderr, "GPUBARRIER_TEST_RANKS_AS_NODES: every %d ranks count as one node\n",
                   *parsed);
    return *parsed;
  }();
  return k;
}

std::vector<ValueName> device_fault_names(DeviceFault last) {
  std::vector<ValueName> names;
  for (long f = 0; f <= static_cast<long>(last); ++f)
    names.emplace_back(f, kDeviceFaults[static_cast<std::size_t>(f)]);
  return names;
}

}  // namespace gb::faults

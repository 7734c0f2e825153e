#include "methods/legacy/session.hpp"

#include <cstdio>
#include <cstdlib>

#include "methods/legacy/locate.hpp"

namespace gb::legacy {
namespace {

// CUDA initialisation of several GPUs and the helper's module load, before its first line.
constexpr double kStartS = 60;
// Per crossing, launch or round: a thousand times a healthy one (as multigpu.nccl.lsa's deadline).
constexpr double kSlowStepS = 1e-3;
// Per byte a reduction reads or fills: 1 GB/s, a thousand times slower than a healthy GPU.
constexpr double kSlowByteS = 1e-9;
// Peer access and the array's allocation before a size's first reduction.
constexpr double kReductionSetupS = 10;

std::string version_text(long v) {  // 11080 -> 11.8
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", s);
  return text;
}

}  // namespace

Session::Session(const std::string& path, const std::vector<int>& gpus, const Shape& shape,
                 double watchdog_s)
    : watchdog_s_(watchdog_s), unit_s_(static_cast<double>(shape.unit_ns) * 1e-9) {
  std::string list;
  for (int g : gpus) {
    if (!list.empty()) list += ',';
    list += std::to_string(g);
  }
  helper_ = std::make_unique<HelperProcess>(std::vector<std::string>{
      path, "--gpus", list, "--blocks-per-sm", std::to_string(shape.blocks_per_sm), "--threads",
      std::to_string(shape.threads), "--unit-ns", std::to_string(shape.unit_ns), "--host-wait",
      std::to_string(shape.host_wait)});
  const Reply r = ask("", "ready", kStartS, "starting");
  long protocol = 0, gpu_count = 0, cudart = 0, driver = 0;
  for (const auto& [key, out] :
       {std::pair{"protocol", &protocol}, std::pair{"gpus", &gpu_count},
        std::pair{"blocks", &blocks_}, std::pair{"cudart", &cudart}, std::pair{"driver", &driver}})
    if (std::string why = field_count(r, key, *out); !why.empty())
      throw HelperFailed(std::string(kHelperName) + " started with a malformed line: " + why);
  if (protocol != kProtocolVersion)
    throw HelperFailed(std::string(kHelperName) + " speaks protocol " + std::to_string(protocol) +
                       ", this gpubarrier " + std::to_string(kProtocolVersion) +
                       ": build both from the same tree");
  if (gpu_count != static_cast<long>(gpus.size()))
    throw HelperFailed(std::string(kHelperName) + " drives " + std::to_string(gpu_count) +
                       " GPUs, " + std::to_string(gpus.size()) + " were asked for");
  gpus_ = static_cast<int>(gpu_count);
  versions_ = "CUDA " + version_text(cudart) + " runtime, driver " + version_text(driver);
}

Reply Session::ask(const std::string& request, const char* word, double work_s, const char* where) {
  const double limit = watchdog_s_ + work_s;
  std::string line;
  try {
    line = helper_->exchange(request, limit);
  } catch (const HelperTimeout&) {
    throw HelperTimeout(
        "host-side deadline (" + seconds_text(limit) + ": --watchdog + the expected work) passed " +
        where + (request.empty() ? "" : " '" + request + "'") + ": " + kHelperName +
        " was killed, and its GPUs with it are free again (a sync that some participant never "
        "reaches spins inside CUDA, where no watchdog reaches)");
  } catch (const HelperFailed& e) {
    throw HelperFailed(std::string(e.what()) + " (" + where +
                       (request.empty() ? "" : " '" + request + "'") + ")");
  }
  Reply r;
  if (std::string why = parse_reply(line, r); !why.empty())
    throw HelperFailed(std::string(kHelperName) + " sent a malformed line '" + line + "': " + why);
  if (r.word == "unsupported") throw Unsupported(r.text);
  if (r.word == "error") throw HelperFailed(std::string(kHelperName) + ": " + r.text);
  if (r.word != word)
    throw HelperFailed(std::string(kHelperName) + " answered '" + line + "' where '" + word +
                       " ...' was expected");
  return r;
}

namespace {

long count_field(const Reply& r, const char* key) {
  long v = 0;
  if (std::string why = field_count(r, key, v); !why.empty())
    throw HelperFailed(std::string(kHelperName) + " sent a malformed '" + r.word + "': " + why);
  return v;
}

double seconds_field(const Reply& r) {
  double v = 0;
  std::string why = field_number(r, "seconds", v);
  if (why.empty() && v < 0) why = "negative seconds";
  if (!why.empty())
    throw HelperFailed(std::string(kHelperName) + " sent a malformed '" + r.word + "': " + why);
  return v;
}

}  // namespace

long Session::check(long crossings) {
  const Reply r = ask("check " + std::to_string(crossings), "check",
                      static_cast<double>(crossings) * kSlowStepS, "checking multi-grid sync");
  return count_field(r, "stale");
}

double Session::sync(long reps) {
  const Reply r = ask("sync " + std::to_string(reps), "sync",
                      static_cast<double>(reps) * kSlowStepS, "timing multi-grid sync");
  return seconds_field(r);
}

std::vector<double> Session::launch(long warmup, long steps) {
  const Reply r =
      ask("launch " + std::to_string(warmup) + " " + std::to_string(steps), "launch",
          static_cast<double>(warmup + steps) * kSlowStepS, "timing multi-device launches");
  std::vector<double> ns;
  std::string why = field_numbers(r, "ns", ns);
  if (why.empty() && static_cast<long>(ns.size()) != steps)
    why = std::to_string(ns.size()) + " times for " + std::to_string(steps) + " steps";
  if (!why.empty())
    throw HelperFailed(std::string(kHelperName) + " sent a malformed 'launch': " + why);
  return ns;
}

long Session::launch_check(long rounds) {
  const Reply r = ask("launch-check " + std::to_string(rounds), "launch-check",
                      static_cast<double>(rounds) * kSlowStepS, "checking multi-device launches");
  return count_field(r, "stale");
}

double Session::fuse(long launches, long units) {
  // Each launch's kernel sleeps `units` units; __nanosleep may sleep up to twice as long.
  const double work = static_cast<double>(launches) * (kSlowStepS + 2.0 * units * unit_s_);
  const Reply r = ask("fuse " + std::to_string(launches) + " " + std::to_string(units), "fuse",
                      work, "timing fused multi-device launches");
  return seconds_field(r);
}

namespace {

// GPU 0's sum: any double, NaN and infinities included (a wrong sum is the check's to judge).
double sum_field(const Reply& r) {
  const std::string* v = r.find("sum");
  char* end = nullptr;
  const double x = v ? std::strtod(v->c_str(), &end) : 0;
  if (!v || v->empty() || end != v->c_str() + v->size())
    throw HelperFailed(std::string(kHelperName) + " sent a malformed '" + r.word +
                       "': no number in field 'sum'");
  return x;
}

}  // namespace

Session::ReductionResult Session::reduce_check(long bytes) {
  const Reply r =
      ask("reduce-check " + std::to_string(bytes), "reduce-check",
          kReductionSetupS + 2.0 * static_cast<double>(bytes) * kSlowByteS, "checking a reduction");
  return {sum_field(r), count_field(r, "blocks")};
}

std::vector<double> Session::reduce(long bytes, long warmup, long steps) {
  const double work = kReductionSetupS + static_cast<double>(warmup + steps) *
                                             (kSlowStepS + static_cast<double>(bytes) * kSlowByteS);
  const Reply r = ask("reduce " + std::to_string(bytes) + " " + std::to_string(warmup) + " " +
                          std::to_string(steps),
                      "reduce", work, "timing reductions");
  std::vector<double> ns;
  std::string why = field_numbers(r, "ns", ns);
  if (why.empty() && static_cast<long>(ns.size()) != steps)
    why = std::to_string(ns.size()) + " times for " + std::to_string(steps) + " steps";
  if (!why.empty())
    throw HelperFailed(std::string(kHelperName) + " sent a malformed 'reduce': " + why);
  return ns;
}

Session* session_of(State& state, const Shape& shape) {
  if (state.skipped()) return nullptr;
  const HelperLocation where = locate_helper();
  if (where.path.empty()) {  // usable() said so already, unless it went away since
    state.skip(where.problem);
    return nullptr;
  }
  try {
    return &state.resource<Session>(where.path, state.ctx().gpus, shape,
                                    state.ctx().options.watchdog_s);
  } catch (const Unsupported& e) {
    state.skip(e.what());
    return nullptr;
  }
}

}  // namespace gb::legacy

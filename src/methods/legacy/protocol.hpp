// The line protocol between gpubarrier and gpubarrier-legacy, shared by both sides.
// The helper is built by an older toolkit (nvcc 11.8 compiles C++17 at most) and never includes
// the main project's C++20 headers: this header uses C++17 and the standard library only.
//
// gpubarrier starts the helper once per configuration:
//   gpubarrier-legacy --gpus 0,1 [--blocks-per-sm B] [--threads T] [--unit-ns U] [--host-wait W]
// and talks to it one line at a time: a request on the helper's stdin, the reply on its stdout.
// The helper launches, times and checks; every statistic is gpubarrier's (core/techniques.hpp).
//
// First line, unasked:
//   ready protocol=1 cudart=11080 driver=13000 gpus=2 blocks=132   (blocks per GPU for B x SMs)
//   unsupported <why>        the configuration cannot run here (a skipped row); the helper exits
// Requests and their replies:
//   check <n>                check crossings=<n> stale=<count>
//       n multi-grid syncs with stamps; one block of one GPU arrives late at each (every GPU in
//       turn); stale = stamps seen below the current crossing after a sync (0 when it waits).
//   sync <reps>              sync reps=<reps> seconds=<s>
//       one kernel of <reps> multi-grid syncs, launched by cudaLaunchCooperativeKernelMultiDevice
//       and waited for; s = host time from the launch to the end of the wait.
//   launch <warmup> <steps>  launch ns=<t1>,<t2>,...
//       <steps> timed multi-device launches of an empty kernel (1 block/SM x 128) + the wait for
//       every GPU, after <warmup> untimed ones; one time per step.
//   launch-check <rounds>    launch-check rounds=<n> stale=<count>
//       per round each GPU's kernel stamps host memory (one GPU late, in turn); after the wait
//       the host counts stamps that are not yet there.
//   fuse <launches> <units>  fuse launches=<l> units=<u> seconds=<s>
//       <launches> multi-device launches of kernels of <units> __nanosleep units (U ns each),
//       back to back, then the wait: the runs behind the fusion technique (the study's Eq. 6).
//   reduce-check <bytes>     reduce-check bytes=<b> blocks=<g> sum=<s>
//       one whole multi-GPU reduction of the reductions' data set (<bytes> = the whole array,
//       split over the GPUs; kernels/reduction/data_set.hpp), from zeroed partial sums: GPU 0's
//       sum s (17 digits; nan or inf where the kernel made one), g blocks of 1024 threads per GPU.
//   reduce <bytes> <warmup> <steps>   reduce bytes=<b> ns=<t1>,<t2>,...
//       <steps> timed reductions (one multi-device launch + the wait for every GPU each) after
//       <warmup> untimed ones; one time per step. The array is made on the first request for
//       its size and kept until another size is asked for.
//   quit                     no reply; the helper exits 0 (so does end of input)
// Any request may instead be answered `unsupported <why>` (what it needs is missing here, e.g.
// peer access for the stamp check) or `error <what>`; the helper then exits (3, or 1).
// Values never contain spaces; `unsupported` and `error` carry free text to the end of the line.
#pragma once

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gb::legacy {

inline constexpr int kProtocolVersion = 1;
inline constexpr const char* kHelperName = "gpubarrier-legacy";

// One reply: its first word, then key=value fields, or free text for `unsupported` and `error`.
struct Reply {
  std::string word;
  std::string text;
  std::vector<std::pair<std::string, std::string>> fields;

  const std::string* find(std::string_view key) const {
    for (const auto& [k, v] : fields)
      if (k == key) return &v;
    return nullptr;
  }
};

inline bool is_free_text(std::string_view word) {
  return word == "unsupported" || word == "error";
}

// Splits `line` into `out`; returns what is wrong with it, empty when nothing is.
inline std::string parse_reply(std::string_view line, Reply& out) {
  out = Reply{};
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const std::size_t end = line.find(' ');
  out.word = std::string(line.substr(0, end));
  if (out.word.empty()) return "empty line, expected a reply word such as 'sync'";
  std::string_view rest = end == std::string_view::npos ? "" : line.substr(end + 1);
  if (is_free_text(out.word)) {
    out.text = std::string(rest);
    return {};
  }
  while (!rest.empty()) {
    const std::size_t sp = rest.find(' ');
    const std::string_view item = rest.substr(0, sp);
    rest = sp == std::string_view::npos ? "" : rest.substr(sp + 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
      return std::string("'").append(item).append("' is not key=value");
    out.fields.emplace_back(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
  }
  return {};
}

// The number in field `key`; returns what is wrong, empty when `out` was set.
inline std::string field_number(const Reply& r, std::string_view key, double& out) {
  const std::string* v = r.find(key);
  if (!v) return "no field '" + std::string(key) + "'";
  errno = 0;
  char* end = nullptr;
  out = std::strtod(v->c_str(), &end);
  if (v->empty() || end != v->c_str() + v->size() || errno == ERANGE || !std::isfinite(out))
    return "field '" + std::string(key) + "' is not a number: '" + *v + "'";
  return {};
}

// A count (an integer >= 0) in field `key`.
inline std::string field_count(const Reply& r, std::string_view key, long& out) {
  const std::string* v = r.find(key);
  if (!v) return "no field '" + std::string(key) + "'";
  errno = 0;
  char* end = nullptr;
  out = std::strtol(v->c_str(), &end, 10);
  if (v->empty() || end != v->c_str() + v->size() || errno == ERANGE || out < 0)
    return "field '" + std::string(key) + "' is not a count: '" + *v + "'";
  return {};
}

// A comma-separated list of numbers in field `key`.
inline std::string field_numbers(const Reply& r, std::string_view key, std::vector<double>& out) {
  const std::string* v = r.find(key);
  if (!v) return "no field '" + std::string(key) + "'";
  out.clear();
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = v->find(',', start);
    const std::string item = v->substr(start, comma - start);
    errno = 0;
    char* end = nullptr;
    const double x = std::strtod(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || errno == ERANGE || !std::isfinite(x))
      return "field '" + std::string(key) + "' holds '" + item + "', not a number";
    out.push_back(x);
    if (comma == std::string::npos) return {};
    start = comma + 1;
  }
}

}  // namespace gb::legacy

// The runner of multigpu.torch.symm-barrier: gpubarrier_tools/peers/torch_symm_barrier.py (PyTorch's
// symmetric-memory barrier in CUDA graphs) as a child process, spoken to one line at a time
// (methods/legacy/helper_process.hpp: a host-side deadline on every reply, its process group
// killed past it), and the script's JSON lines parsed and checked. The figures are gpubarrier's:
// the method asks for raw replay times and check counts (multigpu/torch_symm_barrier.cpp).
//
// The script, when asked by this runner (--serve), prints one JSON object per line:
//   {"event": "ready", "torch": "2.11.0", "gpus": 2, "channel": 0, "backend": "CUDA", ...}
//   {"event": "skip", "reason": "..."}    (then exits 77) the configuration cannot run here
//   {"event": "error", "what": "..."}     (then exits 1)
// and answers `check <n>` with {"event": "check", "crossings": n, "stale": s} and `time <reps>`
// with {"event": "time", "reps": r, "seconds": s}.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "errors/errors.hpp"
#include "methods/legacy/helper_process.hpp"

namespace gb::torch_peer {

inline constexpr const char* kScript = "peers/torch_symm_barrier.py";  // under the tools folder
inline constexpr std::size_t kMaxLineBytes = 16384;  // no line of the script comes near it

// A line of the script that gpubarrier cannot use, or a reply it did not expect.
class ScriptError : public Error {
 public:
  using Error::Error;
};

// The script says the configuration cannot run here (a skipped row with its reason).
class ScriptSkip : public Error {
 public:
  using Error::Error;
};

// One line of the script: a flat JSON object with a string "event" and numbers, strings and
// booleans beside it.
class ScriptLine {
 public:
  // Throws ScriptError saying what is wrong: longer than kMaxLineBytes, not JSON, not an object,
  // no "event" string, or a field that is an array, an object or null.
  static ScriptLine parse(std::string_view line);

  const std::string& event() const { return event_; }
  // The field's value; ScriptError naming the event and field when it is absent or of another
  // kind (number: finite; count: an integer >= 0).
  double number(std::string_view key) const;
  long count(std::string_view key) const;
  const std::string& text(std::string_view key) const;

 private:
  using Value = std::variant<double, std::string, bool>;
  const Value& field(std::string_view key, const char* kind) const;

  std::string event_;
  std::map<std::string, Value, std::less<>> fields_;
};

// How the script is run: its interpreter and path, or why it cannot be.
struct ScriptCommand {
  std::string python;   // GPUBARRIER_TORCH_PYTHON, else python3 on PATH
  std::string script;   // <tools folder>/peers/torch_symm_barrier.py
  std::string problem;  // empty, or why there is no interpreter or no script
};
ScriptCommand locate_script();

// Empty when this machine's Python has torch with CUDA and symmetric memory (the script's
// --probe), else why not. Asked once per process (the answer is kept); never throws.
std::string torch_problem();

// One configuration's script: started on `gpus` (CUDA ordinals) with the barrier's `channel` and
// the differential's R_lo and R_hi, kept for verify() and measure() (a State resource).
class Session {
 public:
  // Reads the `ready` line. Throws ScriptSkip, ScriptError (the script's own `error` too),
  // legacy::HelperTimeout or legacy::HelperFailed, or gb::Error when it cannot start.
  Session(const ScriptCommand& command, const std::vector<int>& gpus, long channel, long reps_lo,
          long reps_hi, double watchdog_s);

  long check(long crossings);  // stale stamps seen after the barriers
  double time(long reps);      // seconds of one replay of the graph of `reps` barriers
  // "torch 2.11.0, CUDA backend, channel 0, multicast off"
  const std::string& about() const { return about_; }

 private:
  // Sends `request`, expects `event` back within watchdog + `work_s`.
  ScriptLine ask(const std::string& request, std::string_view event, double work_s);

  std::unique_ptr<legacy::HelperProcess> script_;
  double watchdog_s_;
  std::string about_;
};

}  // namespace gb::torch_peer

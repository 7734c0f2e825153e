#include "multigpu/torch_symm_script.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "paths/data_dir.hpp"

namespace gb::torch_peer {
namespace {

// torch's import in the script and in one process per GPU, NCCL's set-up, the rendezvous and the
// capture of R_lo + R_hi barrier calls, before the first line.
constexpr double kStartS = 180;
constexpr double kProbeS = 120;  // one import of torch
// Per barrier: a thousand times a healthy one (as the legacy helper's and NCCL LSA's deadline);
// per check round also the late GPU's sleep and Python's launches; per request the queues.
constexpr double kSlowBarrierS = 1e-3;
constexpr double kSlowRoundS = 5e-3;
constexpr double kRequestS = 2;

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", s);
  return text;
}

std::string quoted(std::string_view line) {
  constexpr std::size_t kShown = 200;
  return "'" + std::string(line.substr(0, kShown)) + (line.size() > kShown ? "...'" : "'");
}

}  // namespace

ScriptLine ScriptLine::parse(std::string_view line) {
  if (line.size() > kMaxLineBytes)
    throw ScriptError("a line of " + std::to_string(line.size()) + " bytes, more than the " +
                      std::to_string(kMaxLineBytes) + " any line of the script may have");
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    throw ScriptError("a line that is not JSON: " + quoted(line) +
                      " (every line on the script's stdout is one JSON object)");
  if (!j.is_object()) throw ScriptError("a line that is no JSON object: " + quoted(line));
  const auto event = j.find("event");
  if (event == j.end() || !event->is_string() || event->get<std::string>().empty())
    throw ScriptError("a line without an \"event\" string: " + quoted(line));
  ScriptLine out;
  out.event_ = event->get<std::string>();
  for (const auto& [key, value] : j.items()) {
    if (key == "event") continue;
    if (value.is_number())
      out.fields_.emplace(key, value.get<double>());
    else if (value.is_string())
      out.fields_.emplace(key, value.get<std::string>());
    else if (value.is_boolean())
      out.fields_.emplace(key, value.get<bool>());
    else
      throw ScriptError("'" + out.event_ + "' line: field '" + key +
                        "' is not a number, string or boolean: " + quoted(line));
  }
  return out;
}

const ScriptLine::Value& ScriptLine::field(std::string_view key, const char* kind) const {
  const auto it = fields_.find(key);
  if (it == fields_.end())
    throw ScriptError("'" + event_ + "' line without the " + kind + " field '" + std::string(key) +
                      "'");
  return it->second;
}

double ScriptLine::number(std::string_view key) const {
  const double* v = std::get_if<double>(&field(key, "number"));
  if (!v || !std::isfinite(*v))
    throw ScriptError("'" + event_ + "' line: field '" + std::string(key) +
                      "' is not a finite number");
  return *v;
}

long ScriptLine::count(std::string_view key) const {
  const double* v = std::get_if<double>(&field(key, "count"));
  if (!v || !std::isfinite(*v) || *v < 0 || *v != std::floor(*v) || *v > 9.0e15)
    throw ScriptError("'" + event_ + "' line: field '" + std::string(key) +
                      "' is not a count (an integer >= 0)");
  return static_cast<long>(*v);
}

const std::string& ScriptLine::text(std::string_view key) const {
  const std::string* v = std::get_if<std::string>(&field(key, "text"));
  if (!v) throw ScriptError("'" + event_ + "' line: field '" + std::string(key) + "' is no text");
  return *v;
}

ScriptCommand locate_script() {
  namespace fs = std::filesystem;
  ScriptCommand c;
  const char* python = std::getenv("GPUBARRIER_TORCH_PYTHON");
  if (python && *python) {
    c.python = python;
    if (access(python, X_OK) != 0)
      c.problem = "GPUBARRIER_TORCH_PYTHON=" + c.python + " is not an executable file";
  } else {
    c.python = paths::find_on_path("python3");
    if (c.python.empty())
      c.problem = "no python3 on PATH for PyTorch's barrier (GPUBARRIER_TORCH_PYTHON names one)";
  }
  c.script = (paths::tools_dir() / kScript).string();
  if (std::error_code ec; c.problem.empty() && !fs::is_regular_file(c.script, ec))
    c.problem = c.script + " does not exist (GPUBARRIER_TOOLS names the tools' folder)";
  return c;
}

std::string torch_problem() {
  static const std::string problem = [] {
    const ScriptCommand c = locate_script();
    if (!c.problem.empty()) return c.problem;
    try {
      legacy::HelperProcess probe({c.python, c.script, "--probe"});
      const ScriptLine r = ScriptLine::parse(probe.exchange("", kProbeS));
      if (r.event() == "ok") return std::string();
      if (r.event() == "skip") return r.text("reason");
      if (r.event() == "error") return "PyTorch's probe failed: " + r.text("what");
      return "PyTorch's probe answered '" + r.event() + "'";
    } catch (const std::exception& e) {
      return "cannot probe PyTorch with " + c.python + " " + c.script + ": " + e.what();
    }
  }();
  return problem;
}

Session::Session(const ScriptCommand& command, const std::vector<int>& gpus, long channel,
                 long reps_lo, long reps_hi, double watchdog_s)
    : watchdog_s_(watchdog_s) {
  std::string list;
  for (int g : gpus) list += (list.empty() ? "" : ",") + std::to_string(g);
  script_ = std::make_unique<legacy::HelperProcess>(
      std::vector<std::string>{command.python, command.script, "--serve", "--gpus", list,
                               "--channel", std::to_string(channel), "--reps-lo",
                               std::to_string(reps_lo), "--reps-hi", std::to_string(reps_hi)});
  const ScriptLine r = ask("", "ready", kStartS);
  if (r.count("gpus") != static_cast<long>(gpus.size()))
    throw ScriptError("the script drives " + std::to_string(r.count("gpus")) + " GPUs, " +
                      std::to_string(gpus.size()) + " were asked for");
  about_ = "torch " + r.text("torch") + ", " + r.text("backend") + " backend, channel " +
           std::to_string(channel) + ", multicast off";
}

long Session::check(long crossings) {
  return ask("check " + std::to_string(crossings), "check",
             kRequestS + static_cast<double>(crossings) * kSlowRoundS)
      .count("stale");
}

double Session::time(long reps) {
  const ScriptLine r = ask("time " + std::to_string(reps), "time",
                           kRequestS + static_cast<double>(reps) * kSlowBarrierS);
  if (r.count("reps") != reps)
    throw ScriptError("the script timed " + std::to_string(r.count("reps")) + " barriers, " +
                      std::to_string(reps) + " were asked for");
  const double s = r.number("seconds");
  if (s < 0) throw ScriptError("the script timed a replay at " + seconds_text(s));
  return s;
}

ScriptLine Session::ask(const std::string& request, std::string_view event, double work_s) {
  const double limit = watchdog_s_ + work_s;
  const std::string where =
      request.empty() ? std::string("starting") : "answering '" + request + "'";
  std::string line;
  try {
    line = script_->exchange(request, limit);
  } catch (const legacy::HelperTimeout&) {
    throw legacy::HelperTimeout(
        "host-side deadline (" + seconds_text(limit) + ": --watchdog + the expected work) passed " +
        where +
        ": the script was killed with its processes and its GPUs are free again "
        "(PyTorch's barrier kernel spins without a limit)");
  } catch (const legacy::HelperFailed& e) {
    throw legacy::HelperFailed(std::string(e.what()) + " (" + where + ")");
  }
  ScriptLine r;
  try {
    r = ScriptLine::parse(line);
  } catch (const ScriptError& e) {
    throw ScriptError("PyTorch's barrier script sent " + std::string(e.what()) + " (" + where +
                      ")");
  }
  if (r.event() == "skip") throw ScriptSkip(r.text("reason"));
  if (r.event() == "error") throw ScriptError("PyTorch's barrier script: " + r.text("what"));
  if (r.event() != event)
    throw ScriptError("PyTorch's barrier script answered '" + r.event() + "' where '" +
                      std::string(event) + "' was expected (" + where + ")");
  return r;
}

}  // namespace gb::torch_peer

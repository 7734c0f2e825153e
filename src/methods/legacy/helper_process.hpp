// A child process spoken to one line at a time (gpubarrier-legacy,
// src/methods/legacy/protocol.hpp): a request on its stdin, the reply as the next line of its
// stdout, each wait bounded by a host-side deadline. A helper that overruns it is killed with its
// process group: its GPUs are freed by the driver with its contexts, and the sweep goes on.
// (app/child_process runs a child to its end instead; this one stays for a configuration's many
// requests.)
#pragma once

#include <sys/types.h>

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "errors/errors.hpp"

namespace gb::legacy {

// No reply within the deadline; the helper has been killed.
class HelperTimeout : public Error {
 public:
  using Error::Error;
};

// The helper ended (exit, signal) before replying, or replied in a way gpubarrier cannot use.
class HelperFailed : public Error {
 public:
  using Error::Error;
};

class HelperProcess {
 public:
  // Starts argv[0] with `argv`, in a process group of its own and dying with this process.
  // Throws gb::Error when it cannot be started (naming the path and why).
  explicit HelperProcess(const std::vector<std::string>& argv);
  // Closes its input (the helper then exits), waits a moment, then kills what is left.
  ~HelperProcess();
  HelperProcess(const HelperProcess&) = delete;
  HelperProcess& operator=(const HelperProcess&) = delete;

  // Sends `request` and a newline (nothing when empty) and returns the next line of the helper's
  // stdout. Throws HelperTimeout (after killing the helper) when no line came within `seconds`,
  // HelperFailed when its stdout ended first, saying how it ended and its last stderr lines, or
  // when it wrote a line of more than 1 MiB (killed).
  std::string exchange(std::string_view request, double seconds);

  // "exited with status 3", "killed by signal 11 (Segmentation fault)", plus the last lines the
  // helper wrote to stderr; waits for the helper to end (it has closed its stdout).
  std::string ending();

 private:
  void read_available(int fd);
  void kill_and_reap();

  std::string name_;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::string out_pending_, err_pending_;
  std::deque<std::string> lines_;     // complete stdout lines not yet returned
  std::deque<std::string> err_tail_;  // the last stderr lines
  int status_ = 0;
  bool reaped_ = false;
  bool overlong_ = false;  // a stdout line grew past the limit (helper_process.cpp)
};

}  // namespace gb::legacy

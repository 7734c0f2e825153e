// One child process for --isolate: started in a process group of its own (so that a hung child
// is killed with everything it started), dying with its parent (a kill -9 of the sweep leaves no
// orphan measuring on), with its messages on fd 3, its stdout and stderr on a second pipe, and
// optionally a file of the parent's as fd 4.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gb::cli {

struct ChildExit {
  bool timed_out = false;        // killed (SIGKILL to its group) because the deadline passed
  int exit_code = -1;            // when it exited
  int signal = 0;                // when a signal ended it
  std::string describe() const;  // "exited with status 3", "killed by signal 6 (Aborted)"
};

struct ChildIo {
  int input_fd = -1;                                 // becomes the child's fd 4 (-1: none)
  std::function<void(std::string_view)> on_message;  // each line on fd 3
  std::function<void(std::string_view)> on_output;   // each line of stdout/stderr
  // Asked after every line and at least every 250 ms; once now is past it, the group is killed.
  std::function<std::chrono::steady_clock::time_point()> deadline;
};

// Runs `argv` (argv[0] is the executable's path) to its end. Throws gb::Error when it cannot
// be started.
ChildExit run_child(const std::vector<std::string>& argv, const ChildIo& io);

// This executable (/proc/self/exe), for starting children of the same build.
std::string self_executable();

}  // namespace gb::cli

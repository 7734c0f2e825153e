#include "app/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "errors/errors.hpp"

namespace gb::cli {
namespace {

using Clock = std::chrono::steady_clock;

// Between fork and exec only async-signal-safe calls: everything is prepared before the fork.
[[noreturn]] void exec_child(char* const* argv, int msg_w, int out_w, int input, pid_t parent) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent died before prctl took effect
  // Above every target first, so that no dup2 below overwrites a source still needed.
  msg_w = fcntl(msg_w, F_DUPFD, 10);
  out_w = fcntl(out_w, F_DUPFD, 10);
  if (input >= 0) input = fcntl(input, F_DUPFD, 10);
  dup2(msg_w, 3);
  dup2(out_w, 1);
  dup2(out_w, 2);
  if (input >= 0) dup2(input, 4);
  const int null = open("/dev/null", O_RDONLY);
  if (null >= 0) dup2(null, 0);
  if (close_range(5, ~0U, 0) != 0)
    for (int fd = 5; fd < 4096; ++fd) close(fd);
  execv(argv[0], argv);
  _exit(127);
}

// Splits what arrives on one pipe into lines.
struct LineReader {
  int fd = -1;
  std::string pending;
  bool eof() const { return fd < 0; }
  void read_some(const std::function<void(std::string_view)>& on_line) {
    char buf[65536];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (n <= 0) {
      if (!pending.empty()) on_line(pending);
      pending.clear();
      close(fd);
      fd = -1;
      return;
    }
    pending.append(buf, static_cast<std::size_t>(n));
    std::size_t start = 0;
    for (std::size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1)
      on_line(std::string_view(pending).substr(start, nl - start));
    pending.erase(0, start);
  }
  void close_now() {
    if (fd >= 0) close(fd);
    fd = -1;
  }
};

}  // namespace

std::string ChildExit::describe() const {
  if (signal) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exited with status " + std::to_string(exit_code);
}

std::string self_executable() {
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find this executable (/proc/self/exe): " + ec.message());
  return path.string();
}

ChildExit run_child(const std::vector<std::string>& args, const ChildIo& io) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int msg[2], out[2];
  if (pipe2(msg, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(msg[0]);
    close(msg[1]);
    throw Error(std::string("pipe: ") + std::strerror(errno));
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw Error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) exec_child(argv.data(), msg[1], out[1], io.input_fd, parent);
  setpgid(pid, pid);  // also here: a kill right after the fork must already reach the group
  close(msg[1]);
  close(out[1]);

  LineReader readers[2] = {{msg[0], {}}, {out[0], {}}};
  ChildExit result;
  Clock::time_point killed_at{};
  bool killed = false;
  int status = 0;
  try {
    for (;;) {
      const auto now = Clock::now();
      if (!killed && now >= io.deadline()) {
        kill(-pid, SIGKILL);
        killed = result.timed_out = true;
        killed_at = now;
      }
      // A killed group closes its pipes at once; something that escaped the group may not.
      if (killed && now - killed_at > std::chrono::seconds(5))
        for (auto& r : readers) r.close_now();
      if (readers[0].eof() && readers[1].eof()) break;
      pollfd fds[2];
      nfds_t n = 0;
      for (auto& r : readers)
        if (!r.eof()) fds[n++] = {r.fd, POLLIN, 0};
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(io.deadline() - now);
      const int wait_ms = static_cast<int>(std::clamp<long long>(left.count(), 0, 250));
      if (poll(fds, n, killed ? 250 : wait_ms) < 0 && errno != EINTR)
        throw Error(std::string("poll: ") + std::strerror(errno));
      for (nfds_t i = 0; i < n; ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        LineReader& r = fds[i].fd == readers[0].fd ? readers[0] : readers[1];
        r.read_some(&r == &readers[0] ? io.on_message : io.on_output);
      }
    }
  } catch (...) {
    // A caller's callback failed (e.g. the CSV could not be written): the child must not outlive
    // the run it belongs to.
    kill(-pid, SIGKILL);
    for (auto& r : readers) r.close_now();
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    throw;
  }
  // Whatever the child left running in its group goes too. Before the wait: until the child is
  // reaped its pid (the group id) cannot be reused, and a child that already exited keeps its
  // exit status.
  kill(-pid, SIGKILL);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

}  // namespace gb::cli

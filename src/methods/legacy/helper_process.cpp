#include "methods/legacy/helper_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>

namespace gb::legacy {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kTailLines = 12;
// No line of a helper is anywhere near this long: past it the helper is taken as broken (stdout)
// or its line is cut (stderr), so that a runaway helper cannot fill this process's memory.
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;
// How long a helper whose input closed (or whose stdout ended) may take to exit by itself.
constexpr auto kGrace = std::chrono::seconds(3);

// Between fork and exec only async-signal-safe calls. `report` (close-on-exec) carries errno
// back when execv fails, so that a missing or non-executable helper is named at once.
[[noreturn]] void exec_child(char* const* argv, int in, int out, int err, int report,
                             pid_t parent) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent died before prctl took effect
  // Above every target first, so that no dup2 below overwrites a source still needed.
  in = fcntl(in, F_DUPFD, 10);
  out = fcntl(out, F_DUPFD, 10);
  err = fcntl(err, F_DUPFD, 10);
  report = fcntl(report, F_DUPFD_CLOEXEC, 10);
  dup2(in, 0);
  dup2(out, 1);
  dup2(err, 2);
  dup2(report, 3);
  fcntl(3, F_SETFD, FD_CLOEXEC);
  if (close_range(4, ~0U, 0) != 0)
    for (int fd = 4; fd < 4096; ++fd) close(fd);
  execv(argv[0], argv);
  const int e = errno;
  [[maybe_unused]] const ssize_t n = write(3, &e, sizeof e);
  _exit(127);
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

std::string system_error(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

}  // namespace

HelperProcess::HelperProcess(const std::vector<std::string>& args) : name_(args.at(0)) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // stdin is a socket: a request to a helper that died fails with EPIPE (MSG_NOSIGNAL) instead
  // of raising SIGPIPE in gpubarrier.
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, report[2] = {-1, -1};
  auto close_all = [&] {
    for (int* p : {in, out, err, report}) {
      close_fd(p[0]);
      close_fd(p[1]);
    }
  };
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0 || pipe2(out, O_CLOEXEC) != 0 ||
      pipe2(err, O_CLOEXEC) != 0 || pipe2(report, O_CLOEXEC) != 0) {
    const std::string why = system_error("pipes for " + name_);
    close_all();
    throw Error(why);
  }
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) {
    const std::string why = system_error("fork");
    close_all();
    throw Error(why);
  }
  if (pid_ == 0) exec_child(argv.data(), in[1], out[1], err[1], report[1], parent);
  setpgid(pid_, pid_);  // also here: a kill right after the fork must already reach the group
  close_fd(in[1]);
  close_fd(out[1]);
  close_fd(err[1]);
  close_fd(report[1]);
  in_ = in[0];
  out_ = out[0];
  err_ = err[0];
  int exec_errno = 0;
  ssize_t n = 0;
  while ((n = read(report[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  close_fd(report[0]);
  if (n == sizeof exec_errno) {
    kill_and_reap();
    throw Error("cannot run " + name_ + ": " + std::strerror(exec_errno));
  }
}

HelperProcess::~HelperProcess() {
  if (reaped_) return;
  close_fd(in_);  // end of input: a healthy helper exits by itself
  const auto until = Clock::now() + kGrace;
  siginfo_t info{};
  // WNOWAIT: the helper stays unreaped, so its pid (the group id) cannot be reused before the
  // group is killed below.
  while (Clock::now() < until) {
    info.si_pid = 0;
    if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
        info.si_pid != 0)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill_and_reap();
}

void HelperProcess::kill_and_reap() {
  if (!reaped_) {
    kill(-pid_, SIGKILL);  // whatever is left of its group, too
    while (waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
  }
  close_fd(in_);
  close_fd(out_);
  close_fd(err_);
}

void HelperProcess::read_available(int fd) {
  const bool is_out = fd == out_;
  std::string& pending = is_out ? out_pending_ : err_pending_;
  auto take = [&](std::string line) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (is_out) {
      lines_.push_back(std::move(line));
    } else if (!line.empty()) {
      err_tail_.push_back(std::move(line));
      if (err_tail_.size() > kTailLines) err_tail_.pop_front();
    }
  };
  char buf[65536];
  const ssize_t n = read(fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n <= 0) {  // end of file (or an error, which ends the stream as well)
    if (!pending.empty()) take(std::move(pending));
    pending.clear();
    close_fd(is_out ? out_ : err_);
    return;
  }
  pending.append(buf, static_cast<std::size_t>(n));
  std::size_t start = 0;
  for (std::size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1)
    take(pending.substr(start, nl - start));
  pending.erase(0, start);
  if (pending.size() <= kMaxLineBytes) return;
  if (is_out) {
    overlong_ = true;
  } else {
    pending.resize(1000);
    take(pending + "...");
  }
  pending.clear();
}

std::string HelperProcess::exchange(std::string_view request, double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(std::max(seconds, 0.0)));
  if (!request.empty() && in_ >= 0) {
    const std::string line = std::string(request) + "\n";
    for (std::size_t sent = 0; sent < line.size();) {
      const ssize_t n = send(in_, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;  // the helper is gone: its stdout ends, and ending() says how
      sent += static_cast<std::size_t>(n);
    }
  }
  while (lines_.empty()) {
    if (overlong_) {
      kill_and_reap();
      throw HelperFailed(name_ + " wrote a line of more than " + std::to_string(kMaxLineBytes) +
                         " bytes to its stdout and was killed");
    }
    if (out_ < 0) throw HelperFailed(name_ + " " + ending());
    const auto left = deadline - Clock::now();
    if (left <= Clock::duration::zero()) {
      kill_and_reap();
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g s", seconds);
      throw HelperTimeout(name_ + " gave no reply within " + limit + " and was killed");
    }
    pollfd fds[2];
    nfds_t count = 0;
    fds[count++] = {out_, POLLIN, 0};
    if (err_ >= 0) fds[count++] = {err_, POLLIN, 0};
    const double ms = std::chrono::duration<double, std::milli>(left).count();
    if (poll(fds, count, static_cast<int>(std::clamp(std::ceil(ms), 1.0, 250.0))) < 0 &&
        errno != EINTR)
      throw Error(system_error("poll"));
    for (nfds_t i = 0; i < count; ++i)
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) read_available(fds[i].fd);
  }
  std::string line = std::move(lines_.front());
  lines_.pop_front();
  return line;
}

std::string HelperProcess::ending() {
  close_fd(in_);
  // Its stdout has ended, so it is exiting: wait for that (bounded), then for the rest of stderr.
  const auto until = Clock::now() + kGrace;
  siginfo_t info{};
  while (!reaped_ && Clock::now() < until) {
    info.si_pid = 0;
    if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
        info.si_pid != 0)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const bool exited = reaped_ || info.si_pid != 0;
  // Its stderr may still hold the lines that say why: read them before the pipe goes.
  while (err_ >= 0) {
    pollfd fd{err_, POLLIN, 0};
    if (poll(&fd, 1, 200) <= 0) break;
    read_available(err_);
  }
  kill_and_reap();
  std::string how;
  if (!exited)
    how = "closed its output but did not exit (killed)";
  else if (WIFSIGNALED(status_))
    how = "was killed by signal " + std::to_string(WTERMSIG(status_)) + " (" +
          strsignal(WTERMSIG(status_)) + ")";
  else
    how = "exited with status " + std::to_string(WEXITSTATUS(status_));
  for (std::size_t i = 0; i < err_tail_.size(); ++i)
    how += (i ? " | " : "; stderr: ") + err_tail_[i];
  return how;
}

}  // namespace gb::legacy

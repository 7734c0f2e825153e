#include "core/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gb {
namespace {

std::string duration_text(double s) {
  char buf[32];
  if (s < 120)
    std::snprintf(buf, sizeof buf, "%.0fs", s);
  else if (s < 7200)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", static_cast<long>(s) / 60,
                  static_cast<long>(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%.1fh", s / 3600);
  return buf;
}

}  // namespace

bool ProgressLine::wanted() {
  if (const char* v = std::getenv("GPUBARRIER_PROGRESS"); v && *v) return std::strcmp(v, "0") != 0;
  return isatty(STDERR_FILENO) != 0;
}

ProgressLine::ProgressLine(std::size_t total, bool enabled) : total_(total), enabled_(enabled) {}

ProgressLine::~ProgressLine() {
  clear();
}

std::string ProgressLine::text() const {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string t = "[" + std::to_string(done_ + (running_.empty() ? 0 : 1)) + "/" +
                  std::to_string(total_) + " " + duration_text(elapsed);
  if (done_ > 0 && total_ > done_)
    t += ", ~" +
         duration_text(elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_)) +
         " left";
  t += "]";
  if (!running_.empty()) t += " " + running_;
  return t;
}

void ProgressLine::begin(const std::string& what) {
  running_ = what;
  draw();
}

void ProgressLine::end() {
  ++done_;
  running_.clear();
}

void ProgressLine::clear() {
  if (!enabled_ || !shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

void ProgressLine::draw() {
  if (!enabled_) return;
  // A line longer than the terminal wraps, and \r would then erase only its last part.
  winsize ws{};
  const std::size_t width =
      ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 ? ws.ws_col - 1 : 79;
  std::string line = text();
  if (line.size() > width) line.resize(width);
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace gb

#include "app/isolation.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <optional>

#include "app/child_process.hpp"
#include "core/launch_mode.hpp"
#include "errors/errors.hpp"
#include "io/point_stream.hpp"

namespace gb::cli {
namespace {

using Clock = std::chrono::steady_clock;

// What a child must skip, as an anonymous file (its fd 4): nothing is left behind when the sweep
// is killed.
class SkipFile {
 public:
  explicit SkipFile(const std::string& text) : fd_(memfd_create("gpubarrier-skip", MFD_CLOEXEC)) {
    if (fd_ < 0) throw Error(std::string("memfd_create: ") + std::strerror(errno));
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = write(fd_, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw Error(std::string("writing the skip file: ") + std::strerror(errno));
      done += static_cast<std::size_t>(n);
    }
  }
  ~SkipFile() { close(fd_); }
  SkipFile(const SkipFile&) = delete;
  SkipFile& operator=(const SkipFile&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// The end of a child's output, for the note of its failed or timeout row.
class Tail {
 public:
  void add(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.empty()) return;
    lines_.emplace_back(line.substr(0, 300));
    if (lines_.size() > 5) lines_.pop_front();
  }
  std::string text() const {
    std::string t;
    for (const auto& l : lines_) {
      if (!t.empty()) t += " | ";
      t += l;
    }
    return t.empty() ? "(no output)" : t;
  }

 private:
  std::deque<std::string> lines_;
};

struct Emitter {
  const std::vector<ResultSink*>& sinks;
  ProgressLine& progress;
  RunTally tally;
  void emit(const Record& r) {
    progress.clear();  // a table row never glues to the progress line
    for (ResultSink* s : sinks) s->write(r);
    switch (r.figure.status) {
      case Status::ok:
        ++tally.ok;
        break;
      case Status::skipped:
        ++tally.skipped;
        break;
      case Status::failed:
        ++tally.failed;
        break;
      case Status::timeout:
        ++tally.timeout;
        break;
      case Status::unverified:
        ++tally.unverified;
        break;
    }
  }
};

std::string join(const std::vector<std::string>& values) {
  std::string s;
  for (const std::string& v : values) {
    if (!s.empty()) s += ',';
    s += v;
  }
  return s;
}

// The child's command: the method by its exact name and the plan's axes that it has (another
// method's axis would be refused by the child).
std::vector<std::string> child_command(const IsolationArgs& args, const Method& method,
                                       const RunPlan& plan) {
  std::vector<std::string> argv = args.command;
  argv.insert(argv.end(), {"--methods", std::string(method.name())});
  for (const AxisOverride& o : plan.overrides)
    for (const Axis& a : method.axes())
      if (a.name == o.name) argv.insert(argv.end(), {"--axis", o.name + "=" + join(o.values)});
  argv.insert(argv.end(), {"--skip-file", "/dev/fd/4"});
  if (args.per_point) argv.insert(argv.end(), {"--max-points", "1"});
  return argv;
}

// A record for the whole method, for a child that failed outside any point (at start-up): the
// context it would have had in the runner.
Record method_record(const RunContext& ctx, const RunPlan& plan, const Method& method,
                     Status status, const std::string& note) {
  RunContext c = ctx;
  const Mode mode = launch_mode(ctx.launch, method.requirements());
  c.collective = mode != Mode::single;
  if (mode == Mode::threads) c.launch.launcher = to_string(mode);
  const std::string topology = method.requirements().min_gpus > 0 ? plan.topology_class : "";
  return make_record(c, plan.run_id, method, Point{}, topology, status, note);
}

class MethodRunner {
 public:
  MethodRunner(const RunContext& ctx, const RunPlan& plan, const Method& method, PointBook& book,
               Emitter& out, const IsolationArgs& args)
      : ctx_(ctx), plan_(plan), method_(method), book_(book), out_(out), args_(args) {}

  // Children until every point of the method is done, or one fails outside a point.
  void run() {
    for (;;) {
      const SkipFile skip(format_done_log(book_.done_entries()));
      current_.reset();
      more_ = progressed_ = false;
      tail_ = Tail{};
      touch();
      ChildIo io;
      io.input_fd = skip.fd();
      io.on_message = [this](std::string_view line) { on_message(line); };
      io.on_output = [this](std::string_view line) {
        out_.progress.clear();
        std::fprintf(stderr, "%.*s\n", static_cast<int>(line.size()), line.data());
        tail_.add(line);
      };
      io.deadline = [this] { return deadline_; };
      const ChildExit exit = run_child(child_command(args_, method_, plan_), io);
      if (current_) {
        lost_point(exit);
        continue;  // the next child skips it: it is done (failed or timeout) now
      }
      if (exit.timed_out || exit.signal || exit.exit_code != 0) {
        const Status s = exit.timed_out ? Status::timeout : Status::failed;
        const Record r = method_record(ctx_, plan_, method_, s, child_problem(exit));
        out_.emit(r);
        book_.finished(r, s);
        return;
      }
      if (!(more_ && progressed_)) return;
    }
  }

 private:
  void touch() {
    deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(args_.point_timeout_s));
  }

  void on_message(std::string_view line) {
    PointMessage m;
    try {
      m = decode_point_message(line);
    } catch (const Error& e) {
      tail_.add(e.what());
      return;
    }
    switch (m.kind) {
      case PointMessage::Kind::begin:
        current_ = std::move(m.record);
        out_.progress.begin(current_->method + " " + current_->point.to_string());
        touch();
        break;
      case PointMessage::Kind::record:
        out_.emit(m.record);
        break;
      case PointMessage::Kind::end:
        if (current_) book_.finished(*current_, m.status);
        current_.reset();
        out_.progress.end();
        progressed_ = true;
        touch();
        break;
      case PointMessage::Kind::exit:
        more_ = m.more;
        break;
    }
  }

  std::string child_problem(const ChildExit& exit) const {
    if (exit.timed_out)
      return "no result within --point-timeout " + seconds() +
             ": the isolated child and its process group were killed; its last output: " +
             tail_.text();
    return "the isolated child was " + exit.describe() + "; its last output: " + tail_.text();
  }

  std::string seconds() const {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", args_.point_timeout_s);
    return buf;
  }

  // The child died inside a point: that point gets the row that says how.
  void lost_point(const ChildExit& exit) {
    Record r = *current_;
    r.timestamp = utc_timestamp();
    r.figure.status = exit.timed_out ? Status::timeout : Status::failed;
    r.figure.note = child_problem(exit);
    out_.emit(r);
    book_.finished(*current_, r.figure.status);
    out_.progress.end();
  }

  const RunContext& ctx_;
  const RunPlan& plan_;
  const Method& method_;
  PointBook& book_;
  Emitter& out_;
  const IsolationArgs& args_;
  std::optional<Record> current_;
  bool more_ = false, progressed_ = false;
  Tail tail_;
  Clock::time_point deadline_;
};

}  // namespace

RunTally run_isolated(RunContext& ctx, const std::vector<RunPlan>& plans, PointBook& book,
                      const std::vector<ResultSink*>& sinks, const IsolationArgs& args,
                      ProgressLine& progress) {
  Emitter out{sinks, progress, {}};
  for (const RunPlan& plan : plans)
    for (const Method* method : plan.methods)
      MethodRunner(ctx, plan, *method, book, out, args).run();
  return out.tally;
}

}  // namespace gb::cli

#include "app/isolated_child.hpp"

#include <set>

#include "io/csv_reader.hpp"
#include "io/point_stream.hpp"
#include "io/resume_log.hpp"

namespace gb::cli {
namespace {

class ChildHooks : public PointHooks {
 public:
  ChildHooks(PointStreamWriter& out, std::set<PointKey> skip, int max_points)
      : out_(out), skip_(std::move(skip)), max_points_(max_points) {}

  bool start(const Record& point) override {
    if (skip_.contains(point_key(point))) return false;
    if (stopped_ || (max_points_ > 0 && ran_ >= max_points_)) {
      more_ = true;  // left for the next child
      return false;
    }
    out_.send(encode_begin(point));
    ++ran_;
    return true;
  }

  void finished(const Record& point, Status outcome) override {
    out_.send(encode_end(outcome));
    skip_.insert(point_key(point));
    if (outcome == Status::failed || outcome == Status::timeout) stopped_ = true;
  }

  bool more() const { return more_; }

 private:
  PointStreamWriter& out_;
  std::set<PointKey> skip_;
  int max_points_;
  int ran_ = 0;
  bool stopped_ = false, more_ = false;
};

}  // namespace

void run_as_child(RunContext& ctx, std::vector<RunPlan>& plans, const ChildArgs& args) {
  std::set<PointKey> skip;
  if (!args.skip_file.empty())
    for (const DoneEntry& e :
         parse_done_log(read_text_file(args.skip_file), args.skip_file).entries)
      skip.insert(e.key);
  PointStreamWriter out(args.fd);
  ChildHooks hooks(out, std::move(skip), args.max_points);
  const std::vector<ResultSink*> sinks{&out};
  for (RunPlan& plan : plans) {
    plan.hooks = &hooks;
    run_plan(ctx, plan, sinks);
  }
  out.send(encode_exit(hooks.more()));
}

}  // namespace gb::cli

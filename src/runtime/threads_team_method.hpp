// Base of the host-side methods that drive every GPU of the team from one process, one OpenMP
// thread per GPU (threads mode only): their axes, requirements and usability are the same.
#pragma once

#include "core/method.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

class ThreadsTeamMethod : public Method {
 public:
  using Method::Method;
  // The axes of a method that has none of its own: the GPU count and how the host waits.
  static std::vector<Axis> team_axes() { return {{kGpuCountAxis, {0}}, host_wait_axis({0, 1, 2})}; }
  Requirements requirements() const override { return Requirements::gpu_team(true, false); }
  Usability usable(const RunContext& ctx) const override {
    if (Usability u = Method::usable(ctx); !u.ok) return u;
    return team_usable(ctx, requirements());
  }
  Usability feasible(const RunContext& ctx, const Point& p) const override {
    return team_feasible(ctx, p);
  }
};

}  // namespace gb::mg

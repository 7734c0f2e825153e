// The frame of the methods that gpubarrier-legacy runs (issue 15): one process drives every GPU
// of the team (threads mode, no mpi mode), usable only where the helper is found.
#pragma once

#include "core/method.hpp"
#include "legacy/locate.hpp"
#include "team/team.hpp"

namespace gb::legacy {

class TeamMethod : public Method {
 public:
  Requirements requirements() const override {
    Requirements r;
    r.min_gpus = 1;
    r.peer_access = needs_peer_access();
    r.threads_mode = true;
    return r;
  }
  Usability usable(const RunContext& ctx) const override {
    if (Usability u = legacy::usable(ctx, Method::usable(ctx)); !u.ok) return u;
    return mg::team_usable(ctx, requirements());
  }

 protected:
  // Whether the helper reads every GPU's memory from every other (a stamp check does).
  virtual bool needs_peer_access() const { return false; }
};

}  // namespace gb::legacy

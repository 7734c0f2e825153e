// The sweep file of one step (sweeps/<step>.yaml): the entries of the user's sweep that run in
// that step, with concrete method names, so that a job folder says exactly what each step runs
// and needs no configs/ at run time.
#pragma once

#include <string>

#include "jobs/plan.hpp"

namespace gb::jobs {

std::string render_step_sweep(const Plan& plan, const Step& step);

}  // namespace gb::jobs

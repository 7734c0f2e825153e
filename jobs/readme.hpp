// The job folder's README.md: what each script measures, on which GPUs and CPUs (from the
// topology), and how to submit, watch and merge.
#pragma once

#include <string>

#include "jobs/plan.hpp"

namespace gb::jobs {

std::string render_readme(const Plan& plan);

}  // namespace gb::jobs

// How long a step runs, from its points and the sweep's time budget, so that every script asks
// Slurm for a time limit it will not hit in the normal case (and requeues itself when it does).
#pragma once

#include <string>

#include "io/sweep_file.hpp"
#include "jobs/catalogue.hpp"

namespace gb::jobs {

// The configurations a sweep runs: per entry and method, the product of its axes' value counts
// (an entry's values replace the method's defaults). gpu_count counts once: a step's GPUs fix it.
long count_points(const SweepFile& sweep, const Catalogue& catalogue);

// The time budgets those configurations may spend: one per point, two for a host method's point
// (its loop_latency row and its per-step latency row each sample up to the budget).
long count_budgets(const SweepFile& sweep, const Catalogue& catalogue);

// The seconds one configuration may take: the sweep's time_budget, or the run default.
double point_budget_s(const SweepFile& sweep);

// Estimated seconds of one step: budgets x budget + points x set-up + start-up per step.
double step_seconds(long points, long budgets, double budget_s);

// A script's time limit from the estimated seconds of its steps: with a margin, rounded up to
// whole 5 minutes, at least 10 minutes.
long time_limit_s(double estimated_s);

// How the limits were estimated, for the user ("points x (0.5 s budget + ...").
std::string estimate_explanation(double budget_s);

}  // namespace gb::jobs

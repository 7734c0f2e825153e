// Plans of the shipped system and sweep files for the job generator's tests, without the CLI.
#pragma once

#include <string>

#include "io/sweep_file.hpp"
#include "io/system_file.hpp"
#include "jobs/catalogue.hpp"
#include "jobs/plan.hpp"
#include "jobs/request.hpp"
#include "topology/from_wiring.hpp"

namespace gb::test {

inline std::string system_path(const std::string& name) {
  return GB_SOURCE_DIR "/configs/systems/" + name + ".yaml";
}
inline std::string sweep_path(const std::string& name) {
  return GB_SOURCE_DIR "/configs/sweeps/" + name + ".yaml";
}

inline const jobs::Catalogue& catalogue() {
  static const jobs::Catalogue methods = jobs::registered_methods();
  return methods;
}

inline jobs::JobRequest request(const std::string& system, const std::string& sweep) {
  jobs::JobRequest r;
  r.system = system_path(system);
  r.sweep = sweep_path(sweep);
  r.out = "/tmp/gb-jobs-unit/" + system + "-" + sweep;
  r.gpubarrier = "/opt/gpubarrier/bin/gpubarrier";
  r.command_line = "gpubarrier jobs --system " + system + " --sweep " + sweep;
  return r;
}

// The plan of a (possibly edited) system file with a sweep given as text.
inline jobs::Plan plan_with(const jobs::JobRequest& r, const SystemFile& sys,
                            const std::string& sweep_text) {
  const SweepFile sweep = parse_sweep_text(sweep_text, "test.yaml");
  return jobs::make_plan(r, sys, topo::topology_from_wiring(sys.wiring, sys.source), sweep,
                         "test.yaml", catalogue());
}

}  // namespace gb::test

#include "core/launch.hpp"

#include <cstdlib>

namespace gb {

int launcher_rank() {
  // A batch script has SLURM_PROCID too; only a job step launched by srun has a step id.
  const char* slurm = std::getenv("SLURM_STEP_ID") ? "SLURM_PROCID" : "";
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", slurm})
    if (const char* v = std::getenv(var); v != nullptr && *var != '\0') return std::atoi(v);
  return 0;
}

void Launch::max_in_place(std::vector<double>& values) const {
  if (!collective() || values.empty()) return;
  transport->max_in_place(values);
}

double Launch::max(double value) const {
  std::vector<double> v{value};
  max_in_place(v);
  return v.front();
}

double Launch::agreement_max(double value) const {
  return collective() ? transport->agreement_max(value) : value;
}

std::vector<int> Launch::gather(int value) const {
  if (!collective()) return {value};
  return transport->gather(value, size);
}

std::vector<double> Launch::gather(const std::vector<double>& values) const {
  if (!collective()) return values;
  return transport->gather(values, size);
}

void Launch::barrier() const {
  if (collective()) transport->barrier();
}

std::string Launch::mpi_library_version() const {
  return transport ? transport->library_version() : "none";
}

std::vector<std::string> gather_strings(const Launch& launch, const std::string& value) {
  if (!launch.under_mpi || !launch.transport) return {value};
  return launch.transport->gather_strings(value, launch.size);
}

std::string broadcast_string(const Launch& launch, const std::string& value, int root) {
  if (!launch.under_mpi || !launch.transport) return value;
  return launch.transport->broadcast_string(value, launch.rank, root);
}

}  // namespace gb

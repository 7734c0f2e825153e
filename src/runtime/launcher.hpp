// How this process was started (alone, or as one rank under mpirun/srun): MPI's start and end,
// and the collectives of core/launch.hpp over MPI (the RankTransport a Launch carries).
#pragma once

#include <string>

#include "core/launch.hpp"
#include "runtime/mpi_thread_level.hpp"

namespace gb {

// True when the environment shows mpirun (OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK) or srun
// (SLURM_PROCID together with SLURM_STEP_ID) started this process.
bool started_by_launcher();

// This process alone, MPI not initialised (for commands that never need ranks).
Launch local_launch();

// Initialises MPI only when started_by_launcher(), asking for thread support `thread_level`;
// sets the process label used in errors. Fails when MPI provides
// less than asked.
Launch init_launch(int* argc, char*** argv, MpiThreadLevel thread_level = MpiThreadLevel::single);
void finalize_launch(const Launch& launch);

}  // namespace gb

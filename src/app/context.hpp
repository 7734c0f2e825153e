// Building the RunContext from the command line: which GPUs, which options.
#pragma once

#include <string>

#include "core/run_context.hpp"

namespace gb::cli {

// Parses "0,1" against the visible GPUs; empty means every visible GPU (under MPI: the GPU of
// this rank's local index). Throws gb::UsageError when a listed GPU does not exist, is listed
// twice, or (under MPI) when a list of several GPUs has fewer than the node's ranks; under MPI a
// single listed GPU is this rank's own.
// `flag` names the option in the messages (selfcheck's is --gpu).
std::vector<int> select_gpus(const std::string& spec, int visible, const std::string& no_gpu_reason,
                             const Launch& launch, const std::string& flag = "--gpus");

RunContext make_context(const Launch& launch, const std::string& gpu_spec,
                        const std::string& flag = "--gpus");

}  // namespace gb::cli

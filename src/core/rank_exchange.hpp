// Strings between ranks: node names for the `node` column, the resume state that rank 0 reads
// and every rank must share. Outside MPI each is the identity.
#pragma once

#include <string>
#include <vector>

#include "core/launcher.hpp"

namespace gb {

// Every rank's `value`, in rank order ({value} outside MPI).
std::vector<std::string> gather_strings(const Launch& launch, const std::string& value);

// Rank `root`'s `value` on every rank.
std::string broadcast_string(const Launch& launch, const std::string& value, int root = 0);

}  // namespace gb

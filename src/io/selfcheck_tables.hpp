// `gpubarrier selfcheck`'s human output: the loop-kernel table, the instruction-cache scan and
// the PASS/FAIL verdict, from the outcome (core/selfcheck_outcome.hpp).
#pragma once

#include <cstdio>

#include "core/selfcheck_outcome.hpp"

namespace gb {

void print_selfcheck(std::FILE* out, const selfcheck::Outcome& outcome);

}  // namespace gb

// `gpubarrier selfcheck --json`: the outcome (core/selfcheck_outcome.hpp) as one JSON object,
// with the loop kernel under "rows" and the instruction-cache scan under "icache".
#pragma once

#include <nlohmann/json.hpp>

#include "core/selfcheck_outcome.hpp"

namespace gb {

nlohmann::json selfcheck_json(const selfcheck::Outcome& outcome);

}  // namespace gb

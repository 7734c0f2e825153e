// Lists joined into text, as the generator writes them into scripts, READMEs and messages.
#pragma once

#include <string>
#include <vector>

namespace gb::jobs {

std::string join(const std::vector<std::string>& items, const std::string& separator);
std::string join_ints(const std::vector<int>& items, const std::string& separator = ",");

}  // namespace gb::jobs

#include "jobs/request.hpp"

#include <charconv>
#include <cstdio>

#include "core/glob.hpp"
#include "errors/errors.hpp"

namespace gb::jobs {
namespace {

[[noreturn]] void bad_time(const std::string& text) {
  throw UsageError("--time '" + text +
                   "': expected a Slurm time limit: minutes, minutes:seconds, "
                   "hours:minutes:seconds, days-hours, days-hours:minutes or "
                   "days-hours:minutes:seconds (e.g. 90, 01:30:00, 1-12)");
}

long number(const std::string& item, const std::string& text) {
  long value = -1;
  const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
  if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || value < 0)
    bad_time(text);
  return value;
}

}  // namespace

std::vector<Subset> parse_subsets(const std::vector<std::string>& words) {
  std::vector<Subset> subsets;
  for (const auto& word : words) {
    if (const std::optional<Subset> s = from_name<Subset>(word)) {
      subsets.push_back(*s);
      continue;
    }
    const std::string near = closest_word(word, names_of<Subset>());
    throw UsageError("--subsets " + word +
                     ": expected best or worst (the best- and "
                     "worst-connected GPUs of each count, from the topology)" +
                     (near.empty() ? "" : "; did you mean '" + near + "'?"));
  }
  return subsets;
}

long parse_slurm_time(const std::string& text) {
  long days = 0;
  std::string rest = text;
  const auto dash = text.find('-');
  if (dash != std::string::npos) {
    days = number(text.substr(0, dash), text);
    rest = text.substr(dash + 1);
  }
  std::vector<long> parts;
  std::size_t start = 0;
  while (true) {
    const auto colon = rest.find(':', start);
    parts.push_back(number(rest.substr(start, colon - start), text));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (parts.size() > 3) bad_time(text);
  long seconds = 0;
  if (dash != std::string::npos) {  // days-hours[:minutes[:seconds]]
    const long factors[] = {3600, 60, 1};
    for (std::size_t i = 0; i < parts.size(); ++i) seconds += parts[i] * factors[i];
  } else if (parts.size() == 1) {
    seconds = parts[0] * 60;
  } else if (parts.size() == 2) {
    seconds = parts[0] * 60 + parts[1];
  } else {
    seconds = parts[0] * 3600 + parts[1] * 60 + parts[2];
  }
  seconds += days * 86400;
  if (seconds <= 0) bad_time(text);
  return seconds;
}

std::string format_slurm_time(long seconds) {
  const long days = seconds / 86400;
  seconds %= 86400;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02ld:%02ld:%02ld", seconds / 3600, seconds / 60 % 60,
                seconds % 60);
  return days > 0 ? std::to_string(days) + "-" + buf : std::string(buf);
}

}  // namespace gb::jobs

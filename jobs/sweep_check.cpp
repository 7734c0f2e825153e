#include "jobs/sweep_check.hpp"

#include <algorithm>

#include "core/axis.hpp"
#include "core/glob.hpp"
#include "errors/errors.hpp"
#include "jobs/text.hpp"

namespace gb::jobs {
namespace {

std::string listing(const std::vector<std::string>& words) {
  return join(words, ", ");
}

// "; did you mean 'x'?" for a near miss, else the closest names so the user sees what exists.
std::string suggestion(const std::string& word, const std::vector<std::string>& known) {
  if (const std::string best = closest_word(word, known); !best.empty())
    return "; did you mean '" + best + "'?";
  const auto near = close_names(word, known, 3);
  return near.empty() ? std::string() : " (closest: " + listing(near) + ")";
}

std::vector<const MethodInfo*> match(const SweepFile& sweep, const SweepEntry& entry,
                                     const std::string& key, const Catalogue& catalogue) {
  std::vector<std::string> names;
  for (const auto& m : catalogue) names.push_back(m.name);
  std::vector<const MethodInfo*> chosen;
  for (const auto& glob : split_list(entry.methods)) {
    bool any = false;
    for (const auto& m : catalogue) {
      if (!glob_match(glob, m.name)) continue;
      any = true;
      if (std::find(chosen.begin(), chosen.end(), &m) == chosen.end()) chosen.push_back(&m);
    }
    if (!any)
      throw ParseError(sweep.source, entry.methods_mark.line, entry.methods_mark.column,
                       key + ": expected a registered method or a glob matching one, got '" + glob +
                           "'" + suggestion(glob, names) + " (see `gpubarrier list`)");
  }
  std::sort(chosen.begin(), chosen.end(),
            [](const MethodInfo* a, const MethodInfo* b) { return a->name < b->name; });
  return chosen;
}

void check_axes(const SweepFile& sweep, const SweepEntry& entry, const std::string& key,
                const std::vector<const MethodInfo*>& methods) {
  std::vector<std::string> known;
  for (const MethodInfo* m : methods)
    for (const auto& a : m->axes)
      if (std::find(known.begin(), known.end(), a.name) == known.end()) known.push_back(a.name);
  for (std::size_t i = 0; i < entry.axes.size(); ++i) {
    const std::string name = parse_axis(entry.axes[i]).name;
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    const SweepMark at = i < entry.axis_marks.size() ? entry.axis_marks[i] : entry.methods_mark;
    throw ParseError(sweep.source, at.line, at.column,
                     key + ".axes." + name + ": expected an axis of the entry's methods (" +
                         (known.empty() ? std::string("they have none") : listing(known)) + ")" +
                         suggestion(name, known));
  }
}

}  // namespace

std::vector<CheckedEntry> check_sweep(const SweepFile& sweep, const Catalogue& catalogue) {
  std::vector<CheckedEntry> out;
  for (std::size_t i = 0; i < sweep.runs.size(); ++i) {
    const SweepEntry& entry = sweep.runs[i];
    const std::string key = "runs[" + std::to_string(i) + "]";
    CheckedEntry checked{&entry, match(sweep, entry, key + ".methods", catalogue)};
    check_axes(sweep, entry, key, checked.methods);
    out.push_back(std::move(checked));
  }
  return out;
}

}  // namespace gb::jobs

// The script templates of jobs/templates/*.in, compiled into the executable (so that jobs can
// be generated without the source tree), and their @NAME@ substitution.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gb::jobs {

using TemplateValues = std::map<std::string, std::string>;

// The template `name` (e.g. "slurm-job.sh.in") with every @NAME@ replaced by its value. Throws
// gb::Error for an unknown template, a placeholder without a value or a value without a
// placeholder: a script must never go out half rendered.
std::string render_template(std::string_view name, const TemplateValues& values);

namespace detail {
// Generated from jobs/templates/ by jobs/CMakeLists.txt: (file name, text) of every template.
const std::vector<std::pair<std::string_view, std::string_view>>& template_table();
}  // namespace detail

}  // namespace gb::jobs

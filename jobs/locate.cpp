#include "jobs/locate.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "core/glob.hpp"
#include "errors/errors.hpp"
#include "jobs/text.hpp"
#include "paths/data_dir.hpp"

namespace gb::jobs {
namespace fs = std::filesystem;
namespace {

const char* folder(ConfigKind kind) {
  return kind == ConfigKind::system ? "systems" : "sweeps";
}

std::string kind_name(ConfigKind kind) {
  return kind == ConfigKind::system ? "system" : "sweep";
}

}  // namespace

std::vector<std::string> config_roots() {
  std::vector<std::string> roots;
  if (const char* env = std::getenv("GPUBARRIER_CONFIGS"); env && *env) roots.emplace_back(env);
  roots.emplace_back("configs");
  roots.push_back((paths::data_dir().path / "configs").string());
  return roots;
}

std::vector<std::string> shipped_configs(ConfigKind kind) {
  for (const auto& root : config_roots()) {
    const fs::path dir = fs::path(root) / folder(kind);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<std::string> names;
    for (const auto& f : fs::directory_iterator(dir, ec))
      if (f.path().extension() == ".yaml") names.push_back(f.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  return {};
}

std::string locate_config(const std::string& name_or_path, ConfigKind kind) {
  const bool is_path =
      name_or_path.find('/') != std::string::npos || fs::path(name_or_path).extension() == ".yaml";
  if (is_path) {
    if (!fs::exists(name_or_path))
      throw UsageError("--" + kind_name(kind) + " " + name_or_path + ": no such file");
    return name_or_path;
  }
  for (const auto& root : config_roots()) {
    const fs::path file = fs::path(root) / folder(kind) / (name_or_path + ".yaml");
    if (fs::exists(file)) return file.string();
  }
  const auto known = shipped_configs(kind);
  const std::string list = join(known, ", ");
  const std::string near = closest_word(name_or_path, known);
  throw UsageError("--" + kind_name(kind) + " " + name_or_path + ": no " + kind_name(kind) +
                   " of that name in configs/" + folder(kind) +
                   " (known: " + (list.empty() ? "none found" : list) + ")" +
                   (near.empty() ? "" : "; did you mean '" + near + "'?") +
                   " A path to a .yaml file works too.");
}

}  // namespace gb::jobs

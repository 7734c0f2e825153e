// Where the named system and sweep files are: `--system dgx-h100` means
// configs/systems/dgx-h100.yaml, found without a source tree at hand when possible.
#pragma once

#include <string>
#include <vector>

namespace gb::jobs {

enum class ConfigKind { system, sweep };

// The folders searched for configs/, first match wins: $GPUBARRIER_CONFIGS, ./configs, then
// configs/ of the data files (src/paths: <prefix>/share/gpubarrier once installed, the source tree
// from the build folder).
std::vector<std::string> config_roots();

// A name or path: a path (it has a '/' or ends in .yaml) is taken as it is; a name is looked up
// as <root>/systems/<name>.yaml or <root>/sweeps/<name>.yaml. Throws gb::UsageError that lists
// the shipped names and the closest one.
std::string locate_config(const std::string& name_or_path, ConfigKind kind);

// The names of the shipped files of one kind (file stems, sorted), from the first root that has
// the folder.
std::vector<std::string> shipped_configs(ConfigKind kind);

}  // namespace gb::jobs

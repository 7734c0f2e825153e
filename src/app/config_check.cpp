// `gpubarrier config check FILE...`: validates system and sweep files without running anything.
// A mistake is reported as `file:line:column: key: expected ...; did you mean 'x'?` (exit 2).
#include <yaml-cpp/yaml.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>

#include "app/commands.hpp"
#include "app/session_request.hpp"
#include "core/names.hpp"
#include "errors/errors.hpp"
#include "io/config_limits.hpp"
#include "io/sweep_file.hpp"
#include "io/system_file.hpp"
#include "io/yaml_checks.hpp"
#include "jobs/catalogue.hpp"
#include "jobs/sweep_check.hpp"
#include "topology/binding_advice.hpp"
#include "topology/from_wiring.hpp"
#include "topology/nvlink_groups.hpp"
#include "topology/subsets.hpp"
#include "topology/topology_class.hpp"

namespace gb::cli {
namespace {

// What a file is checked as; --kind names it, else kind_of tells it from the file.
enum class Kind { system, sweep };
constexpr std::array<Named<Kind>, 2> kKindNames{{{Kind::system, "system"}, {Kind::sweep, "sweep"}}};
constexpr const auto& name_table(Kind) {
  return kKindNames;
}

// Which loader a file is for: by its top-level keys, then by its folder (configs/systems,
// configs/sweeps), so that a misspelt key still reaches the loader that can name it.
Kind kind_of(const std::string& path, std::optional<Kind> forced) {
  if (forced) return *forced;
  const std::set<std::string> system_keys{
      "alias_of", "probe",  "gpus_per_node", "gpu",   "fake_gpus", "max_nodes",
      "numa",     "wiring", "nics",          "slurm", "env"};
  const std::set<std::string> sweep_keys{"samples", "time_budget", "rse_target", "runs"};
  int system = 0, sweep = 0;
  try {
    // The loaders' own reading and checks, so that a file too large, too deep or full of
    // aliases costs no more here than in `sweep`.
    const std::string text = read_config_text(path, "config file");
    check_config_limits(text, path);
    const YAML::Node root = load_yaml(text, path);
    if (root.IsMap())
      for (const auto& kv : root) {
        system += system_keys.count(kv.first.Scalar()) ? 1 : 0;
        sweep += sweep_keys.count(kv.first.Scalar()) ? 1 : 0;
      }
  } catch (const UsageError&) {
    // Unreadable or malformed: the loader reports it with its line and column.
  } catch (const YAML::Exception&) {
  }
  if (system != sweep) return system > sweep ? Kind::system : Kind::sweep;
  const auto folder = std::filesystem::path(path).parent_path().filename();
  return folder == "systems" ? Kind::system : Kind::sweep;
}

std::string check_system(const std::string& path) {
  const SystemFile sys = load_system_file(path);
  std::string what = "system " + sys.name;
  if (sys.alias_of) what += " (alias of " + *sys.alias_of + ")";
  if (sys.probe) return what + ": the node is probed where it runs";
  // Everything the job generator derives from the wiring, so that a file that loads also plans.
  const topo::Topology topology = topo::topology_from_wiring(sys.wiring, sys.source);
  topo::connected_subsets(topology);
  topo::binding_advice(topology);
  std::string groups;
  for (const auto& g : topo::nvlink_groups(topology)) {
    groups += groups.empty() ? "{" : " {";
    for (std::size_t i = 0; i < g.size(); ++i) groups += (i ? "," : "") + std::to_string(g[i]);
    groups += "}";
  }
  return what + ", " + std::to_string(sys.gpus_per_node) + " x " + sys.gpu_model +
         " (CUDA_ARCH=" + sys.cuda_arch() + "), " + topo::topology_class(topology) +
         ", NVLink groups " + groups;
}

std::string check_sweep(const std::string& path) {
  const SweepFile sweep = load_sweep_file(path);
  const jobs::Catalogue catalogue = jobs::registered_methods();  // the entries point into it
  const auto entries = jobs::check_sweep(sweep, catalogue);
  try {
    check_point_limit(specs_of(sweep));  // `sweep` refuses the file over its default --point-limit
  } catch (const UsageError& e) {
    throw UsageError(path + ": " + e.what());
  }
  std::set<std::string> methods;
  for (const auto& e : entries)
    for (const auto* m : e.methods) methods.insert(m->name);
  return "sweep " + (sweep.name.empty() ? std::string("(unnamed)") : sweep.name) + ", " +
         std::to_string(sweep.runs.size()) + " run(s), " + std::to_string(methods.size()) +
         " method(s)";
}

void run_check(const std::vector<std::string>& files, std::optional<Kind> forced) {
  int bad = 0;
  for (const auto& path : files) {
    try {
      const std::string what =
          kind_of(path, forced) == Kind::system ? check_system(path) : check_sweep(path);
      std::printf("ok: %s: %s\n", path.c_str(), what.c_str());
    } catch (const UsageError& e) {
      std::fprintf(stderr, "gpubarrier: error: %s\n", e.what());
      ++bad;
    }
  }
  if (bad > 0)
    throw UsageError(std::to_string(bad) + " of " + std::to_string(files.size()) +
                     " file(s) have mistakes (above)");
}

}  // namespace

void add_config_command(CLI::App& app, GlobalOptions&) {
  auto* config = app.add_subcommand(
      "config", "Configuration files: `gpubarrier config check FILE...` validates them");
  config->require_subcommand(1);
  auto files = std::make_shared<std::vector<std::string>>();
  auto forced = std::make_shared<std::optional<Kind>>();
  auto* check = config->add_subcommand(
      "check",
      "Validate system files (configs/systems) and sweep files (configs/sweeps) without running:\n"
      "keys, values, wiring, method globs and axes. Mistakes print as\n"
      "file:line:column: key: expected ...; did you mean 'x'? and exit 2.\n"
      "Example: gpubarrier config check configs/systems/*.yaml configs/sweeps/*.yaml");
  check->add_option("files", *files, "System or sweep files (YAML)")->required();
  check
      ->add_option_function<std::string>(
          "--kind",
          [forced](const std::string& text) { *forced = parse_name<Kind>(text, "--kind"); },
          "system or sweep (default: told by the file's keys)")
      ->check(CLI::IsMember(names_of<Kind>()));
  check->callback([files, forced] { run_check(*files, *forced); });
}

}  // namespace gb::cli

#include "io/system_file.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <initializer_list>
#include <set>
#include <sstream>

#include "core/glob.hpp"
#include "errors/errors.hpp"
#include "io/config_limits.hpp"
#include "io/yaml_checks.hpp"
#include "topology/cpulist.hpp"
#include "topology/from_wiring.hpp"

namespace gb {
namespace {

using Keys = std::initializer_list<const char*>;

// The file being read and how to report a mistake in it: every error names the dotted key
// ("slurm.launcher") and what was expected there.
struct Reader {
  std::string source;

  [[noreturn]] void fail(const YAML::Node& node, const std::string& key,
                         const std::string& what) const {
    const YAML::Mark m = node.Mark();
    throw ParseError(source, m.line + 1, m.column + 1, key + ": " + what);
  }

  template <typename T>
  T scalar(const YAML::Node& node, const std::string& key, const std::string& what) const {
    if (!node.IsScalar()) fail(node, key, "expected " + what);
    try {
      return node.as<T>();
    } catch (const YAML::Exception&) {
      fail(node, key, "expected " + what + ", got '" + node.Scalar() + "'");
    }
  }

  int positive(const YAML::Node& node, const std::string& key) const {
    const int value = scalar<int>(node, key, "a positive integer");
    if (value < 1) fail(node, key, "expected a positive integer, got " + std::to_string(value));
    return value;
  }

  std::optional<std::string> optional_text(const YAML::Node& node, const std::string& key,
                                           const std::string& what) const {
    if (node.IsNull()) return std::nullopt;
    return scalar<std::string>(node, key, what + " (or null)");
  }

  void require_map(const YAML::Node& node, const std::string& key, const std::string& what) const {
    if (!node.IsMap()) fail(node, key, "expected " + what);
  }
};

std::string dotted(const std::string& where, const std::string& key) {
  return where.empty() ? key : where + "." + key;
}

// "; did you mean 'partition'?" when a known word is close enough to be the intended one.
std::string closest_hint(const std::string& word, const std::vector<std::string>& known) {
  const std::string best = closest_word(word, known);
  return best.empty() ? std::string() : "; did you mean '" + best + "'?";
}

std::string listing(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

void check_keys(const Reader& in, const YAML::Node& map, const std::string& where, Keys known) {
  const std::vector<std::string> names(known.begin(), known.end());
  for (const auto& kv : map) {
    const std::string key = kv.first.Scalar();
    if (std::find(names.begin(), names.end(), key) == names.end())
      in.fail(
          kv.first, dotted(where, key),
          "unknown key" + closest_hint(key, names) + " (expected one of " + listing(names) + ")");
  }
}

// The index of the value of `node` among `choices`.
std::size_t choice(const Reader& in, const YAML::Node& node, const std::string& key,
                   const std::vector<std::string>& choices) {
  const auto value = in.scalar<std::string>(node, key, "one of " + listing(choices));
  const auto it = std::find(choices.begin(), choices.end(), value);
  if (it == choices.end())
    in.fail(node, key,
            "expected one of " + listing(choices) + ", got '" + value + "'" +
                closest_hint(value, choices));
  return static_cast<std::size_t>(it - choices.begin());
}

void parse_gpu(const Reader& in, const YAML::Node& node, SystemFile& sys) {
  in.require_map(node, "gpu", "a map with model and compute_capability");
  check_keys(in, node, "gpu", {"model", "compute_capability"});
  if (!node["model"]) in.fail(node, "gpu.model", "required: the GPU model name");
  if (!node["compute_capability"])
    in.fail(node, "gpu.compute_capability", "required: \"major.minor\", e.g. \"9.0\"");
  sys.gpu_model = in.scalar<std::string>(node["model"], "gpu.model", "a model name");
  const auto& cc = node["compute_capability"];
  const auto text = in.scalar<std::string>(cc, "gpu.compute_capability", "\"major.minor\"");
  char dot = 0;
  std::istringstream parse(text);
  if (!(parse >> sys.cc_major >> dot >> sys.cc_minor) || dot != '.' || !parse.eof() ||
      sys.cc_major < 1 || sys.cc_minor < 0 || sys.cc_minor > 9)
    in.fail(cc, "gpu.compute_capability",
            "expected \"major.minor\" such as \"9.0\", got '" + text + "'");
}

std::vector<topo::NumaNode> parse_numa(const Reader& in, const YAML::Node& node) {
  in.require_map(node, "numa", "a map NUMA node: CPU list, e.g. {0: \"0-55,112-167\"}");
  std::vector<topo::NumaNode> nodes;
  for (const auto& kv : node) {
    const std::string key = "numa." + kv.first.Scalar();
    topo::NumaNode numa;
    numa.id = in.scalar<int>(kv.first, key, "a NUMA node number");
    const auto text = in.scalar<std::string>(kv.second, key, "a CPU list such as 0-55,112-167");
    const auto cpus = topo::parse_cpulist(text);
    if (!cpus || cpus->empty())
      in.fail(kv.second, key, "expected a CPU list such as 0-55,112-167, got '" + text + "'");
    numa.cpus = *cpus;
    nodes.push_back(std::move(numa));
  }
  return nodes;
}

topo::PciePosition parse_position(const Reader& in, const YAML::Node& node, const std::string& key,
                                  const std::set<int>& numa_ids) {
  const char* what = "numa/host-bridge[/switch...], e.g. 0/hb0/sw0";
  const auto text = in.scalar<std::string>(node, key, what);
  const auto position = topo::parse_pcie_position(text);
  if (!position) in.fail(node, key, std::string("expected ") + what + ", got '" + text + "'");
  if (!numa_ids.count(position->numa))
    in.fail(node, key, "NUMA node " + std::to_string(position->numa) + " is not under 'numa'");
  return *position;
}

// `nvlink: {2: [0-3, 0-4], 1: [0-1]}`: bonded link count, then the GPU pairs joined by that many.
void parse_nvlink(const Reader& in, const YAML::Node& node, int gpus, topo::SystemWiring& w) {
  in.require_map(node, "wiring.nvlink", "a map link count: [GPU pairs such as 0-1]");
  for (const auto& kv : node) {
    const std::string key = "wiring.nvlink." + kv.first.Scalar();
    const int links = in.positive(kv.first, key);
    if (!kv.second.IsSequence()) in.fail(kv.second, key, "expected a list of GPU pairs (0-1)");
    for (const auto& pair : kv.second) {
      const auto text = in.scalar<std::string>(pair, key, "a GPU pair such as 0-1");
      topo::NvlinkEdge edge{-1, -1, links};
      char dash = 0;
      std::istringstream parse(text);
      if (!(parse >> edge.a >> dash >> edge.b) || dash != '-' || !parse.eof())
        in.fail(pair, key, "expected a GPU pair such as 0-1, got '" + text + "'");
      if (edge.a < 0 || edge.b < 0 || edge.a >= gpus || edge.b >= gpus)
        in.fail(pair, key, "GPU pair " + text + ": GPUs are 0-" + std::to_string(gpus - 1));
      w.nvlink.push_back(edge);
    }
  }
}

void parse_wiring(const Reader& in, const YAML::Node& node, int gpus, const std::set<int>& numa_ids,
                  SystemFile& sys) {
  in.require_map(node, "wiring", "a map with nvswitch or nvlink, and pcie");
  check_keys(in, node, "wiring", {"nvswitch", "nvlink", "pcie"});
  if (const auto& sw = node["nvswitch"]) {
    in.require_map(sw, "wiring.nvswitch", "a map with links_per_gpu");
    check_keys(in, sw, "wiring.nvswitch", {"links_per_gpu", "domain_nodes"});
    if (!sw["links_per_gpu"]) in.fail(sw, "wiring.nvswitch.links_per_gpu", "required");
    sys.wiring.nvswitch_links = in.positive(sw["links_per_gpu"], "wiring.nvswitch.links_per_gpu");
    if (sw["domain_nodes"])
      sys.nvlink_domain_nodes = in.positive(sw["domain_nodes"], "wiring.nvswitch.domain_nodes");
  }
  if (node["nvlink"]) parse_nvlink(in, node["nvlink"], gpus, sys.wiring);
  const auto& pcie = node["pcie"];
  if (!pcie || !pcie.IsSequence() || static_cast<int>(pcie.size()) != gpus)
    in.fail(pcie ? pcie : node, "wiring.pcie",
            "expected a list of " + std::to_string(gpus) +
                " PCIe positions (numa/host-bridge/switch..., one per GPU)");
  for (std::size_t i = 0; i < pcie.size(); ++i)
    sys.wiring.gpus.push_back(
        parse_position(in, pcie[i], "wiring.pcie[" + std::to_string(i) + "]", numa_ids));
  if (auto problem = topo::wiring_problem(sys.wiring)) in.fail(node, "wiring", *problem);
}

void parse_nics(const Reader& in, const YAML::Node& node, const std::set<int>& numa_ids,
                SystemFile& sys) {
  if (!node.IsSequence()) in.fail(node, "nics", "expected a list of {name, pcie}");
  for (std::size_t i = 0; i < node.size(); ++i) {
    const std::string key = "nics[" + std::to_string(i) + "]";
    in.require_map(node[i], key, "a map with name and pcie");
    check_keys(in, node[i], key, {"name", "pcie"});
    if (!node[i]["name"] || !node[i]["pcie"]) in.fail(node[i], key, "needs name and pcie");
    topo::WiredNic nic;
    nic.name = in.scalar<std::string>(node[i]["name"], key + ".name", "a device name (mlx5_0)");
    nic.pcie = parse_position(in, node[i]["pcie"], key + ".pcie", numa_ids);
    sys.wiring.nics.push_back(std::move(nic));
  }
  if (auto problem = topo::wiring_problem(sys.wiring)) in.fail(node, "nics", *problem);
}

SlurmSettings parse_slurm(const Reader& in, const YAML::Node& node) {
  in.require_map(node, "slurm", "a map of Slurm settings");
  check_keys(in, node, "slurm",
             {"partition", "account", "gpu_request", "exclusive", "cpus_per_task", "launcher",
              "srun_mpi", "modules", "container_image"});
  SlurmSettings s;
  if (node["partition"])
    s.partition = in.optional_text(node["partition"], "slurm.partition", "a partition name");
  if (node["account"])
    s.account = in.optional_text(node["account"], "slurm.account", "an account name");
  if (node["gpu_request"])
    s.gpu_request = choice(in, node["gpu_request"], "slurm.gpu_request", {"gres", "gpus-per-node"})
                        ? GpuRequest::GpusPerNode
                        : GpuRequest::Gres;
  if (node["exclusive"])
    s.exclusive = in.scalar<bool>(node["exclusive"], "slurm.exclusive", "true or false");
  if (node["cpus_per_task"])
    s.cpus_per_task = in.positive(node["cpus_per_task"], "slurm.cpus_per_task");
  if (node["launcher"])
    s.launcher = choice(in, node["launcher"], "slurm.launcher", {"srun", "mpirun"})
                     ? Launcher::Mpirun
                     : Launcher::Srun;
  if (node["srun_mpi"])
    s.srun_mpi = in.scalar<std::string>(node["srun_mpi"], "slurm.srun_mpi", "an srun --mpi type");
  if (const auto& modules = node["modules"]) {
    if (!modules.IsSequence()) in.fail(modules, "slurm.modules", "expected a list of modules");
    for (const auto& m : modules)
      s.modules.push_back(in.scalar<std::string>(m, "slurm.modules", "a module name"));
  }
  if (node["container_image"])
    s.container_image =
        in.optional_text(node["container_image"], "slurm.container_image", "an image");
  return s;
}

std::vector<std::pair<std::string, std::string>> parse_env(const Reader& in,
                                                           const YAML::Node& node) {
  in.require_map(node, "env", "a map NAME: value");
  std::vector<std::pair<std::string, std::string>> env;
  for (const auto& kv : node) {
    const std::string name = kv.first.Scalar();
    const bool valid = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                       std::all_of(name.begin(), name.end(), [](char c) {
                         return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                       });
    if (!valid) in.fail(kv.first, "env." + name, "expected an environment variable name");
    env.emplace_back(name, in.scalar<std::string>(kv.second, "env." + name, "a value"));
  }
  return env;
}

// Keys a probed node (`probe: true`) takes from the machine instead of the file.
constexpr const char* kProbedKeys[] = {"gpus_per_node", "gpu", "numa", "wiring", "nics"};

void parse_node(const Reader& in, const YAML::Node& root, SystemFile& sys) {
  if (root["probe"]) sys.probe = in.scalar<bool>(root["probe"], "probe", "true or false");
  if (sys.probe) {
    for (const char* key : kProbedKeys)
      if (root[key])
        in.fail(root[key], key, "not allowed with probe: true (the node is probed where it runs)");
    return;
  }
  for (const char* key : {"gpus_per_node", "gpu", "numa", "wiring"})
    if (!root[key]) in.fail(root, key, "required (or probe: true)");
  sys.gpus_per_node = in.positive(root["gpus_per_node"], "gpus_per_node");
  parse_gpu(in, root["gpu"], sys);
  sys.wiring.gpu_model = sys.gpu_model;
  sys.wiring.numa_nodes = parse_numa(in, root["numa"]);
  std::set<int> numa_ids;
  for (const auto& n : sys.wiring.numa_nodes) numa_ids.insert(n.id);
  parse_wiring(in, root["wiring"], sys.gpus_per_node, numa_ids, sys);
  if (root["nics"]) parse_nics(in, root["nics"], numa_ids, sys);
}

SystemFile parse(const std::string& text, const std::string& source,
                 const std::optional<std::string>& file_stem) {
  const Reader in{source};
  check_config_limits(text, source);  // before yaml-cpp: size and nesting
  const YAML::Node root = load_yaml(text, source);
  if (!root.IsMap()) in.fail(root, "(top level)", "expected a map with name and gpus_per_node");
  check_keys(in, root, "",
             {"name", "alias_of", "probe", "gpus_per_node", "gpu", "fake_gpus", "max_nodes", "numa",
              "wiring", "nics", "slurm", "env"});
  SystemFile sys;
  sys.source = source;
  if (!root["name"]) in.fail(root, "name", "required: the system's name");
  sys.name = in.scalar<std::string>(root["name"], "name", "a name");
  if (file_stem && sys.name != *file_stem)
    in.fail(root["name"], "name", "expected '" + *file_stem + "', the file's name");
  if (root["alias_of"]) {
    sys.alias_of = in.scalar<std::string>(root["alias_of"], "alias_of", "a system name");
    // A name of this folder's catalogue, never a path that leaves it.
    if (sys.alias_of->empty() || *sys.alias_of == "." || *sys.alias_of == ".." ||
        sys.alias_of->find_first_of("/\\") != std::string::npos)
      in.fail(root["alias_of"], "alias_of",
              "expected a system name (a file of this folder, without .yaml), got '" +
                  *sys.alias_of + "'");
    for (const auto& kv : root)
      if (kv.first.Scalar() != "name" && kv.first.Scalar() != "alias_of")
        in.fail(kv.first, kv.first.Scalar(), "an alias holds only name and alias_of");
    return sys;
  }
  parse_node(in, root, sys);
  if (root["fake_gpus"])
    sys.fake_gpus = in.scalar<bool>(root["fake_gpus"], "fake_gpus", "true or false");
  if (root["max_nodes"]) sys.max_nodes = in.positive(root["max_nodes"], "max_nodes");
  if (root["slurm"]) sys.slurm = parse_slurm(in, root["slurm"]);
  if (root["env"]) sys.env = parse_env(in, root["env"]);
  // NVLink multicast stays off unless a file says otherwise (README.md, "Under mpirun and Slurm").
  const bool has_nvls = std::any_of(sys.env.begin(), sys.env.end(),
                                    [](const auto& kv) { return kv.first == "NCCL_NVLS_ENABLE"; });
  if (!has_nvls) sys.env.emplace_back("NCCL_NVLS_ENABLE", "0");
  return sys;
}

std::string read_text(const std::string& path) {
  return read_config_text(path, "system file");
}

// The system an alias stands for, renamed to the alias; an alias of an alias is refused so that
// a catalogue cannot loop.
SystemFile resolve_alias(SystemFile alias) {
  const auto dir = std::filesystem::path(alias.source).parent_path();
  const std::string target = (dir / (*alias.alias_of + ".yaml")).string();
  if (!std::filesystem::exists(target))
    throw UsageError(alias.source + ": alias_of: no system file " + target);
  SystemFile sys = parse(read_text(target), target, *alias.alias_of);
  if (sys.alias_of)
    throw UsageError(alias.source + ": alias_of: " + target + " is itself an alias");
  sys.alias_of = sys.name;
  sys.name = alias.name;
  sys.source = alias.source;
  return sys;
}

}  // namespace

SystemFile parse_system_text(const std::string& text, const std::string& source) {
  SystemFile sys = parse(text, source, std::nullopt);
  return sys.alias_of ? resolve_alias(std::move(sys)) : sys;
}

SystemFile load_system_file(const std::string& path) {
  const std::string stem = std::filesystem::path(path).stem().string();
  SystemFile sys = parse(read_text(path), path, stem);
  return sys.alias_of ? resolve_alias(std::move(sys)) : sys;
}

}  // namespace gb

// `gpubarrier topo`: the wiring of this machine, or of another one from its `nvidia-smi topo -m`.
#include <iostream>
#include <memory>

#include "app/commands.hpp"
#include "errors/errors.hpp"
#include "topology/json.hpp"
#include "topology/probe.hpp"
#include "topology/smi_parser.hpp"
#include "topology/text.hpp"
#include "topology/text_input.hpp"

namespace gb::cli {
namespace {

struct TopoOptions {
  std::string smi_file;
  bool json = false;
};

void run_topo(const TopoOptions& options, const GlobalOptions& global) {
  const topo::Topology topology =
      options.smi_file.empty()
          ? topo::probe_local()
          : topo::parse_nvidia_smi_topo(topo::read_text_input(options.smi_file, topo::kMaxSmiBytes),
                                        topo::input_name(options.smi_file));
  if (options.json || global.json) {
    // The parser passes only UTF-8 text; a probe's name that is not must not abort the output.
    std::cout << topo::to_json(topology).dump(2, ' ', false,
                                              nlohmann::json::error_handler_t::replace)
              << '\n';
  } else {
    std::cout << topo::to_text(topology);
  }
}

}  // namespace

void add_topo_command(CLI::App& app, GlobalOptions& global) {
  auto options = std::make_shared<TopoOptions>();
  CLI::App* topo = app.add_subcommand(
      "topo", "Show how the GPUs are wired: NVLink, PCIe paths, CPU/NUMA affinity, NVLink groups");
  topo->add_option("--smi-file", options->smi_file,
                   "Read the output of `nvidia-smi topo -m` from this file ('-' for stdin) "
                   "instead of probing this machine; text of at most 1 MiB");
  topo->add_flag("--json", options->json, "Print JSON instead of a table");
  topo->callback([options, &global] { run_topo(*options, global); });
}

}  // namespace gb::cli

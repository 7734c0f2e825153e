#include "jobs/plan.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "core/axis.hpp"
#include "errors/errors.hpp"
#include "jobs/estimate.hpp"
#include "jobs/locate.hpp"
#include "jobs/placement.hpp"
#include "jobs/rank_cores.hpp"
#include "jobs/request_checks.hpp"
#include "jobs/sweep_check.hpp"
#include "jobs/text.hpp"
#include "topology/binding_advice.hpp"
#include "topology/cpulist.hpp"
#include "topology/from_wiring.hpp"
#include "topology/probe.hpp"
#include "topology/subsets.hpp"

namespace gb::jobs {
namespace {

// The GPU counts an entry runs at: `gpu_count: all` or no gpu_count axis means 1..slots, values
// of 0 mean every GPU of the node; --gpu-counts narrows them. Counts beyond the node are left out.
std::vector<int> entry_counts(const SweepEntry& entry, int slots, const std::vector<int>& asked,
                              std::set<int>& beyond) {
  std::vector<long> values;
  for (const auto& spec : entry.axes)
    if (const auto axis = parse_axis(spec); axis.name == kGpuCountAxis) {
      values.clear();
      for (const std::string& v : axis.values) values.push_back(resolve_value({axis.name, {}}, v));
    }
  if (entry.all_gpu_counts || values.empty())
    for (int k = 1; k <= slots; ++k) values.push_back(k);
  std::vector<int> counts;
  for (long v : values) {
    const int k = v == 0 ? slots : static_cast<int>(v);
    if (k > slots) beyond.insert(k);
    if (k < 1 || k > slots) continue;
    if (!asked.empty() && std::find(asked.begin(), asked.end(), k) == asked.end()) continue;
    if (std::find(counts.begin(), counts.end(), k) == counts.end()) counts.push_back(k);
  }
  return counts;
}

// The entry as one step runs it: only `methods`, only the axes they have, and no gpu_count (a
// step's GPUs fix the count: 0, every GPU given, is the default).
SweepEntry step_entry(const SweepEntry& entry, const std::vector<const MethodInfo*>& methods) {
  SweepEntry out;
  std::vector<std::string> names;
  for (const MethodInfo* m : methods) names.push_back(m->name);
  out.methods = join(names, ",");
  for (const auto& spec : entry.axes) {
    const std::string name = parse_axis(spec).name;
    if (name == kGpuCountAxis) continue;
    if (std::any_of(methods.begin(), methods.end(),
                    [&](const MethodInfo* m) { return m->axis(name) != nullptr; }))
      out.axes.push_back(spec);
  }
  return out;
}

// "n1-mpi-g4-best": nodes, mode, count per node and subset. The count is of GPUs (one rank or
// thread each) where the step's processes get GPUs. Where they get none (a node without GPUs, or
// fake gres GPUs) only host methods run and the count is of ranks, "n1-mpi-r2", as their rows
// say (ranks=2, gpu_count=0); a threads step there would be "-t<k>".
std::string step_id(int nodes, Mode mode, int k, std::optional<Subset> subset, bool gpus) {
  const std::string count = gpus ? "g" : mode == Mode::mpi ? "r" : "t";
  return "n" + std::to_string(nodes) + "-" + std::string(to_string(mode)) + "-" + count +
         std::to_string(k) + (subset ? "-" + std::string(name_of(*subset)) : "");
}

struct Planner {
  const JobRequest& req;
  const topo::Topology& topo;
  const SweepFile& sweep;
  const Catalogue& catalogue;
  std::vector<CheckedEntry> entries{};
  std::vector<std::vector<int>> counts{};  // per entry
  int gpus = 0;                            // per node
  int slots = 0;
  Slot base{};
  topo::BindingAdvice binding{};
  std::vector<std::vector<int>> numa{};      // every NUMA node's CPUs (the system file's)
  std::set<int> same_subsets{};              // GPU counts where best == worst
  std::map<std::string, std::string> why{};  // method -> why it was left out (this node count)
  std::set<std::string> placed{};            // methods in some step (this node count)

  std::vector<std::pair<std::optional<Subset>, std::vector<int>>> gpu_sets(int k) {
    if (gpus == 0) return {{std::nullopt, {}}};
    if (req.subsets.empty()) {
      std::vector<int> first;
      for (int g = 0; g < k; ++g) first.push_back(g);
      return {{std::nullopt, first}};
    }
    const topo::SubsetChoice choice = topo::connected_subsets(topo, k);
    std::vector<std::pair<std::optional<Subset>, std::vector<int>>> sets;
    for (const Subset kind : req.subsets) {
      const auto& set = kind == Subset::best ? choice.best : choice.worst;
      const bool seen =
          std::any_of(sets.begin(), sets.end(), [&](const auto& s) { return s.second == set; });
      if (seen)
        same_subsets.insert(k);
      else if (std::none_of(sets.begin(), sets.end(),
                            [&](const auto& s) { return s.first == kind; }))
        sets.emplace_back(kind, set);
    }
    return sets;
  }

  std::string cpus_of(const std::vector<int>& gpu_ids) const {
    std::vector<int> cpus;
    for (int g : gpu_ids) {
      const auto list = topo::parse_cpulist(binding.gpus[g].cpulist);
      if (!list || list->empty()) return "";
      cpus.insert(cpus.end(), list->begin(), list->end());
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return topo::format_cpulist(cpus);
  }

  // The entries of the sweep that run in `slot`; records why the others do not.
  SweepFile step_sweep(const Slot& slot, bool use_counts) {
    SweepFile out;
    out.name = sweep.name;
    out.samples = sweep.samples;
    out.time_budget_s = sweep.time_budget_s;
    out.rse_target = sweep.rse_target;
    out.point_timeout_s = sweep.point_timeout_s;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (use_counts &&
          std::find(counts[i].begin(), counts[i].end(), slot.per_node) == counts[i].end())
        continue;
      std::vector<const MethodInfo*> fit;
      for (const MethodInfo* m : entries[i].methods) {
        const auto reason = why_not(*m, slot);
        if (!reason) {
          fit.push_back(m);
          placed.insert(m->name);
        } else if (!reason->empty() && !why.count(m->name)) {
          why[m->name] = *reason;
        }
      }
      if (!fit.empty()) out.runs.push_back(step_entry(*entries[i].entry, fit));
    }
    return out;
  }

  void add_step(std::vector<Step>& steps, Step step) {
    if (step.sweep.runs.empty()) return;
    step.points = count_points(step.sweep, catalogue);
    step.seconds =
        step_seconds(step.points, count_budgets(step.sweep, catalogue), point_budget_s(sweep));
    steps.push_back(std::move(step));
  }

  std::vector<Step> steps_for(int nodes) {
    why.clear();
    placed.clear();
    std::vector<Step> steps;
    if (nodes == 1) {
      Step single;
      single.id = "n1-single";
      if (gpus > 0) single.gpus = {0};
      single.cpus = {cpus_of(single.gpus)};
      single.sweep = step_sweep(base, false);
      add_step(steps, std::move(single));
    }
    std::set<int> all_counts;
    for (const auto& c : counts) all_counts.insert(c.begin(), c.end());
    for (const Mode mode : {Mode::threads, Mode::mpi}) {
      if (mode == Mode::threads && nodes > 1) continue;
      for (const int k : all_counts) {
        for (const auto& [label, set] : gpu_sets(k)) {
          Slot slot = base;
          slot.nodes = nodes;
          slot.mode = mode;
          slot.per_node = k;
          Step step;
          step.nodes = nodes;
          step.mode = mode;
          step.per_node = k;
          step.subset = label;
          step.gpus = set;
          step.id = step_id(nodes, mode, k, label, base.real_gpus);
          if (mode == Mode::mpi) {
            for (int g : set) step.cpus.push_back(cpus_of({g}));
            // Fake gres GPUs: a test cluster whose nodes may share one machine's CPUs (each
            // node's rank 0 would take the same core), so a rank keeps its GPU's CPUs there.
            if (base.real_gpus) step.cpus = rank_cores(step.cpus, numa);
            if (set.empty()) step.cpus.assign(k, "");
          } else {
            step.cpus = {cpus_of(set)};
          }
          step.sweep = step_sweep(slot, true);
          add_step(steps, std::move(step));
        }
      }
    }
    if (nodes > 1)  // methods that never reached an mpi slot: one process, one node
      for (const auto& e : entries)
        for (const MethodInfo* m : e.methods)
          if (!placed.count(m->name) && !why.count(m->name))
            why[m->name] = m->why_not_across_nodes().value_or("");
    return steps;
  }

  // "left out: a, b (reason); c (reason)", grouping methods by reason.
  std::string left_out() const {
    std::map<std::string, std::vector<std::string>> by_reason;
    for (const auto& [name, reason] : why)
      if (!placed.count(name)) by_reason[reason].push_back(name);
    std::vector<std::string> parts;
    constexpr std::size_t kNamed = 6;  // a long list names a few and counts the rest
    for (auto [reason, names] : by_reason) {
      const std::size_t more = names.size() > kNamed ? names.size() - (kNamed - 1) : 0;
      if (more > 0) names.resize(kNamed - 1);
      parts.push_back(join(names, ", ") + (more ? " and " + std::to_string(more) + " more" : "") +
                      " (" + (reason.empty() ? "no step fits" : reason) + ")");
    }
    return join(parts, "; ");
  }
};

std::vector<int> sorted_unique(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

int node_cpus(const SystemFile& sys) {
  std::set<int> cpus;
  for (const auto& n : sys.wiring.numa_nodes) cpus.insert(n.cpus.begin(), n.cpus.end());
  return static_cast<int>(cpus.size());
}

void group_scripts(Plan& plan, int nodes, std::vector<Step> steps, int gpus) {
  std::vector<std::vector<Step>> groups;
  if (plan.request.one_job_per_point)
    for (auto& s : steps) groups.push_back({std::move(s)});
  else
    groups.push_back(std::move(steps));
  const int cpus = node_cpus(plan.system);
  const int cpus_per_task = plan.system.slurm.cpus_per_task.value_or(1);
  for (auto& group : groups) {
    Script script;
    script.name = plan.request.one_job_per_point ? group.front().id : "n" + std::to_string(nodes);
    script.nodes = nodes;
    script.steps = std::move(group);
    int widest = 0;
    for (const auto& s : script.steps) {
      script.tasks_per_node = std::max(script.tasks_per_node, s.tasks_per_node());
      widest = std::max(widest, static_cast<int>(s.gpus.size()));
    }
    script.gpus_per_node = gpus == 0 ? 0 : plan.exclusive ? gpus : widest;
    script.overcommit = cpus > 0 && script.tasks_per_node * cpus_per_task > cpus;
    script.time_limit_s = plan.request.time_limit_s.value_or(time_limit_s(script.seconds()));
    plan.scripts.push_back(std::move(script));
  }
}

void add_notes(Plan& plan, const Planner& planner, const std::set<int>& beyond) {
  if (plan.system.probe)
    plan.notes.push_back(plan.system.name +
                         ": the node's GPUs, NVLinks and CPUs come from a probe "
                         "of this machine; generate on a node like the ones the jobs run on");
  if (!beyond.empty()) {
    std::vector<int> b(beyond.begin(), beyond.end());
    plan.notes.push_back("GPU counts " + join_ints(b) + " of the sweep are beyond the " +
                         std::to_string(planner.gpus) + " GPUs of a " + plan.system.name +
                         " node: left out");
  }
  if (!planner.same_subsets.empty()) {
    std::vector<int> same(planner.same_subsets.begin(), planner.same_subsets.end());
    plan.notes.push_back("best and worst subsets are the same GPUs for " + join_ints(same) +
                         " GPU(s): one step each");
  }
  if (plan.request.scheduler == Scheduler::slurm && !plan.system.slurm.exclusive && plan.exclusive)
    plan.notes.push_back(
        "--subsets needs whole nodes (Slurm picks which GPUs a smaller request "
        "gets): the scripts ask for --exclusive and every GPU of the node, "
        "although " +
        plan.system.source + " says exclusive: false");
  for (const auto& s : plan.scripts)
    if (s.overcommit && plan.request.scheduler == Scheduler::slurm) {
      plan.notes.push_back("up to " + std::to_string(s.tasks_per_node) + " ranks per node on " +
                           std::to_string(node_cpus(plan.system)) +
                           " CPUs: the scripts "
                           "overcommit (--overcommit), so ranks share CPUs");
      break;
    }
}

}  // namespace

long Script::points() const {
  long total = 0;
  for (const auto& s : steps) total += s.points;
  return total;
}

double Script::seconds() const {
  double total = 0;
  for (const auto& s : steps) total += s.seconds;
  return total;
}

Plan make_plan(const JobRequest& request, const SystemFile& system, const topo::Topology& topology,
               const SweepFile& sweep, const std::string& sweep_path, const Catalogue& catalogue) {
  Plan plan;
  plan.request = request;
  plan.request.out = std::filesystem::absolute(request.out).lexically_normal().string();
  if (plan.request.out.size() > 1 && plan.request.out.back() == '/') plan.request.out.pop_back();
  plan.request.nodes = sorted_unique(request.nodes);
  plan.request.gpu_counts = sorted_unique(request.gpu_counts);
  const int gpus = topology.gpu_count();
  const int slots = gpus > 0 ? gpus : 2;  // ranks per node for host methods where no GPU is
  check_request(plan.request, system, gpus, slots);  // what was asked, before the file's defaults
  if (!plan.request.partition) plan.request.partition = system.slurm.partition;
  if (!plan.request.account) plan.request.account = system.slurm.account;
  if (!plan.request.container_image) plan.request.container_image = system.slurm.container_image;
  plan.system = system;
  plan.topology = topology;
  plan.sweep = sweep;
  plan.sweep_path = sweep_path;
  plan.exclusive = system.slurm.exclusive || !request.subsets.empty();
  plan.time_estimated = !request.time_limit_s;

  Planner planner{plan.request, plan.topology, plan.sweep, catalogue};
  planner.gpus = gpus;
  planner.slots = slots;
  plan.select_gpus = !system.fake_gpus && planner.gpus > 0;
  planner.base.real_gpus = plan.select_gpus;
  planner.base.no_gpu_why = system.fake_gpus ? system.name + " has fake gres GPUs (no devices)"
                                             : system.name + " has no GPU (the probe found none)";
  planner.binding = topo::binding_advice(topology);
  for (const auto& node : system.wiring.numa_nodes) planner.numa.push_back(node.cpus);
  planner.entries = check_sweep(sweep, catalogue);
  std::set<int> beyond;
  for (const auto& e : planner.entries)
    planner.counts.push_back(
        entry_counts(*e.entry, planner.slots, plan.request.gpu_counts, beyond));

  for (const int nodes : plan.request.nodes) {
    std::vector<Step> steps = planner.steps_for(nodes);
    const std::string out = planner.left_out();
    const std::string where = std::to_string(nodes) + " node" + (nodes > 1 ? "s" : "");
    if (steps.empty())
      throw UsageError("nothing of " + sweep_path + " runs on " + where + " of " + system.name +
                       (plan.request.gpu_counts.empty()
                            ? ""
                            : " with --gpu-counts " + join_ints(plan.request.gpu_counts)) +
                       (out.empty() ? "" : ": " + out));
    if (!out.empty()) plan.notes.push_back(where + ": left out " + out);
    group_scripts(plan, nodes, std::move(steps), planner.gpus);
  }
  add_notes(plan, planner, beyond);
  plan.estimate = estimate_explanation(point_budget_s(sweep));
  return plan;
}

Plan make_plan(const JobRequest& request, const Catalogue& catalogue) {
  const SystemFile system = load_system_file(locate_config(request.system, ConfigKind::system));
  const topo::Topology topology =
      system.probe ? topo::probe_local() : topo::topology_from_wiring(system.wiring, system.source);
  const std::string sweep_path = locate_config(request.sweep, ConfigKind::sweep);
  const SweepFile sweep = load_sweep_file(sweep_path);
  return make_plan(request, system, topology, sweep, sweep_path, catalogue);
}

}  // namespace gb::jobs

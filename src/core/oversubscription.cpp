#include "core/oversubscription.hpp"

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "topology/cpulist.hpp"

namespace gb {

void add_reason(std::string& to, const std::string& reason) {
  if (reason.empty() || to.find(reason) != std::string::npos) return;
  to += (to.empty() ? "" : ", ") + reason;
}

std::vector<int> process_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return {};
  std::vector<int> out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

std::string oversubscription(const std::vector<MemberCpus>& processes, std::string_view what) {
  struct Node {
    std::string name;
    int members = 0;
    std::set<int> cpus;
    bool unknown = false;
  };
  std::map<int, Node> nodes;
  for (const MemberCpus& p : processes) {
    Node& n = nodes[p.node];
    n.name = p.node_name;
    n.members += p.members;
    n.cpus.insert(p.cpus.begin(), p.cpus.end());
    n.unknown = n.unknown || p.cpus.empty();
  }
  for (const auto& [index, n] : nodes) {
    const auto cpus = static_cast<int>(n.cpus.size());
    if (n.unknown || n.members <= cpus) continue;
    return "oversubscribed: " + std::to_string(n.members) + " spinning " + std::string(what) +
           " on " + std::to_string(cpus) + (cpus == 1 ? " CPU" : " CPUs") +
           (n.name.empty() ? "" : " of " + n.name);
  }
  return "";
}

std::string oversubscription(const RunContext& ctx, int members, std::string_view what) {
  const std::vector<int> mine = process_cpus();
  if (!(ctx.collective && ctx.launch.under_mpi))
    return oversubscription({{0, "", members, mine}}, what);
  const std::vector<int> counts = ctx.launch.gather(members);
  const std::vector<std::string> lists = gather_strings(ctx.launch, topo::format_cpulist(mine));
  const NodeLayout& layout = ctx.launch.layout;
  std::vector<MemberCpus> processes;
  for (std::size_t r = 0; r < counts.size() && r < lists.size(); ++r) {
    MemberCpus p;
    p.node = r < layout.node.size() ? layout.node[r] : 0;
    p.node_name = r < ctx.env.rank_nodes.size() ? ctx.env.rank_nodes[r] : ctx.env.node;
    p.members = counts[r];
    p.cpus = topo::parse_cpulist(lists[r]).value_or(std::vector<int>{});
    processes.push_back(std::move(p));
  }
  return oversubscription(processes, what);
}

std::string rank_cpus_note(const RunContext& ctx) {
  if (!(ctx.collective && ctx.launch.under_mpi)) return "";
  const std::vector<std::string> lists =
      gather_strings(ctx.launch, topo::format_cpulist(process_cpus()));
  if (lists.empty() || std::any_of(lists.begin(), lists.end(),
                                   [](const std::string& l) { return l.empty(); }))
    return "";
  if (std::all_of(lists.begin(), lists.end(), [&](const std::string& l) { return l == lists[0]; }))
    return "ranks on CPUs " + lists[0] + " each";
  std::string out = "ranks on CPUs ";
  for (std::size_t r = 0; r < lists.size() && r < kRanksNamed; ++r)
    out += (r ? " / " : "") + lists[r];
  if (lists.size() > kRanksNamed)
    out += " and " + std::to_string(lists.size() - kRanksNamed) + " more ranks";
  return out;
}

namespace {

double process_cpu_seconds() {
  timespec t{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return NAN;
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

CpuShare::CpuShare() : cpu_s_(process_cpu_seconds()), wall_s_(wall_seconds()) {}

double CpuShare::of(int members) const {
  const double wall = wall_seconds() - wall_s_;
  const double cpu = process_cpu_seconds() - cpu_s_;
  if (!(wall > 0) || members < 1 || !std::isfinite(cpu)) return 1;
  return cpu / (wall * members);
}

std::string cpu_wait(double share, std::string_view what) {
  if (!(share < kMinCpuShare)) return "";
  char text[160];
  std::snprintf(text, sizeof text, "%s had %.0f%% of a CPU each (other work took the rest)",
                std::string(what).c_str(), 100 * std::max(share, 0.0));
  return text;
}

std::string cpu_wait(const RunContext& ctx, double share, std::string_view what) {
  if (!(ctx.collective && ctx.launch.under_mpi)) return cpu_wait(share, what);
  const std::vector<double> all = ctx.launch.gather(std::vector<double>{share});
  const double lowest = all.empty() ? share : *std::min_element(all.begin(), all.end());
  return cpu_wait(lowest, what);
}

std::string loop_disagreement(double loop_ns, double step_ns) {
  if (!(loop_ns > 0) || !(step_ns > 0)) return "";
  const double ratio = loop_ns / step_ns;
  if (ratio <= kNoisyLoopRatio && ratio >= 1 / kNoisyLoopRatio) return "";
  char text[128];
  std::snprintf(text, sizeof text,
                ratio >= 10 ? "loop_latency %.0fx latency (more than %gx apart: members waited "
                              "for CPUs)"
                            : "loop_latency %.3gx latency (more than %gx apart: members waited "
                              "for CPUs)",
                ratio, kNoisyLoopRatio);
  return text;
}

void check_loop_agreement(std::vector<Measurement>& figures) {
  for (Measurement& loop : figures) {
    if (loop.metric != Metric::loop_latency) continue;
    for (Measurement& step : figures) {
      if (step.metric != Metric::latency || step.unit != loop.unit ||
          step.technique != loop.technique || step.gpus != loop.gpus)
        continue;
      const std::string reason = loop_disagreement(loop.value, step.value);
      add_reason(loop.contention, reason);
      add_reason(step.contention, reason);
    }
  }
}

}  // namespace gb

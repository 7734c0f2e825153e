#include "io/selfcheck_json.hpp"

#include <string>

namespace gb {
namespace {

using selfcheck::code_kib;

nlohmann::json figure(const selfcheck::Figure& f) {
  return {
      {"cycles", f.value}, {"se_cycles", f.se}, {"samples", f.samples}, {"stop", name_of(f.stop)}};
}

nlohmann::json loop_row(const selfcheck::LoopRow& r, const selfcheck::Outcome& o) {
  return {{"repeat_difference", r.difference},
          {"adds_lo", r.adds_lo},
          {"adds_hi", r.adds_hi},
          {"trips_lo", o.base_trips},
          {"trips_hi", r.adds_hi / o.loop_body},
          {"clock_cycles", r.clock.value},
          {"clock", figure(r.clock)},
          {"differential_cycles", r.differential.value},
          {"differential", figure(r.differential)},
          {"differential_sigma_cycles", r.sigma},
          {"sm_clock_mhz", r.clock_hz / 1e6},
          {"deviation", r.deviation},
          {"agreement", std::string(selfcheck::to_string(r.agreement))},
          {"agrees", r.agreement != selfcheck::Agreement::none}};
}

nlohmann::json chain_row(const selfcheck::ChainRow& r) {
  return {{"repeat_difference", r.difference},
          {"adds", r.adds},
          {"code_kib", code_kib(r.adds)},
          {"clock_cycles", r.clock.value},
          {"clock", figure(r.clock)},
          {"fits_icache", r.fits},
          {"differential_cycles", r.differential.value},
          {"differential", figure(r.differential)},
          {"launch_difference_cycles", r.launch.cycles},
          {"launch_difference_se_cycles", r.launch.se}};
}

}  // namespace

nlohmann::json selfcheck_json(const selfcheck::Outcome& o) {
  nlohmann::json out;
  out["gpu"] = o.gpu;
  out["gpu_model"] = o.gpu_model;
  out["sm_clock_mhz"] = o.sm_clock_hz / 1e6;
  out["tolerance"] = o.tolerance;
  out["agree_standard_errors"] = selfcheck::kAgreeSe;
  out["base_adds"] = o.base_adds;
  out["loop_body_adds"] = o.loop_body;
  out["loop_clock_lo"] = figure(o.loop_lo);
  out["rows"] = nlohmann::json::array();
  for (const selfcheck::LoopRow& r : o.loop) out["rows"].push_back(loop_row(r, o));
  out["reference_cycles"] = o.reference.value;
  out["fit_margin"] = selfcheck::kFitMargin;
  out["icache"] = nlohmann::json::array();
  for (const selfcheck::ChainRow& r : o.chains) out["icache"].push_back(chain_row(r));
  const selfcheck::ChainRow* stops = selfcheck::stops_fitting(o);
  out["stops_fitting_at"] = stops ? nlohmann::json{{"adds", stops->adds},
                                                   {"code_kib", code_kib(stops->adds)},
                                                   {"repeat_difference", stops->difference}}
                                  : nlohmann::json(nullptr);
  out["ok"] = selfcheck::passed(o);
  out["verdict"] = selfcheck::verdict(o);
  return out;
}

}  // namespace gb

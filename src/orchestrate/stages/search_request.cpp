#include "kernelagent/orchestrate/stages/search_request.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernelagent/orchestrate/stages/unit_floor.hpp"

namespace kernelagent {

std::vector<std::pair<Config, std::string>> suggested_configs(const FamilyProblem& problem, const KnobSpace& space,
                                                              const std::vector<Config>& valid) {
  std::vector<std::pair<Config, std::string>> out;
  const Config def = space.default_config();
  for (const auto& sug : problem.suggestions()) {
    // The valid configuration that sets the suggested knobs and differs least from the default (the space's
    // order breaks ties); none when no valid configuration sets them.
    const Config* nearest = nearest_setting(valid, def, sug.knobs);
    if (nearest && std::none_of(out.begin(), out.end(), [&](const auto& o) { return o.first == *nearest; }))
      out.emplace_back(*nearest, sug.reason);
  }
  return out;
}

KnobSearchRequest search_request(const OptimizeState& s) {
  const OptimizeOptions& opt = s.opt;
  const Family& family = *s.family;
  const GpuSpec* gpu = s.gpu ? &*s.gpu : nullptr;
  KnobSearchRequest req;
  auto wanted = [&](const Config& c) {
    for (const auto& [knob, values] : opt.only.items())
      if (!c.contains(knob) || std::find(values.begin(), values.end(), c.at(knob)) == values.end()) return false;
    return true;
  };
  for (const auto& c : family.knob_space().enumerate())
    if (wanted(c) && s.recognised->valid(c, gpu, opt.precision)) req.valid.push_back(c);
  req.strategy = opt.search;
  req.seed = opt.seed;
  req.fresh = opt.fresh;
  req.key = {.problem_hash = s.info.problem_hash,
             .device = s.info.device,
             .gpu = s.info.gpu,
             .precision = s.info.precision,
             .versions = s.info.versions,
             .family = family.name(),
             .family_hash = family.source_hash()};
  req.signature = s.trace.signature();
  req.suggested = suggested_configs(*s.recognised, family.knob_space(), req.valid);
  const WorkerTimeouts& deadlines = s.worker.timeouts();
  req.timeout_s = static_cast<double>(std::max(deadlines.compile, deadlines.check).count()) / 1000.0;
  // On the CPU nothing is timed, so one checked candidate is all a search learns unless more are asked for.
  req.limits.max_trials = opt.max_trials > 0 ? opt.max_trials : (gpu || opt.whole_space ? 0 : 1);
  req.limits.plateau = effective_plateau(opt, gpu != nullptr);
  if (const double budget = effective_search_budget(opt, gpu != nullptr); budget > 0) req.limits.budget_s = budget;
  if (!gpu || req.valid.empty()) return req;
  req.bound = floor_of(s.trace, s.dtype, opt.precision, family, req.valid.front(), *gpu).roofline.bound;
  // The target is a fraction of the lowest floor of any valid configuration's unit, so that reaching it
  // means reaching it whatever unit the best runs on.
  double floor_us = std::numeric_limits<double>::infinity();
  for (const auto& c : req.valid)
    floor_us = std::min(floor_us, floor_of(s.trace, s.dtype, opt.precision, family, c, *gpu).roofline.floor_us);
  if (opt.target_fraction > 0 && floor_us > 0 && std::isfinite(floor_us))
    req.limits.target_us = floor_us / opt.target_fraction;
  return req;
}

}  // namespace kernelagent

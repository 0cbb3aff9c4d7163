#include "kernelagent/orchestrate/stages/optimize_stages.hpp"

namespace kernelagent {

std::optional<RunEnd> baselines_stage(OptimizeState& s) {
  // On the CPU nothing is timed, the baselines no more than the candidates.
  if (!s.on_gpu) return std::nullopt;
  // Through the same harness as the candidates, so that the search compares like with like.
  s.progress({.stage = "baselines"});
  Reply base = s.worker.time({"eager", "compile"}, s.opt.search_min_ms, 1, s.opt.graph_below_us);
  s.eager = timing_of(base, "eager");
  s.compiled = timing_of(base, "compile");
  s.record_timing("eager", "baseline", s.eager, s.home_label);
  s.record_timing("compile", "baseline", s.compiled, s.home_label);
  return std::nullopt;
}

}  // namespace kernelagent

#include "kernelagent/measure/baseline_precision.hpp"
#include "kernelagent/orchestrate/stages/optimize_stages.hpp"

namespace kernelagent {

std::vector<std::string> baseline_targets(const OptimizeState& s) {
  std::vector<std::string> targets = {"eager", "compile"};
  if (s.default_differs) targets.insert(targets.end(), {"eager_default", "compile_default"});
  return targets;
}

void keep_baselines(OptimizeState& s, const Reply& reply, const std::string& phase, const std::string& slot) {
  s.eager = timing_of(reply, "eager");
  s.compiled = timing_of(reply, "compile");
  s.record_timing("eager", phase, s.eager, slot);
  s.record_timing("compile", phase, s.compiled, slot);
  if (!s.default_differs) return;
  s.eager_default = timing_of(reply, "eager_default");
  s.compiled_default = timing_of(reply, "compile_default");
  s.record_timing("eager_default", phase, s.eager_default, slot);
  s.record_timing("compile_default", phase, s.compiled_default, slot);
}

std::optional<RunEnd> baselines_stage(OptimizeState& s) {
  // On the CPU nothing is timed, the baselines no more than the candidates.
  if (!s.on_gpu) return std::nullopt;
  // Through the same harness as the candidates, so that the search compares like with like.
  // Under the policy's fp32 settings; PyTorch's defaults beside them where those run the problem's ops
  // differently, with how far the defaults land from the IEEE reference.
  s.default_differs = pytorch_default_differs(
      s.opt.precision, s.worker.hello().value("reference_precision", nlohmann::json()), s.trace.graph, s.dtype);
  s.progress({.stage = "baselines"});
  keep_baselines(s, s.worker.time(baseline_targets(s), s.opt.search_min_ms, 1, s.opt.graph_below_us), "baseline",
                 s.home_label);
  if (s.default_differs) {
    Reply err = s.worker.mode_error("default", s.opt.check_seeds, s.tolerance.atol, s.tolerance.rtol);
    s.default_error = err.ok() ? err.body : nlohmann::json{{"status", err.status}, {"message", err.message}};
    s.default_error.erase("id");
  }
  return std::nullopt;
}

}  // namespace kernelagent

#include "kernelagent/orchestrate/stages/optimize_stages.hpp"

namespace kernelagent {

std::optional<RunEnd> trace_stage(OptimizeState& s) {
  s.progress({.stage = "trace"});
  Reply traced = s.worker.trace();
  if (!traced.ok()) {
    s.begin_run();
    return RunEnd{ExitCode::unsupported, traced.status, "tracing the reference failed: " + traced.message};
  }
  s.trace = TraceResult::from_json(traced.body);
  // The signature is part of the run's key: warm starts look for runs of similar problems by it.
  s.info.problem_signature = s.trace.signature();
  s.begin_run();
  s.result["run_id"] = s.run;
  s.result["history"] = s.history.path().string();
  s.result["problem"]["signature"] = s.trace.signature();
  s.result["problem"]["ops"] = s.trace.graph.targets();
  const auto out_meta = s.trace.graph.meta_of(s.trace.graph.outputs.empty() ? "" : s.trace.graph.outputs.front());
  s.dtype = out_meta ? out_meta->dtype : "float32";
  s.tolerance = tolerance_for(s.dtype, s.opt.precision);
  s.result["dtype"] = s.dtype;
  s.result["tolerance"] = {{"atol", s.tolerance.atol}, {"rtol", s.tolerance.rtol}, {"seeds", s.opt.check_seeds}};
  return std::nullopt;
}

}  // namespace kernelagent

#include <fmt/format.h>

#include "kernelagent/core/status.hpp"
#include "kernelagent/orchestrate/stages/optimize_stages.hpp"

namespace kernelagent {

std::optional<RunEnd> trace_stage(OptimizeState& s) {
  const double limit_s = static_cast<double>(s.worker.timeouts().trace.count()) / 1000.0;
  s.progress({.stage = "trace", .note = fmt::format("at most {:g} s", limit_s)});
  Reply traced = s.worker.trace();
  if (!traced.ok()) {
    s.begin_run();
    // A problem that hangs or ends the worker while it is traced is a bad problem (named in the message); a
    // trace that fails is an operation this tool cannot follow.
    if (traced.status == status::timeout)
      return RunEnd{ExitCode::bad_input, traced.status,
                    traced.message + " (--load-timeout sets how long tracing may take)"};
    if (traced.status == status::crashed || traced.status == status::protocol_error)
      return RunEnd{ExitCode::bad_input, traced.status, traced.message};
    // Reading a tensor's value in Python (float(t), t.item(), `if t.any():`) makes the ops depend on the data;
    // the tracer's own advice (symbolic tracing) is not something a user of this tool can act on.
    if (traced.message.find("_local_scalar_dense") != std::string::npos)
      return RunEnd{ExitCode::unsupported, traced.status,
                    "tracing the reference failed: its forward reads the value of a tensor in Python (float(t), "
                    "t.item(), `if t.any():`, or a library function that does, such as BatchNorm with momentum=None "
                    "or F.gaussian_nll_loss's check of its variance), so which ops run depends on the data and "
                    "there is no one op graph to recognise"};
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

#pragma once
// The stages of one optimize, in the order run_optimize runs them (optimize_run.cpp), one file each under
// src/orchestrate/stages/. Each reads what the stages before it left in the state and adds its own part;
// it returns the run's end when it ends the run (a failure, with its status), nullopt to go on. After the
// last stage the run ends ok.

#include <optional>
#include <string>
#include <vector>

#include "kernelagent/orchestrate/stages/optimize_state.hpp"

namespace kernelagent {

// The output folder made, the problem file read and loaded in the home slot's worker.
std::optional<RunEnd> load_stage(OptimizeState& state);
// The reference traced into aten ops: its dtype, tolerance and compulsory bytes and FLOPs; the history's run
// begins.
std::optional<RunEnd> trace_stage(OptimizeState& state);
// The first family that implements the problem (or the one --family names).
std::optional<RunEnd> choose_family_stage(OptimizeState& state);
// Eager and torch.compile timed with the candidates' harness (on a GPU only), under the policy's fp32
// settings; PyTorch's defaults beside them where they run the problem's ops differently.
std::optional<RunEnd> baselines_stage(OptimizeState& state);
// The baselines a measurement times: eager and compile, and the defaults when they differ.
std::vector<std::string> baseline_targets(const OptimizeState& state);
// Keeps a measurement's baseline timings in the state and records them in the history.
void keep_baselines(OptimizeState& state, const Reply& reply, const std::string& phase, const std::string& slot);
// The family's knob space searched (resumed from the history, warm-started, profiled as the options say):
// every candidate compiled, checked and timed; ends the run when none passed.
std::optional<RunEnd> search_stage(OptimizeState& state);
// The fastest few re-measured interleaved with the baselines on one GPU; their fastest is the winner.
std::optional<RunEnd> finalists_stage(OptimizeState& state);
// kernel.py written from the winner, and its figures, the baselines' and the roofline's put in the result.
std::optional<RunEnd> write_stage(OptimizeState& state);

}  // namespace kernelagent

#pragma once
// What the stages of one optimize share (optimize_stages.hpp): the run's inputs, what each stage found for
// the stages after it, and result.json as it grows. The stages run in order, so a field is read only by
// stages after the one that sets it.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernelagent/core/op_graph.hpp"
#include "kernelagent/explore/worker_executor.hpp"
#include "kernelagent/explore/worker_pool.hpp"
#include "kernelagent/families/family.hpp"
#include "kernelagent/gpu/gpu_spec.hpp"
#include "kernelagent/history/history_store.hpp"
#include "kernelagent/measure/timing.hpp"
#include "kernelagent/measure/tolerance.hpp"
#include "kernelagent/measure/worker_client.hpp"
#include "kernelagent/orchestrate/knob_search.hpp"
#include "kernelagent/orchestrate/optimize_run.hpp"

namespace kernelagent {

// How a run ends: the exit code, result.json's status and, for a failure, the one line to print.
struct RunEnd {
  ExitCode code = ExitCode::ok;
  std::string status;
  std::string message;
};

struct OptimizeState {
  // Reads what the home slot's worker said when it started (device, GPU, versions) and begins result.json
  // with it, so that a run that fails at its first stage still says where it ran.
  OptimizeState(const OptimizeOptions& options, WorkerPool& pool, HistoryStore& history,
                const std::vector<std::unique_ptr<Family>>& families);

  // The run's inputs.
  const OptimizeOptions& opt;
  WorkerPool& pool;
  HistoryStore& history;
  const std::vector<std::unique_ptr<Family>>& families;

  // Fixed when the run begins.
  WorkerClient& worker;           // the home slot's: it loads and traces the problem and times the baselines
  std::string home_label;         // that slot's label
  std::string label;              // the problem's file name, on the progress line
  std::filesystem::path problem;  // absolute
  bool on_gpu = false;
  std::optional<GpuSpec> gpu;  // null on the CPU
  RunInfo info;                // the history's description of the run; load and trace complete it

  // Set by the stages, in order.
  std::int64_t run = 0;            // the history's run, begun once the problem is traced (or failed to load or trace)
  TraceResult trace;               // trace
  std::string dtype;               // trace: the output's, which sets the tolerance and the floor
  Tolerance tolerance;             // trace
  const Family* family = nullptr;  // choose_family
  std::shared_ptr<const FamilyProblem> recognised;  // choose_family: the problem as the family recognised it
  // baselines; the finalists stage replaces them with the final interleaved measurement's.
  Timing eager, compiled;
  // baselines: why PyTorch's defaults run this problem's ops unlike the policy's baselines (nullopt: alike);
  // then, like eager and compiled, those defaults' timings and their error against the IEEE reference.
  std::optional<std::string> default_differs;
  Timing eager_default, compiled_default;
  nlohmann::json default_error;
  std::unique_ptr<WorkerExecutor> executor;  // search: it measured the candidates; finalists rebuilds on it
  KnobSearchOutcome searched;                // search
  std::vector<const SearchTrial*> passed;    // search: the trials of `searched` that passed, in its order
  std::optional<double> search_best_us;      // search: the best search-time median, for the progress line
  const SearchTrial* best = nullptr;         // finalists: the winner
  Timing best_final;                         // finalists: the winner's final figures (none on the CPU)
  std::string finals_on;                     // finalists: the slot that timed them ("" on the CPU)

  nlohmann::json result;  // result.json as it grows (docs/result.md)

  // Reports a stage's progress, named with the problem.
  void progress(ProgressEvent event) const;
  // Begins the history's run under `info` as it stands and keeps its id in `run`.
  void begin_run();
  // Stores one target's timing in the history's run: in which phase ("baseline", "final") and on which slot.
  void record_timing(const std::string& target, const std::string& phase, const Timing& timing,
                     const std::string& slot) const;
};

}  // namespace kernelagent

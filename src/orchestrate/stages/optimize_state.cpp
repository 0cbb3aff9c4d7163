#include "kernelagent/orchestrate/stages/optimize_state.hpp"

namespace kernelagent {

using nlohmann::json;

OptimizeState::OptimizeState(const OptimizeOptions& options, WorkerPool& worker_pool, HistoryStore& history_store,
                             const std::vector<std::unique_ptr<Family>>& all_families)
    : opt(options),
      pool(worker_pool),
      history(history_store),
      families(all_families),
      worker(worker_pool.worker(worker_pool.home())),
      home_label(worker_pool.slot(worker_pool.home()).label),
      label(options.problem.filename().string()),
      problem(std::filesystem::absolute(options.problem)),
      on_gpu(worker.on_gpu()) {
  const json& hello = worker.hello();
  std::string gpu_warning;
  if (on_gpu) gpu = describe_gpu(hello.at("gpu"), &gpu_warning);
  info = {.command = "optimize",
          .problem_path = problem.string(),
          .device = on_gpu ? "cuda" : "cpu",
          .gpu = gpu ? gpu->device_name : "",
          .versions = hello.value("versions", json::object()).dump(),
          .precision = to_string(opt.precision)};
  result = {{"schema", "kernelagent.result/1"},
            {"status", "running"},
            {"problem", {{"path", problem.string()}, {"name", label}}},
            {"device", on_gpu ? "cuda" : "cpu"},
            {"interpreter", hello.value("interpret", false)},
            {"gpu", gpu ? gpu->to_json() : json(nullptr)},
            {"versions", hello.value("versions", json::object())},
            {"precision", to_string(opt.precision)},
            {"reference_precision", hello.value("reference_precision", json(nullptr))}};
  if (!gpu_warning.empty()) result["warnings"].push_back(gpu_warning);
}

void OptimizeState::progress(ProgressEvent event) const {
  event.problem = label;
  if (opt.on_progress) opt.on_progress(event);
}

void OptimizeState::begin_run() { run = history.begin_run(info); }

void OptimizeState::record_timing(const std::string& target, const std::string& phase, const Timing& t,
                                  const std::string& slot) const {
  history.record_measurement(run, {target, phase, t.status, t.median_us, t.p10_us, t.p90_us, t.reps, t.method, slot});
}

}  // namespace kernelagent

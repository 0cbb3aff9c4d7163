#include "kernelagent/orchestrate/optimize_run.hpp"

#include <chrono>

#include "kernelagent/core/error.hpp"
#include "kernelagent/core/output_dir.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/orchestrate/stages/optimize_stages.hpp"

namespace kernelagent {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Stage {
  const char* name;  // as result.json's stages names it
  std::optional<RunEnd> (*run)(OptimizeState&);
};

// The stages of an optimize, in the order they run (optimize_stages.hpp).
// clang-format off
constexpr Stage kStages[] = {
    {"load", load_stage},
    {"trace", trace_stage},
    {"choose_family", choose_family_stage},
    {"baselines", baselines_stage},
    {"search", search_stage},
    {"finalists", finalists_stage},
    {"write", write_stage},
};
// clang-format on

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// result.json's pool: every slot, what it measured, whether it was taken out, and where the finalists were
// timed.
json pool_json(const WorkerPool& pool, const std::string& finals_on) {
  json slots = json::array();
  for (int i = 0; i < pool.size(); ++i) {
    const WorkerSlot& s = pool.slot(i);
    json j = {{"label", s.label}, {"measured", s.measured}, {"retired", s.retired}};
    if (s.retired) j["why"] = s.retired_why;
    slots.push_back(std::move(j));
  }
  return {{"slots", slots}, {"finals_on", finals_on.empty() ? json(nullptr) : json(finals_on)}};
}

// Every run ends here, whichever stage ended it: the result gets the pool's account, the status and the
// wall time, result.json is written (whole, replacing the file at once), and the history's run is finished
// with it (a run that failed keeps what it measured).
OptimizeOutcome end_run(OptimizeState& s, const RunEnd& end, Clock::time_point started) {
  json& result = s.result;
  for (const auto& n : s.pool.notices()) result["warnings"].push_back(n);
  result["pool"] = pool_json(s.pool, s.finals_on);
  result["status"] = end.status;
  if (!end.message.empty()) result["message"] = end.message;
  result["elapsed_s"] = seconds_since(started);
  // result.json first: a history that cannot be written now (locked past the wait) ends the command with
  // its own error, and the folder still says what the run found.
  write_file_atomically(s.opt.out_dir / "result.json", result.dump(2) + "\n");
  if (s.run > 0) s.history.finish_run(s.run, end.status, result);
  ProgressEvent done{.stage = "done", .note = end.status};
  if (result.contains("best") && result.at("best").contains("median_us")) {
    done.best_us = result.at("best").at("median_us").get<double>();
    done.eager_us = s.eager.median_us;
    done.compile_us = s.compiled.median_us;
  }
  s.progress(done);
  return {end.code, std::move(result), end.message};
}

}  // namespace

int effective_plateau(const OptimizeOptions& opt, bool on_gpu) {
  if (opt.plateau >= 0) return opt.plateau;
  return on_gpu && opt.search == "guided" && opt.max_trials == 0 ? kDefaultPlateau : 0;
}

double effective_search_budget(const OptimizeOptions& opt, bool on_gpu) {
  if (opt.search_budget_s >= 0) return opt.search_budget_s;
  return on_gpu && opt.search == "guided" && opt.max_trials == 0 ? kDefaultSearchBudgetS : 0;
}

OptimizeOutcome run_optimize(const OptimizeOptions& opt, WorkerClient& worker, HistoryStore& history,
                             const std::vector<std::unique_ptr<Family>>& families) {
  WorkerPool only(worker);
  return run_optimize(opt, only, history, families);
}

OptimizeOutcome run_optimize(const OptimizeOptions& opt, WorkerPool& pool, HistoryStore& history,
                             const std::vector<std::unique_ptr<Family>>& families) {
  const Clock::time_point started = Clock::now();
  OptimizeState state(opt, pool, history, families);
  // Each stage's wall time goes in the result, the one that ended a failed run included, so a slow run
  // says where its time went.
  state.result["stages"] = json::array();
  for (const Stage& stage : kStages) {
    const Clock::time_point stage_started = Clock::now();
    std::optional<RunEnd> end;
    try {
      end = stage.run(state);
    } catch (const ProblemFailure& e) {  // the problem failed mid-run (its reference, in a check)
      end = RunEnd{e.code(), e.status(), e.what()};
    }
    state.result["stages"].push_back({{"name", stage.name}, {"seconds", seconds_since(stage_started)}});
    if (end) return end_run(state, *end, started);
  }
  return end_run(state, {ExitCode::ok, "ok", ""}, started);
}

}  // namespace kernelagent

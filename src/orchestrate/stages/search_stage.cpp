#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "kernelagent/explore/compile_pool.hpp"
#include "kernelagent/orchestrate/stages/optimize_stages.hpp"
#include "kernelagent/orchestrate/stages/search_profiler.hpp"
#include "kernelagent/orchestrate/stages/search_request.hpp"

namespace kernelagent {

using nlohmann::json;

namespace {

json opt_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// Explore's pool before an exhaustive search on a GPU: every configuration the search will measure (not
// resumed, within the budget) compiled ahead by as many workers as the GPU's memory holds; what it did,
// for result.json's compile_pool.
json compile_ahead_of_search(const OptimizeState& s, const KnobSearchRequest& req, const SearchStart& start) {
  std::vector<Config> ahead;
  const int resumed = static_cast<int>(start.resumed.size());
  for (const auto& c : req.valid) {
    if (req.limits.max_trials > 0 && resumed + static_cast<int>(ahead.size()) >= req.limits.max_trials) break;
    if (std::none_of(start.resumed.begin(), start.resumed.end(),
                     [&](const SearchTrial& t) { return t.candidate.config == c; }))
      ahead.push_back(c);
  }
  const json& gpu = s.worker.hello().at("gpu");
  const int workers = pool_size_for_memory(s.opt.compile_workers, static_cast<double>(s.trace.compulsory_bytes()),
                                           gpu.is_object() ? gpu.value("total_memory_bytes", 0.0) : 0.0);
  const int total = static_cast<int>(ahead.size());
  int done = 0;
  s.progress({.stage = "compile", .trials = total, .note = fmt::format("{} compile workers", workers)});
  auto on_done = [&](const Reply& r) {
    s.progress({.stage = "compile", .trial = ++done, .trials = total, .note = r.status});
  };
  const AheadOutcome pooled = compile_ahead(ahead, *s.executor, s.opt.make_compile_worker, workers, s.problem, on_done);
  return {{"workers", pooled.pool.workers},
          {"candidates", total},
          {"failed", pooled.failed},
          {"elapsed_s", pooled.pool.elapsed_s}};
}

// An earlier run's trial that this run did not take over: which it was, what it said, and why it is measured
// again.
json earlier_json(const MeasureAgain& m) {
  return {{"run_id", m.stored.run_id},
          {"candidate", m.stored.record.name},
          {"status", m.stored.record.status},
          {"why", m.why}};
}

// One entry of result.json's trial_list.
json trial_json(const SearchTrial& t) {
  const CandidateRecord& c = t.candidate;
  json j = {{"candidate", c.name}, {"config", c.config}, {"status", c.status}, {"reason", c.reason}};
  if (!c.message.empty()) j["message"] = c.message;
  if (c.median_us) j["median_us"] = *c.median_us;
  if (!c.measured_on.empty()) j["measured_on"] = c.measured_on;
  if (!c.kernels.empty()) j["kernels"] = c.kernels;
  if (t.resumed_from_run) j["resumed_from"] = {{"run_id", t.resumed_from_run}, {"candidate", t.resumed_from_name}};
  if (t.measured_again) j["measured_again"] = earlier_json(*t.measured_again);
  return j;
}

// result.json's account of the search: every trial with its diagnosis, the profiles (when a profiler was in
// use), the counts by status and how the search went. Returns the counts by status, which the message of a
// search where nothing passed names.
std::map<std::string, int> record_search(OptimizeState& s, const KnobSearchRequest& req, int resumed,
                                         const json& warm_starts, bool profiled) {
  std::map<std::string, int> by_status;
  json not_taken_over = json::array();
  for (const auto& m : s.searched.measure_again) {
    json j = earlier_json(m);
    j["config"] = m.stored.record.config;
    not_taken_over.push_back(std::move(j));
  }
  json trial_list = json::array();
  json profiles = json::array();
  std::map<std::string, json> diagnosis_of;  // by candidate name
  for (const auto& p : s.searched.profiles) {
    json j = {{"candidate", p.candidate}, {"config", p.config}};
    if (p.diagnosis)
      diagnosis_of[p.candidate] = j["diagnosis"] = p.diagnosis->to_json();
    else
      j["error"] = p.error;
    profiles.push_back(std::move(j));
  }
  for (const auto& t : s.searched.trials) {
    by_status[t.candidate.status]++;
    trial_list.push_back(trial_json(t));
    if (auto it = diagnosis_of.find(t.candidate.name); it != diagnosis_of.end())
      trial_list.back()["diagnosis"] = it->second;
  }
  if (profiled) s.result["profiles"] = profiles;
  const std::size_t total = s.searched.trials.size();
  s.result["trials"] = {
      {"total", total}, {"by_status", by_status}, {"space", s.family->knob_space().enumerate().size()}};
  s.result["trial_list"] = trial_list;
  s.result["search"] = {{"strategy", s.searched.strategy},
                        {"stop_reason", s.searched.stop_reason},
                        {"trials_used", total},
                        {"resumed", resumed},
                        {"not_taken_over", not_taken_over},
                        {"space", req.valid.size()},
                        {"budget", req.limits.max_trials > 0 ? json(req.limits.max_trials) : json(nullptr)},
                        {"plateau", req.limits.plateau > 0 ? json(req.limits.plateau) : json(nullptr)},
                        {"target_us", opt_json(req.limits.target_us)},
                        {"budget_s", opt_json(req.limits.budget_s)},
                        {"warm_starts", warm_starts}};
  return by_status;
}

}  // namespace

std::optional<RunEnd> search_stage(OptimizeState& s) {
  const KnobSearchRequest req = search_request(s);
  if (s.opt.target_fraction > 0 && !req.limits.target_us)
    s.result["warnings"].push_back("--target needs the roofline of a known GPU; the search ran without a target");

  // The other slots load the problem too (the home slot has it), at once.
  if (s.pool.size() > 1) {
    s.progress({.stage = "load", .note = fmt::format("{} worker slots", s.pool.size())});
    s.pool.load_others(s.problem.string(), 0, to_string(s.opt.precision));
  }
  s.executor =
      std::make_unique<WorkerExecutor>(s.pool, s.history, s.run, *s.recognised,
                                       CandidateSettings{s.opt.out_dir / "candidates", s.label, s.tolerance,
                                                         s.opt.check_seeds, s.opt.search_min_ms, s.opt.graph_below_us});
  SearchStart start = start_search(req, s.family->knob_space(), *s.executor, s.history, s.run);
  if (s.on_gpu && s.opt.compile_workers > 1 && s.opt.make_compile_worker && req.strategy == "exhaustive")
    s.result["compile_pool"] = compile_ahead_of_search(s, req, start);

  const int space = static_cast<int>(req.valid.size());
  const int resumed = static_cast<int>(start.resumed.size());
  const int planned = std::max(resumed, req.limits.max_trials > 0 ? std::min(req.limits.max_trials, space) : space);
  auto note_best = [&](const SearchTrial& t) {
    if (t.candidate.median_us && t.passed() && (!s.search_best_us || *t.candidate.median_us < *s.search_best_us))
      s.search_best_us = t.candidate.median_us;
  };
  for (const auto& t : start.resumed) note_best(t);
  if (resumed > 0 || !start.measure_again.empty()) {
    std::string note = resumed > 0 ? fmt::format("{} trials resumed from the history", resumed) : "";
    if (const std::size_t n = start.measure_again.size(); n > 0)
      note += fmt::format("{}{} {} of earlier runs to measure again: {}{}", note.empty() ? "" : "; ", n,
                          n == 1 ? "trial" : "trials", start.measure_again.front().why, n > 1 ? "; ..." : "");
    s.progress({.stage = "search",
                .trial = resumed,
                .trials = planned,
                .best_us = s.search_best_us,
                .eager_us = s.eager.median_us,
                .compile_us = s.compiled.median_us,
                .note = note});
  }
  json warm_starts = json::array();
  for (const auto& w : start.warm_starts) warm_starts.push_back({{"run_id", w.run_id}, {"config", w.config}});

  const CandidateProfiler profiler = search_profiler(s);
  auto on_profile = [&](const SearchProfile& p) {
    s.progress({.stage = "profile",
                .best_us = s.search_best_us,
                .note = p.diagnosis
                            ? fmt::format("{}: {}", p.candidate,
                                          p.diagnosis->cause.empty() ? "no bottleneck stands out" : p.diagnosis->cause)
                            : fmt::format("{}: profile failed", p.candidate)});
  };
  auto on_trial = [&](const SearchTrial& t, int n) {
    note_best(t);
    s.progress({.stage = "search",
                .trial = n,
                .trials = planned,
                .best_us = s.search_best_us,
                .eager_us = s.eager.median_us,
                .compile_us = s.compiled.median_us,
                .note = t.measured_again
                            ? fmt::format("{}; measured again: {}", t.candidate.status, t.measured_again->why)
                            : t.candidate.status});
  };
  try {
    // Only the guided search asks for diagnoses (of its beam parents).
    s.searched = run_knob_search(req, s.family->knob_space(), std::move(start), *s.executor, on_trial,
                                 req.strategy == "guided" ? profiler : CandidateProfiler{}, on_profile);
  } catch (const ProblemFailure&) {
    throw;  // the problem's own failure: run_optimize ends the run with its status
  } catch (const HistoryError&) {
    throw;  // the history cannot record (locked past the wait, damaged): the command ends on that
  } catch (const UserError& e) {
    // Every worker slot was taken out of the pool: what was measured is in the history (the same command
    // resumes it); the run ends with the reason.
    return RunEnd{e.code(), "no_worker", e.what()};
  }
  if (profiler && s.opt.profile_all) profile_every_passed(s.searched, profiler, on_profile);

  const std::map<std::string, int> by_status = record_search(s, req, resumed, warm_starts, profiler != nullptr);
  for (const auto& t : s.searched.trials)
    if (t.passed()) s.passed.push_back(&t);
  if (s.passed.empty())
    return RunEnd{ExitCode::no_valid_kernel, "no_valid_kernel",
                  fmt::format("none of the {} candidates passed (statuses: {}); see {}", s.searched.trials.size(),
                              json(by_status).dump(), (s.opt.out_dir / "result.json").string())};
  return std::nullopt;
}

}  // namespace kernelagent

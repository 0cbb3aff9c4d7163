#include "kernelagent/orchestrate/knob_search.hpp"

#include <fmt/format.h>

#include <map>

#include "kernelagent/orchestrate/resume.hpp"

namespace kernelagent {

namespace {

// The cause a candidate's compile shows by itself: "register_spills" where one of its Triton kernels uses
// local memory (compiled for the H200, a 128 x 64 fp32 GEMM tile at 4 warps spilled 304 to 500 bytes a
// thread), else "".
std::string compile_cause(const CandidateRecord& c) {
  for (const auto& k : c.kernels) {
    if (!k.is_object()) continue;
    const auto local = k.find("local_bytes");
    if (local != k.end() && local->is_number() && local->get<double>() > 0) return "register_spills";
  }
  return "";
}

}  // namespace

SearchStart start_search(const KnobSearchRequest& request, const KnobSpace& space, WorkerExecutor& executor,
                         const HistoryStore& history, std::int64_t run) {
  SearchStart start;
  if (request.fresh || request.valid.empty()) return start;
  ResumePlan plan = plan_resume(history, request.key, run, request.valid, request.timeout_s);
  start.measure_again = std::move(plan.measure_again);
  for (const auto& stored : plan.taken_over) {
    SearchTrial t{executor.adopt(stored.record), stored.run_id, stored.record.name};
    // A version-1 database kept no reasons.
    if (t.candidate.reason.empty()) t.candidate.reason = fmt::format("measured by run {}", stored.run_id);
    start.resumed.push_back(std::move(t));
  }
  // Only timed runs have a best worth starting from and moves worth counting, so neither on the CPU.
  if (request.key.device != "cuda") return start;
  const auto runs = history.finished_runs(request.key.family, request.key.gpu, request.key.precision);
  if (start.resumed.empty()) start.warm_starts = warm_starts_for(runs, request.signature, space, request.valid);
  for (const auto& r : runs) {
    std::vector<std::pair<Config, double>> measured;
    for (const auto& c : history.candidates(r.id))
      if (c.status == "ok" && c.median_us) measured.emplace_back(in_space(c.config, space), *c.median_us);
    start.moves.add_run(measured);
  }
  return start;
}

KnobSearchOutcome run_knob_search(const KnobSearchRequest& request, const KnobSpace& space, SearchStart start,
                                  WorkerExecutor& executor,
                                  const std::function<void(const SearchTrial&, int trials)>& on_trial,
                                  const CandidateProfiler& profiler,
                                  const std::function<void(const SearchProfile&)>& on_profile) {
  auto strategy = make_search(request.strategy, request.seed);
  SearchContext ctx;
  ctx.space = &space;
  ctx.valid = request.valid;
  ctx.bound = request.bound;
  for (const auto& t : start.resumed)
    ctx.trials.push_back({t.candidate.config, {t.candidate.status, t.candidate.median_us}, t.candidate.reason});
  // What an earlier run failed to measure for reasons outside the candidate comes first, then what the
  // problem suggests, then warm starts.
  for (const auto& m : start.measure_again) ctx.seeds.emplace_back(m.stored.record.config, "measured again: " + m.why);
  for (const auto& sug : request.suggested) ctx.seeds.push_back(sug);
  for (const auto& w : start.warm_starts) ctx.seeds.emplace_back(w.config, w.reason);
  ctx.moves = &start.moves;

  KnobSearchOutcome out;
  out.strategy = strategy->name();
  out.trials = std::move(start.resumed);
  out.measure_again = start.measure_again;
  std::size_t seen = executor.measured().size();
  // Profile and Diagnose on demand: a configuration's candidate is profiled the first time the strategy
  // asks for its cause (the guided search asks for its parents'), and never again.
  std::map<std::string, std::string> causes;
  if (profiler)
    ctx.cause_of = [&](const Config& c) -> std::string {
      const std::string key = c.dump();
      if (auto it = causes.find(key); it != causes.end()) return it->second;
      const SearchTrial* trial = nullptr;
      for (const auto& t : out.trials)
        if (t.candidate.config == c && t.passed()) trial = &t;
      if (!trial || trial->candidate.source_path.empty()) return causes[key] = "";
      SearchProfile p{trial->candidate.name, c, std::nullopt, ""};
      p.diagnosis = profiler(trial->candidate.name, trial->candidate.source_path, &p.error);
      causes[key] = p.diagnosis ? p.diagnosis->cause : "";
      out.profiles.push_back(p);
      if (on_profile) on_profile(out.profiles.back());
      return causes[key];
    };
  else
    // Without Nsight Compute a parent's cause can still come from its compile: a Triton kernel that uses
    // local memory spills registers (the compile reply's kernels, docs/protocol.md).
    ctx.cause_of = [&](const Config& c) -> std::string {
      for (const auto& t : out.trials)
        if (t.candidate.config == c && t.passed()) return compile_cause(t.candidate);
      return "";
    };
  auto measured = [&](const Trial&) {
    // The executor has recorded the candidates of the batch in the order of its trials.
    out.trials.push_back({executor.measured().at(seen++)});
    for (const auto& m : out.measure_again)
      if (m.stored.record.config == out.trials.back().candidate.config) out.trials.back().measured_again = m;
    if (on_trial) on_trial(out.trials.back(), static_cast<int>(out.trials.size()));
  };
  out.stop_reason = run_search(*strategy, executor, std::move(ctx), request.limits, measured).stop_reason;
  return out;
}

}  // namespace kernelagent

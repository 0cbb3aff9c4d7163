#include "kernelagent/orchestrate/optimize_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "kernelagent/core/hash.hpp"
#include "kernelagent/core/status.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/explore/compile_pool.hpp"
#include "kernelagent/explore/worker_executor.hpp"
#include "kernelagent/gpu/gpu_spec.hpp"
#include "kernelagent/measure/roofline.hpp"
#include "kernelagent/measure/timing.hpp"
#include "kernelagent/orchestrate/knob_search.hpp"

namespace kernelagent {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

MeasurementRecord measurement(const std::string& target, const std::string& phase, const Timing& t,
                              const std::string& measured_on) {
  return {target, phase, t.status, t.median_us, t.p10_us, t.p90_us, t.reps, t.method, measured_on};
}

std::optional<double> ratio(const std::optional<double>& base, const std::optional<double>& mine) {
  if (!base || !mine || *mine <= 0) return std::nullopt;
  return *base / *mine;
}

json opt_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// The floor of the unit a configuration runs its products on (the family's manifest says which knob values
// use the tensor cores): 3xTF32 is three TF32 products on the tensor cores, so its floor is three times a
// TF32 product's, not an fp32 product's on the CUDA cores.
struct UnitFloor {
  Roofline roofline;
  std::string unit;  // "CUDA cores", "TF32 tensor cores", "3xTF32 tensor cores"
};

UnitFloor floor_of(const TraceResult& trace, const std::string& dtype, Precision precision, const Family& family,
                   const Config& config, const GpuSpec& gpu) {
  const ComputeUnit u = family.compute_unit(config, precision);
  return {roofline_for(trace.compulsory_bytes(), trace.flops, dtype, u.tensor_cores, gpu, u.passes), u.label};
}

// What the search step is asked: the configurations the problem, the GPU (null on the CPU) and the
// precision policy allow, in the knob space's order, default first; the strategy and its limits; the
// conditions that decide what is resumed.
KnobSearchRequest search_request(const OptimizeOptions& opt, const FamilyProblem& problem, const TraceResult& trace,
                                 const std::string& dtype, const GpuSpec* gpu, CandidateKey key) {
  const Family& family = problem.family();
  KnobSearchRequest req;
  auto wanted = [&](const Config& c) {
    for (const auto& [knob, values] : opt.only.items())
      if (!c.contains(knob) || std::find(values.begin(), values.end(), c.at(knob)) == values.end()) return false;
    return true;
  };
  for (const auto& c : family.knob_space().enumerate())
    if (wanted(c) && problem.valid(c, gpu, opt.precision)) req.valid.push_back(c);
  req.strategy = opt.search;
  req.seed = opt.seed;
  req.fresh = opt.fresh;
  req.key = std::move(key);
  req.signature = trace.signature();
  // On the CPU nothing is timed, so one checked candidate is all a search learns unless more are asked for.
  req.limits.max_trials = opt.max_trials > 0 ? opt.max_trials : (gpu || opt.whole_space ? 0 : 1);
  req.limits.plateau = effective_plateau(opt, gpu != nullptr);
  if (!gpu || req.valid.empty()) return req;
  req.bound = floor_of(trace, dtype, opt.precision, family, req.valid.front(), *gpu).roofline.bound;
  // The target is a fraction of the lowest floor of any valid configuration's unit, so that reaching it
  // means reaching it whatever unit the best runs on.
  double floor_us = std::numeric_limits<double>::infinity();
  for (const auto& c : req.valid)
    floor_us = std::min(floor_us, floor_of(trace, dtype, opt.precision, family, c, *gpu).roofline.floor_us);
  if (opt.target_fraction > 0 && floor_us > 0 && std::isfinite(floor_us))
    req.limits.target_us = floor_us / opt.target_fraction;
  return req;
}

// One entry of result.json's trial_list.
json trial_json(const SearchTrial& t) {
  const CandidateRecord& c = t.candidate;
  json j = {{"candidate", c.name}, {"config", c.config}, {"status", c.status}, {"reason", c.reason}};
  if (!c.message.empty()) j["message"] = c.message;
  if (c.median_us) j["median_us"] = *c.median_us;
  if (!c.measured_on.empty()) j["measured_on"] = c.measured_on;
  if (t.resumed_from_run) j["resumed_from"] = {{"run_id", t.resumed_from_run}, {"candidate", t.resumed_from_name}};
  return j;
}

// Explore's pool before an exhaustive search on a GPU: every configuration the search will measure (not
// resumed, within the budget) compiled ahead by as many workers as the GPU's memory holds; what it did,
// for result.json's compile_pool.
json compile_pool_step(const OptimizeOptions& opt, const KnobSearchRequest& req, const SearchStart& start,
                       WorkerExecutor& executor, const fs::path& problem, const TraceResult& trace, const json& gpu,
                       const std::function<void(ProgressEvent)>& progress) {
  std::vector<Config> ahead;
  const int resumed = static_cast<int>(start.resumed.size());
  for (const auto& c : req.valid) {
    if (req.limits.max_trials > 0 && resumed + static_cast<int>(ahead.size()) >= req.limits.max_trials) break;
    if (std::none_of(start.resumed.begin(), start.resumed.end(),
                     [&](const SearchTrial& t) { return t.candidate.config == c; }))
      ahead.push_back(c);
  }
  const int workers = pool_size_for_memory(opt.compile_workers, static_cast<double>(trace.compulsory_bytes()),
                                           gpu.is_object() ? gpu.value("total_memory_bytes", 0.0) : 0.0);
  const int total = static_cast<int>(ahead.size());
  int done = 0;
  progress({.stage = "compile", .trials = total, .note = fmt::format("{} compile workers", workers)});
  auto on_done = [&](const Reply& r) {
    progress({.stage = "compile", .trial = ++done, .trials = total, .note = r.status});
  };
  const AheadOutcome pooled = compile_ahead(ahead, executor, opt.make_compile_worker, workers, problem, on_done);
  return {{"workers", pooled.pool.workers},
          {"candidates", total},
          {"failed", pooled.failed},
          {"elapsed_s", pooled.pool.elapsed_s}};
}

// A sweep's profiles: every candidate this run measured that passed and was not profiled by the search,
// in order, so the record holds each configuration's diagnosis for replays.
void profile_every_passed(KnobSearchOutcome& searched, const CandidateProfiler& profiler,
                          const std::function<void(const SearchProfile&)>& on_profile) {
  std::set<std::string> done;
  for (const auto& p : searched.profiles) done.insert(p.candidate);
  for (const auto& t : searched.trials) {
    if (!t.passed() || t.resumed_from_run || done.count(t.candidate.name) || t.candidate.source_path.empty()) continue;
    SearchProfile p{t.candidate.name, t.candidate.config, std::nullopt, ""};
    p.diagnosis = profiler(t.candidate.name, t.candidate.source_path, &p.error);
    searched.profiles.push_back(p);
    if (on_profile) on_profile(searched.profiles.back());
  }
}

}  // namespace

int effective_plateau(const OptimizeOptions& opt, bool on_gpu) {
  if (opt.plateau >= 0) return opt.plateau;
  return on_gpu && opt.search == "guided" && opt.max_trials == 0 ? kDefaultPlateau : 0;
}

OptimizeOutcome run_optimize(const OptimizeOptions& opt, WorkerClient& worker, HistoryStore& history,
                             const std::vector<std::unique_ptr<Family>>& families) {
  WorkerPool only(worker);
  return run_optimize(opt, only, history, families);
}

namespace {
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
}  // namespace

OptimizeOutcome run_optimize(const OptimizeOptions& opt, WorkerPool& pool, HistoryStore& history,
                             const std::vector<std::unique_ptr<Family>>& families) {
  const auto t0 = std::chrono::steady_clock::now();
  WorkerClient& worker = pool.worker(pool.home());
  const std::string home_label = pool.slot(pool.home()).label;
  const std::string label = opt.problem.filename().string();
  auto progress = [&](ProgressEvent e) {
    e.problem = label;
    if (opt.on_progress) opt.on_progress(e);
  };
  OptimizeOutcome outcome;
  json& result = outcome.result;
  const json& hello = worker.hello();
  const bool on_gpu = worker.on_gpu();
  const fs::path problem = fs::absolute(opt.problem);

  std::string gpu_warning;
  std::optional<GpuSpec> gpu;
  if (on_gpu) gpu = describe_gpu(hello.at("gpu"), &gpu_warning);

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
  std::error_code ec;
  fs::create_directories(opt.out_dir / "candidates", ec);
  if (ec) throw UserError(ExitCode::bad_input, fmt::format("cannot create {}: {}", opt.out_dir.string(), ec.message()));

  std::string problem_text;
  try {
    problem_text = read_text_file(problem);
  } catch (const std::exception&) {
    throw UserError(ExitCode::bad_input, fmt::format("cannot read the problem file {}", problem.string()));
  }
  result["problem"]["hash"] = hash_hex(problem_text);

  RunInfo info{"optimize",
               problem.string(),
               hash_hex(problem_text),
               "",
               on_gpu ? "cuda" : "cpu",
               gpu ? gpu->device_name : "",
               hello.value("versions", json::object()).dump(),
               to_string(opt.precision)};

  std::optional<double> eager_final_us, compile_final_us;  // shown on the progress line when done
  std::string finals_on;  // the slot that timed the finalists
  auto finish = [&](ExitCode code, const std::string& status, const std::string& message, std::int64_t run) {
    for (const auto& n : pool.notices()) result["warnings"].push_back(n);
    result["pool"] = pool_json(pool, finals_on);
    outcome.code = code;
    outcome.message = message;
    result["status"] = status;
    if (!message.empty()) result["message"] = message;
    result["elapsed_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (run > 0) history.finish_run(run, status, result);
    write_text_file(opt.out_dir / "result.json", result.dump(2) + "\n");
    ProgressEvent done{.stage = "done", .note = status};
    if (result.contains("best") && result.at("best").contains("median_us")) {
      done.best_us = result.at("best").at("median_us").get<double>();
      done.eager_us = eager_final_us;
      done.compile_us = compile_final_us;
    }
    progress(done);
    return outcome;
  };

  // Load and trace the reference.
  progress({.stage = "load"});
  Reply loaded = worker.load(problem.string(), 0);
  if (!loaded.ok()) {
    std::int64_t run = history.begin_run(info);
    return finish(ExitCode::bad_input, loaded.status, loaded.message.empty() ? loaded.status : loaded.message, run);
  }
  result["problem"]["inputs"] = loaded.body.value("inputs", json::array());
  result["problem"]["outputs"] = loaded.body.value("outputs", json::array());
  progress({.stage = "trace"});
  Reply traced = worker.trace();
  if (!traced.ok()) {
    std::int64_t run = history.begin_run(info);
    return finish(ExitCode::unsupported, traced.status, "tracing the reference failed: " + traced.message, run);
  }
  const TraceResult trace = TraceResult::from_json(traced.body);
  info.problem_signature = trace.signature();
  const std::int64_t run = history.begin_run(info);
  result["run_id"] = run;
  result["history"] = history.path().string();
  result["problem"]["signature"] = trace.signature();
  result["problem"]["ops"] = trace.graph.targets();
  const auto out_meta = trace.graph.meta_of(trace.graph.outputs.empty() ? "" : trace.graph.outputs.front());
  const std::string dtype = out_meta ? out_meta->dtype : "float32";
  const Tolerance tol = tolerance_for(dtype, opt.precision);
  result["dtype"] = dtype;
  result["tolerance"] = {{"atol", tol.atol}, {"rtol", tol.rtol}, {"seeds", opt.check_seeds}};

  // Pick the family: the first, in the manifests' order, whose recogniser takes the problem.
  Recognition chosen;
  std::vector<std::string> reasons;
  for (const auto& f : families) {
    if (!opt.family.empty() && f->name() != opt.family) continue;
    Recognition r = f->recognise(trace);
    if (!r)
      reasons.push_back(f->name() + ": " + r.why_not);
    else if (!chosen)
      chosen = std::move(r);
  }
  if (!chosen && !opt.family.empty() && reasons.empty())
    return finish(ExitCode::bad_input, "bad_input", fmt::format("there is no kernel family named '{}'", opt.family),
                  run);
  if (!chosen)
    return finish(ExitCode::unsupported, std::string(status::unsupported),
                  fmt::format("no kernel family implements this problem (ops: {}). {}",
                              fmt::join(trace.graph.targets(), ", "), fmt::join(reasons, "; ")),
                  run);
  const FamilyProblem& recognised = *chosen.problem;
  const Family* family = &recognised.family();
  result["family"] = family->name();
  result["family_hash"] = family->source_hash();

  // Baselines, through the same harness as the candidates.
  Timing eager, compiled;
  if (on_gpu) {
    progress({.stage = "baselines"});
    Reply base = worker.time({"eager", "compile"}, opt.search_min_ms, 1, opt.graph_below_us);
    eager = timing_of(base, "eager");
    compiled = timing_of(base, "compile");
    history.record_measurement(run, measurement("eager", "baseline", eager, home_label));
    history.record_measurement(run, measurement("compile", "baseline", compiled, home_label));
  }

  const KnobSearchRequest req = search_request(
      opt, recognised, trace, dtype, gpu ? &*gpu : nullptr,
      {info.problem_hash, info.device, info.gpu, info.precision, info.versions, family->name(), family->source_hash()});
  if (opt.target_fraction > 0 && !req.limits.target_us)
    result["warnings"].push_back("--target needs the roofline of a known GPU; the search ran without a target");

  // The other slots load the problem too (the home slot has it), at once.
  if (pool.size() > 1) {
    progress({.stage = "load", .note = fmt::format("{} worker slots", pool.size())});
    pool.load_others(problem.string(), 0);
  }
  WorkerExecutor executor(
      pool, history, run, recognised,
      {opt.out_dir / "candidates", label, tol, opt.check_seeds, opt.search_min_ms, opt.graph_below_us});
  SearchStart start = start_search(req, family->knob_space(), executor, history, run);
  if (on_gpu && opt.compile_workers > 1 && opt.make_compile_worker && req.strategy == "exhaustive")
    result["compile_pool"] = compile_pool_step(opt, req, start, executor, problem, trace, hello.at("gpu"), progress);
  const int space = static_cast<int>(req.valid.size());
  const int resumed = static_cast<int>(start.resumed.size());
  const int planned = std::max(resumed, req.limits.max_trials > 0 ? std::min(req.limits.max_trials, space) : space);
  std::optional<double> best_us;
  auto note_best = [&](const SearchTrial& t) {
    if (t.candidate.median_us && t.passed() && (!best_us || *t.candidate.median_us < *best_us))
      best_us = t.candidate.median_us;
  };
  for (const auto& t : start.resumed) note_best(t);
  if (resumed > 0)
    progress({.stage = "search",
              .trial = resumed,
              .trials = planned,
              .best_us = best_us,
              .eager_us = eager.median_us,
              .compile_us = compiled.median_us,
              .note = fmt::format("{} trials resumed from the history", resumed)});
  json warm_starts = json::array();
  for (const auto& w : start.warm_starts) warm_starts.push_back({{"run_id", w.run_id}, {"config", w.config}});
  CandidateProfiler profiler;
  if (on_gpu && gpu && opt.make_profiler) {
    ProblemFacts facts;
    facts.compulsory_bytes = static_cast<double>(trace.compulsory_bytes());
    if (trace.flops > 0) facts.flops = static_cast<double>(trace.flops);
    facts.matrix_product = family->fact("matrix_product");
    // The profiled process loads the problem on the GPU the workers hold: their allocators' cached memory
    // goes back to the driver first (a 6 GiB softmax's timings had left 132.6 GiB of 139.8 cached).
    profiler = [&executor, inner = opt.make_profiler(facts, *gpu)](const std::string& name,
                                                                  const std::filesystem::path& kernel,
                                                                  std::string* error) {
      executor.release_memory();
      return inner(name, kernel, error);
    };
  }
  auto on_profile = [&](const SearchProfile& p) {
    progress({.stage = "profile",
              .best_us = best_us,
              .note = p.diagnosis ? fmt::format("{}: {}", p.candidate, p.diagnosis->cause.empty() ? "no bottleneck stands out"
                                                                                                   : p.diagnosis->cause)
                                  : fmt::format("{}: profile failed", p.candidate)});
  };
  KnobSearchOutcome searched;
  try {
    searched = run_knob_search(
      req, family->knob_space(), std::move(start), executor,
      [&](const SearchTrial& t, int n) {
        note_best(t);
        progress({.stage = "search",
                  .trial = n,
                  .trials = planned,
                  .best_us = best_us,
                  .eager_us = eager.median_us,
                  .compile_us = compiled.median_us,
                  .note = t.candidate.status});
      },
      req.strategy == "guided" ? profiler : CandidateProfiler{}, on_profile);
  } catch (const UserError& e) {
    // Every worker slot was taken out of the pool: what was measured is in the history (the same command
    // resumes it); the run ends with the reason.
    return finish(e.code(), "no_worker", e.what(), run);
  }
  if (profiler && opt.profile_all) profile_every_passed(searched, profiler, on_profile);

  std::map<std::string, int> by_status;
  json trial_list = json::array();
  json profiles = json::array();
  std::map<std::string, json> diagnosis_of;  // by candidate name
  for (const auto& p : searched.profiles) {
    json j = {{"candidate", p.candidate}, {"config", p.config}};
    if (p.diagnosis) diagnosis_of[p.candidate] = j["diagnosis"] = p.diagnosis->to_json();
    else j["error"] = p.error;
    profiles.push_back(std::move(j));
  }
  for (const auto& t : searched.trials) {
    by_status[t.candidate.status]++;
    trial_list.push_back(trial_json(t));
    if (auto it = diagnosis_of.find(t.candidate.name); it != diagnosis_of.end()) trial_list.back()["diagnosis"] = it->second;
  }
  if (profiler) result["profiles"] = profiles;
  const std::size_t total = searched.trials.size();
  result["trials"] = {{"total", total}, {"by_status", by_status}, {"space", family->knob_space().enumerate().size()}};
  result["trial_list"] = trial_list;
  result["search"] = {{"strategy", searched.strategy},
                      {"stop_reason", searched.stop_reason},
                      {"trials_used", total},
                      {"resumed", resumed},
                      {"space", space},
                      {"budget", req.limits.max_trials > 0 ? json(req.limits.max_trials) : json(nullptr)},
                      {"plateau", req.limits.plateau > 0 ? json(req.limits.plateau) : json(nullptr)},
                      {"target_us", opt_json(req.limits.target_us)},
                      {"warm_starts", warm_starts}};

  std::vector<const SearchTrial*> passed;
  for (const auto& t : searched.trials)
    if (t.passed()) passed.push_back(&t);
  if (passed.empty())
    return finish(ExitCode::no_valid_kernel, "no_valid_kernel",
                  fmt::format("none of the {} candidates passed (statuses: {}); see {}", total, json(by_status).dump(),
                              (opt.out_dir / "result.json").string()),
                  run);

  // Finalists: the fastest few, re-measured interleaved with the baselines; only these numbers are reported.
  // A finalist resumed from an earlier run is compiled and checked again here first, so its stored search
  // time only ranks it and is never what is reported.
  const SearchTrial* best = passed.front();
  Timing best_final;
  if (on_gpu) {
    auto search_us = [](const SearchTrial* t) {
      return t->candidate.median_us.value_or(std::numeric_limits<double>::infinity());
    };
    std::stable_sort(passed.begin(), passed.end(),
                     [&](const SearchTrial* a, const SearchTrial* b) { return search_us(a) < search_us(b); });
    std::vector<std::string> targets = {"eager", "compile"};
    std::vector<const SearchTrial*> finalists;
    // The finalists are timed together on one GPU, the home slot's, so that their numbers compare: one that
    // another slot measured (or an earlier run) is compiled and checked there first.
    WorkerClient& final_worker = executor.home_worker();
    finals_on = executor.home_label();
    for (const SearchTrial* t : passed) {
      if (static_cast<int>(finalists.size()) >= opt.finalists) break;
      if (t->resumed_from_run || t->candidate.measured_on != finals_on) {
        Reply rebuilt = executor.rebuild(t->candidate);
        if (!rebuilt.ok()) {
          result["warnings"].push_back(
              t->resumed_from_run
                  ? fmt::format("{} (resumed from run {}) failed when rebuilt: {} {}", t->candidate.name,
                                t->resumed_from_run, rebuilt.status, rebuilt.message)
                  : fmt::format("{} (measured on {}) failed when rebuilt on {}: {} {}", t->candidate.name,
                                t->candidate.measured_on, finals_on, rebuilt.status, rebuilt.message));
          continue;
        }
      }
      finalists.push_back(t);
      targets.push_back(t->candidate.name);
    }
    progress({.stage = "final", .best_us = best_us, .eager_us = eager.median_us, .compile_us = compiled.median_us});
    Reply fin = final_worker.time(targets, opt.final_min_ms, opt.final_rounds, opt.graph_below_us);
    eager = timing_of(fin, "eager");
    compiled = timing_of(fin, "compile");
    history.record_measurement(run, measurement("eager", "final", eager, finals_on));
    history.record_measurement(run, measurement("compile", "final", compiled, finals_on));
    std::optional<double> fastest;
    for (const SearchTrial* f : finalists) {
      Timing t = timing_of(fin, f->candidate.name);
      history.record_measurement(run, measurement(f->candidate.name, "final", t, finals_on));
      if (t.median_us && (!fastest || *t.median_us < *fastest)) {
        fastest = t.median_us;
        best_final = t;
        best = f;
      }
    }
    if (!fastest)
      return finish(ExitCode::no_valid_kernel, "no_valid_kernel",
                    "every finalist failed its final measurement: " + fin.message, run);
    result["timing"] = {{"harness", "one process; L2 flushed before every repetition; CUDA events; median"},
                        {"search_min_ms", opt.search_min_ms},
                        {"final_min_ms", opt.final_min_ms},
                        {"final_rounds", opt.final_rounds},
                        {"interleaved", true},
                        {"graph_below_us", opt.graph_below_us},
                        {"finalists", std::vector<std::string>(targets.begin() + 2, targets.end())}};
  } else {
    result["timing"] = nullptr;
    result["note"] = "no CUDA GPU: the kernel ran on Triton's interpreter; correctness was checked, nothing was timed";
  }

  // Write the winner.
  const fs::path kernel_path = opt.out_dir / "kernel.py";
  fs::copy_file(best->candidate.source_path, kernel_path, fs::copy_options::overwrite_existing, ec);
  result["kernel_path"] = fs::absolute(kernel_path).string();
  json best_json = {{"candidate", best->candidate.name},
                    {"family", best->candidate.family},
                    {"config", best->candidate.config},
                    {"max_abs_err", opt_json(best->candidate.max_abs_err)}};
  if (best_final.median_us) {
    best_json["median_us"] = *best_final.median_us;
    best_json["p10_us"] = *best_final.p10_us;
    best_json["p90_us"] = *best_final.p90_us;
    best_json["method"] = best_final.method;
    best_json["measured_on"] = finals_on;
  }
  result["best"] = best_json;
  result["baselines"] = {{"eager", eager.to_json()}, {"compile", compiled.to_json()}};
  result["speedup"] = {{"vs_eager", opt_json(ratio(eager.median_us, best_final.median_us))},
                       {"vs_compile", opt_json(ratio(compiled.median_us, best_final.median_us))}};
  json roof = {{"bytes", trace.compulsory_bytes()}, {"flops", trace.flops}};
  if (gpu) {
    const UnitFloor floor = floor_of(trace, dtype, opt.precision, *family, best->candidate.config, *gpu);
    const Roofline& rl = floor.roofline;
    roof["compute_unit"] = floor.unit;
    roof["floor_us"] = rl.floor_us;
    roof["bound"] = rl.bound;
    roof["peak_bytes_per_s"] = gpu->dram_bytes_per_s;
    if (best_final.median_us) {
      roof["fraction"] = opt_json(rl.fraction(*best_final.median_us));
      roof["achieved_bytes_per_s"] = rl.bandwidth_bytes_per_s(*best_final.median_us);
      if (eager.median_us) roof["eager_fraction"] = opt_json(rl.fraction(*eager.median_us));
      if (compiled.median_us) roof["compile_fraction"] = opt_json(rl.fraction(*compiled.median_us));
    }
  }
  result["roofline"] = roof;
  eager_final_us = eager.median_us;
  compile_final_us = compiled.median_us;
  return finish(ExitCode::ok, "ok", "", run);
}

}  // namespace kernelagent

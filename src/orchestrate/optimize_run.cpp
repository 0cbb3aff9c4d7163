#include "kernelagent/orchestrate/optimize_run.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "kernelagent/core/hash.hpp"
#include "kernelagent/core/status.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/gpu/gpu_spec.hpp"
#include "kernelagent/measure/roofline.hpp"

namespace kernelagent {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Timing {
  std::string status = "not_run";
  std::string message;
  std::optional<double> median_us, p10_us, p90_us;
  int reps = 0;
  std::string method;

  json to_json() const {
    json j = {{"status", status}};
    if (!message.empty()) j["message"] = message;
    if (median_us) j["median_us"] = *median_us, j["p10_us"] = *p10_us, j["p90_us"] = *p90_us;
    if (reps) j["reps"] = reps, j["method"] = method;
    return j;
  }
};

// The timing of one target out of a `time` reply; a failed request gives every target its status.
Timing timing_of(const Reply& reply, const std::string& target) {
  Timing t;
  if (!reply.ok()) {
    t.status = reply.status;
    t.message = reply.message;
    return t;
  }
  const json r = reply.body.at("results").value(target, json::object());
  t.status = r.value("status", std::string(status::protocol_error));
  t.message = r.value("message", std::string());
  if (t.status == status::ok) {
    t.median_us = r.at("median_us").get<double>();
    t.p10_us = r.value("p10_us", *t.median_us);
    t.p90_us = r.value("p90_us", *t.median_us);
    t.reps = r.value("reps", 0);
    t.method = r.value("method", std::string());
  }
  return t;
}

MeasurementRecord measurement(const std::string& target, const std::string& phase, const Timing& t) {
  return {target, phase, t.status, t.median_us, t.p10_us, t.p90_us, t.reps, t.method};
}

std::optional<double> ratio(const std::optional<double>& base, const std::optional<double>& mine) {
  if (!base || !mine || *mine <= 0) return std::nullopt;
  return *base / *mine;
}

json opt_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw UserError(ExitCode::bad_input, "cannot write " + path.string());
  out << text;
}

struct Candidate {
  CandidateRecord record;
  bool checked_ok = false;
};

}  // namespace

OptimizeOutcome run_optimize(const OptimizeOptions& opt, WorkerClient& worker, HistoryStore& history,
                             const std::vector<std::unique_ptr<Family>>& families) {
  const auto t0 = std::chrono::steady_clock::now();
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
            {"precision", to_string(opt.precision)}};
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

  RunInfo info{"optimize", problem.string(), hash_hex(problem_text), "", on_gpu ? "cuda" : "cpu",
               gpu ? gpu->device_name : "", hello.value("versions", json::object()).dump(), to_string(opt.precision)};

  std::optional<double> eager_final_us, compile_final_us;  // shown on the progress line when done
  auto finish = [&](ExitCode code, const std::string& status, const std::string& message, std::int64_t run) {
    outcome.code = code;
    outcome.message = message;
    result["status"] = status;
    if (!message.empty()) result["message"] = message;
    result["elapsed_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (run > 0) history.finish_run(run, status, result);
    write_file(opt.out_dir / "result.json", result.dump(2) + "\n");
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

  // Pick the family.
  const Family* family = nullptr;
  std::vector<std::string> reasons;
  for (const auto& f : families) {
    if (!opt.family.empty() && f->name() != opt.family) continue;
    if (auto why = f->why_not(trace)) reasons.push_back(f->name() + ": " + *why);
    else if (!family) family = f.get();
  }
  if (!family && !opt.family.empty() && reasons.empty())
    return finish(ExitCode::bad_input, "bad_input", fmt::format("there is no kernel family named '{}'", opt.family), run);
  if (!family)
    return finish(ExitCode::unsupported, std::string(status::unsupported),
                  fmt::format("no kernel family implements this problem (ops: {}). {}",
                              fmt::join(trace.graph.targets(), ", "), fmt::join(reasons, "; ")),
                  run);
  result["family"] = family->name();
  result["family_hash"] = family->source_hash();

  // Baselines, through the same harness as the candidates.
  Timing eager, compiled;
  if (on_gpu) {
    progress({.stage = "baselines"});
    Reply base = worker.time({"eager", "compile"}, opt.search_min_ms, 1, opt.graph_below_us);
    eager = timing_of(base, "eager");
    compiled = timing_of(base, "compile");
    history.record_measurement(run, measurement("eager", "baseline", eager));
    history.record_measurement(run, measurement("compile", "baseline", compiled));
  }

  // The search: the knob space in order, default first, invalid configurations pruned.
  std::vector<Config> configs;
  for (const auto& c : family->knob_space().enumerate())
    if (family->valid(c, trace, gpu ? &*gpu : nullptr, opt.precision)) configs.push_back(c);
  const int budget = opt.max_trials > 0 ? opt.max_trials
                                        : (on_gpu || opt.exhaustive ? static_cast<int>(configs.size()) : 1);
  if (static_cast<int>(configs.size()) > budget) configs.resize(static_cast<std::size_t>(budget));

  std::vector<Candidate> candidates;
  std::map<std::string, int> by_status;
  std::optional<double> best_us;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    Candidate cand;
    CandidateRecord& rec = cand.record;
    rec.name = fmt::format("c{}", i);
    rec.family = family->name();
    rec.family_hash = family->source_hash();
    rec.config = configs[i];
    const fs::path src = fs::absolute(opt.out_dir / "candidates" / (rec.name + ".py"));
    rec.source_path = src.string();
    write_file(src, family->emit(trace, configs[i], {label}));

    Reply r = worker.compile(rec.name, src.string());
    rec.compile_ms = r.body.is_object() ? r.body.value("compile_ms", 0.0) : 0.0;
    if (r.ok()) {
      r = worker.check(rec.name, opt.check_seeds, tol.atol, tol.rtol);
      if (r.body.contains("max_abs_err") && r.body.at("max_abs_err").is_number())
        rec.max_abs_err = r.body.at("max_abs_err").get<double>();
    }
    if (r.ok() && on_gpu) {
      Timing t = timing_of(worker.time({rec.name}, opt.search_min_ms, 1, opt.graph_below_us), rec.name);
      r.status = t.status;
      r.message = t.message;
      rec.median_us = t.median_us, rec.p10_us = t.p10_us, rec.p90_us = t.p90_us;
      rec.reps = t.reps, rec.method = t.method;
    }
    rec.status = r.status;
    rec.message = r.message;
    cand.checked_ok = r.ok();
    by_status[rec.status]++;
    history.record_candidate(run, rec);
    if (rec.median_us && (!best_us || *rec.median_us < *best_us)) best_us = rec.median_us;
    progress({.stage = "search",
              .trial = static_cast<int>(i) + 1,
              .trials = static_cast<int>(configs.size()),
              .best_us = best_us,
              .eager_us = eager.median_us,
              .compile_us = compiled.median_us,
              .note = rec.status});
    candidates.push_back(std::move(cand));
  }
  result["trials"] = {{"total", candidates.size()}, {"by_status", by_status}, {"space", family->knob_space().enumerate().size()}};
  json trial_list = json::array();
  for (const auto& c : candidates) {
    json t = {{"candidate", c.record.name}, {"config", c.record.config}, {"status", c.record.status}};
    if (!c.record.message.empty()) t["message"] = c.record.message;
    if (c.record.median_us) t["median_us"] = *c.record.median_us;
    trial_list.push_back(std::move(t));
  }
  result["trial_list"] = trial_list;

  std::vector<const Candidate*> passed;
  for (const auto& c : candidates)
    if (c.checked_ok) passed.push_back(&c);
  if (passed.empty())
    return finish(ExitCode::no_valid_kernel, "no_valid_kernel",
                  fmt::format("none of the {} candidates passed (statuses: {}); see {}", candidates.size(),
                              json(by_status).dump(), (opt.out_dir / "result.json").string()),
                  run);

  // Finalists: the fastest few, re-measured interleaved with the baselines; only these numbers are reported.
  const Candidate* best = passed.front();
  Timing best_final;
  if (on_gpu) {
    std::sort(passed.begin(), passed.end(),
              [](const Candidate* a, const Candidate* b) { return *a->record.median_us < *b->record.median_us; });
    std::vector<std::string> targets = {"eager", "compile"};
    for (std::size_t i = 0; i < passed.size() && static_cast<int>(i) < opt.finalists; ++i)
      targets.push_back(passed[i]->record.name);
    progress({.stage = "final", .best_us = best_us, .eager_us = eager.median_us, .compile_us = compiled.median_us});
    Reply fin = worker.time(targets, opt.final_min_ms, opt.final_rounds, opt.graph_below_us);
    eager = timing_of(fin, "eager");
    compiled = timing_of(fin, "compile");
    history.record_measurement(run, measurement("eager", "final", eager));
    history.record_measurement(run, measurement("compile", "final", compiled));
    std::optional<double> fastest;
    for (std::size_t i = 2; i < targets.size(); ++i) {
      Timing t = timing_of(fin, targets[i]);
      history.record_measurement(run, measurement(targets[i], "final", t));
      if (t.median_us && (!fastest || *t.median_us < *fastest)) {
        fastest = t.median_us;
        best_final = t;
        best = *std::find_if(passed.begin(), passed.end(),
                             [&](const Candidate* c) { return c->record.name == targets[i]; });
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
  fs::copy_file(best->record.source_path, kernel_path, fs::copy_options::overwrite_existing, ec);
  result["kernel_path"] = fs::absolute(kernel_path).string();
  json best_json = {{"candidate", best->record.name},
                    {"family", best->record.family},
                    {"config", best->record.config},
                    {"max_abs_err", opt_json(best->record.max_abs_err)}};
  if (best_final.median_us) {
    best_json["median_us"] = *best_final.median_us;
    best_json["p10_us"] = *best_final.p10_us;
    best_json["p90_us"] = *best_final.p90_us;
    best_json["method"] = best_final.method;
  }
  result["best"] = best_json;
  result["baselines"] = {{"eager", eager.to_json()}, {"compile", compiled.to_json()}};
  result["speedup"] = {{"vs_eager", opt_json(ratio(eager.median_us, best_final.median_us))},
                       {"vs_compile", opt_json(ratio(compiled.median_us, best_final.median_us))}};
  json roof = {{"bytes", trace.compulsory_bytes()}, {"flops", trace.flops}};
  if (gpu) {
    // The floor of the unit the winner runs on: 3xTF32 is three TF32 products on the tensor cores, so its
    // floor is three times a TF32 product's, not an fp32 product's on the CUDA cores.
    const std::string ip = best->record.config.is_object() ? best->record.config.value("input_precision", "") : "";
    const bool tensor = opt.precision == Precision::tf32 || ip == "tf32" || ip == "tf32x3";
    Roofline rl = roofline_for(trace.compulsory_bytes(), trace.flops, dtype, tensor, *gpu, ip == "tf32x3" ? 3 : 1);
    roof["compute_unit"] = ip == "tf32x3" ? "3xTF32 tensor cores" : (tensor ? "TF32 tensor cores" : "CUDA cores");
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

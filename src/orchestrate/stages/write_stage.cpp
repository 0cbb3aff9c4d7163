#include "kernelagent/core/output_dir.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/measure/baseline_precision.hpp"
#include "kernelagent/orchestrate/stages/optimize_stages.hpp"
#include "kernelagent/orchestrate/stages/unit_floor.hpp"

namespace kernelagent {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json opt_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::optional<double> ratio(const std::optional<double>& base, const std::optional<double>& mine) {
  if (!base || !mine || *mine <= 0) return std::nullopt;
  return *base / *mine;
}

// result.json's roofline: the problem's compulsory work, and on a known GPU the floor of the unit the winner
// runs its products on, with the fractions of it the final times reach.
json roofline_json(const OptimizeState& s) {
  json roof = {{"bytes", s.trace.compulsory_bytes()}, {"input_bytes", s.trace.input_bytes}, {"flops", s.trace.flops}};
  if (!s.gpu) return roof;
  const UnitFloor floor = floor_of(s.trace, s.dtype, s.opt.precision, *s.family, s.best->candidate.config, *s.gpu);
  const Roofline& rl = floor.roofline;
  roof["compute_unit"] = floor.unit;
  roof["floor_us"] = rl.floor_us;
  roof["bound"] = rl.bound;
  roof["peak_bytes_per_s"] = s.gpu->dram_bytes_per_s;
  if (const auto& best_us = s.best_final.median_us) {
    roof["fraction"] = opt_json(rl.fraction(*best_us));
    roof["achieved_bytes_per_s"] = rl.bandwidth_bytes_per_s(*best_us);
    if (s.eager.median_us) roof["eager_fraction"] = opt_json(rl.fraction(*s.eager.median_us));
    if (s.compiled.median_us) roof["compile_fraction"] = opt_json(rl.fraction(*s.compiled.median_us));
  }
  return roof;
}

// For a user's kernel file (the family's fact "user_kernel"): the configuration the file came with, as the
// search measured it, and the winner's search-time speedup over it (the same harness and phase, so the two
// compare; the final interleaved measurement times the winner only).
json start_json(const OptimizeState& s) {
  const Config start = s.family->knob_space().default_config();
  json out = {{"config", start}, {"status", "not measured"}};
  for (const auto& t : s.searched.trials) {
    if (t.candidate.config != start) continue;
    out["candidate"] = t.candidate.name;
    out["status"] = t.candidate.status;
    out["median_us"] = opt_json(t.candidate.median_us);
    out["best_median_us"] = opt_json(s.best->candidate.median_us);
    if (t.candidate.median_us && s.best->candidate.median_us)
      out["best_speedup"] = opt_json(ratio(t.candidate.median_us, s.best->candidate.median_us));
    break;
  }
  return out;
}

}  // namespace

std::optional<RunEnd> write_stage(OptimizeState& s) {
  const CandidateRecord& best = s.best->candidate;
  const fs::path kernel_path = s.opt.out_dir / "kernel.py";
  write_file_atomically(kernel_path, read_text_file(best.source_path));
  s.result["kernel_path"] = fs::absolute(kernel_path).string();
  json best_json = {{"candidate", best.name},
                    {"family", best.family},
                    {"config", best.config},
                    {"max_abs_err", opt_json(best.max_abs_err)}};
  if (s.best_final.median_us) {
    best_json["median_us"] = *s.best_final.median_us;
    best_json["p10_us"] = *s.best_final.p10_us;
    best_json["p90_us"] = *s.best_final.p90_us;
    best_json["method"] = s.best_final.method;
    best_json["measured_on"] = s.finals_on;
  }
  s.result["best"] = best_json;
  s.result["baselines"] = {{"eager", s.eager.to_json()},
                           {"compile", s.compiled.to_json()},
                           {"settings", baseline_settings(s.opt.precision)}};
  if (s.default_differs)
    s.result["baselines"]["pytorch_default"] = {
        {"why", *s.default_differs},
        {"settings", s.result.value("reference_precision", json())},
        {"eager", s.eager_default.to_json()},
        {"compile", s.compiled_default.to_json()},
        {"error", s.default_error},
        {"speedup",
         {{"vs_eager", opt_json(ratio(s.eager_default.median_us, s.best_final.median_us))},
          {"vs_compile", opt_json(ratio(s.compiled_default.median_us, s.best_final.median_us))}}}};
  s.result["speedup"] = {{"vs_eager", opt_json(ratio(s.eager.median_us, s.best_final.median_us))},
                         {"vs_compile", opt_json(ratio(s.compiled.median_us, s.best_final.median_us))}};
  s.result["roofline"] = roofline_json(s);
  if (s.family->fact("user_kernel")) s.result["start"] = start_json(s);
  return std::nullopt;
}

}  // namespace kernelagent

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "kernelagent/orchestrate/stages/optimize_stages.hpp"

namespace kernelagent {

using nlohmann::json;

namespace {

// The fastest few that passed, by search time, made ready on the home slot: a finalist that another slot
// measured (or an earlier run) is compiled and checked there first, and one that fails to rebuild is left
// out with a warning.
std::vector<const SearchTrial*> choose_finalists(OptimizeState& s) {
  std::vector<const SearchTrial*> passed = s.passed;
  auto search_us = [](const SearchTrial* t) {
    return t->candidate.median_us.value_or(std::numeric_limits<double>::infinity());
  };
  std::stable_sort(passed.begin(), passed.end(),
                   [&](const SearchTrial* a, const SearchTrial* b) { return search_us(a) < search_us(b); });
  std::vector<const SearchTrial*> finalists;
  for (const SearchTrial* t : passed) {
    if (static_cast<int>(finalists.size()) >= s.opt.finalists) break;
    if (t->resumed_from_run || t->candidate.measured_on != s.finals_on) {
      Reply rebuilt = s.executor->rebuild(t->candidate);
      if (!rebuilt.ok()) {
        s.result["warnings"].push_back(
            t->resumed_from_run ? fmt::format("{} (resumed from run {}) failed when rebuilt: {} {}", t->candidate.name,
                                              t->resumed_from_run, rebuilt.status, rebuilt.message)
                                : fmt::format("{} (measured on {}) failed when rebuilt on {}: {} {}", t->candidate.name,
                                              t->candidate.measured_on, s.finals_on, rebuilt.status, rebuilt.message));
        continue;
      }
    }
    finalists.push_back(t);
  }
  return finalists;
}

}  // namespace

std::optional<RunEnd> finalists_stage(OptimizeState& s) {
  // On the CPU nothing is timed: the first candidate that passed is the kernel.
  s.best = s.passed.front();
  if (!s.on_gpu) {
    s.result["timing"] = nullptr;
    s.result["note"] =
        "no CUDA GPU: the kernel ran on Triton's interpreter; correctness was checked, nothing was timed";
    return std::nullopt;
  }
  // Only the final numbers are reported: the finalists timed together with the baselines, interleaved, on
  // one GPU (the home slot's) so that they compare. A finalist's search time only ranks it.
  WorkerClient& final_worker = s.executor->home_worker();
  s.finals_on = s.executor->home_label();
  const std::vector<const SearchTrial*> finalists = choose_finalists(s);
  std::vector<std::string> targets = baseline_targets(s);
  const std::size_t baselines = targets.size();
  for (const SearchTrial* f : finalists) targets.push_back(f->candidate.name);
  s.progress({.stage = "final",
              .best_us = s.search_best_us,
              .eager_us = s.eager.median_us,
              .compile_us = s.compiled.median_us});
  Reply fin = final_worker.time(targets, s.opt.final_min_ms, s.opt.final_rounds, s.opt.graph_below_us);
  keep_baselines(s, fin, "final", s.finals_on);
  std::optional<double> fastest;
  for (const SearchTrial* f : finalists) {
    Timing t = timing_of(fin, f->candidate.name);
    s.record_timing(f->candidate.name, "final", t, s.finals_on);
    if (t.median_us && (!fastest || *t.median_us < *fastest)) {
      fastest = t.median_us;
      s.best_final = t;
      s.best = f;
    }
  }
  if (!fastest)
    return RunEnd{ExitCode::no_valid_kernel, "no_valid_kernel",
                  "every finalist failed its final measurement: " + fin.message};
  s.result["timing"] = {{"harness", "one process; L2 flushed before every repetition; CUDA events; median"},
                        {"search_min_ms", s.opt.search_min_ms},
                        {"final_min_ms", s.opt.final_min_ms},
                        {"final_rounds", s.opt.final_rounds},
                        {"interleaved", true},
                        {"graph_below_us", s.opt.graph_below_us},
                        {"finalists", std::vector<std::string>(targets.begin() + baselines, targets.end())}};
  return std::nullopt;
}

}  // namespace kernelagent

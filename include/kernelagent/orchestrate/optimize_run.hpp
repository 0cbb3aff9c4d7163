#pragma once
// One `optimize` of one problem: load and trace the reference, pick the family that implements it, time
// the baselines, search the family's knob space with a strategy (every candidate compiled, checked and
// timed, failures recorded as statuses; what earlier runs measured of the same problem is resumed, not
// measured again), re-measure the finalists interleaved with the baselines, and write kernel.py and
// result.json (docs/result.md). Each step is a stage of its own (stages/optimize_stages.hpp), timed in the
// result's `stages`.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernelagent/core/error.hpp"
#include "kernelagent/explore/worker_pool.hpp"
#include "kernelagent/families/family.hpp"
#include "kernelagent/history/history_store.hpp"
#include "kernelagent/measure/tolerance.hpp"
#include "kernelagent/measure/worker_client.hpp"
#include "kernelagent/profile/candidate_profile.hpp"

namespace kernelagent {

struct ProgressEvent {
  std::string problem;  // file name
  std::string stage;    // "load", "trace", "baselines", "search", "final", "done"
  int trial = 0, trials = 0;
  std::optional<double> best_us, eager_us, compile_us;
  std::string note;  // e.g. the last candidate's status
  bool live_only = false;  // a phase note: a terminal's live line shows it, a log of progress lines does not
};

// The guided search's default stop on a GPU: on every recorded H200 sweep it had come within 2 % of the
// exhaustive best before 10 trials passed without a 1 % improvement, and it saves measuring the rest of
// the space (which is what exhaustive is for).
inline constexpr int kDefaultPlateau = 10;
// Seconds of search after which the default guided search on a GPU starts no more trials: with loading,
// the baselines (torch.compile's compile among them) and the final measurement, a default optimize of a
// problem stays within about three minutes.
inline constexpr double kDefaultSearchBudgetS = 120;

struct OptimizeOptions {
  std::filesystem::path problem;
  std::filesystem::path out_dir;
  Precision precision = Precision::strict;
  int max_trials = 0;             // 0: no limit but the space on a GPU, 1 on the CPU; counts resumed trials
  bool whole_space = false;       // no trial limit on the CPU either (a sweep)
  // Only the valid configurations whose knobs take one of the listed values, {"knob": [values...]} (a sweep
  // of part of a space: `sweep --where`); an empty object keeps them all.
  Config only = Config::object();
  std::string search = "guided";  // the strategy: guided, random or exhaustive
  std::uint64_t seed = 1;         // of the random strategy
  int plateau = -1;  // stop after this many trials without a 1 % improvement (0: never; -1: kDefaultPlateau
                     // for the guided search on a GPU without a trial limit, else never)
  double target_fraction = 0;     // stop once the best reaches this fraction of the roofline floor (0: never)
  double search_budget_s = -1;    // start no trial after this many seconds of search (0: never stop for time;
                                  // -1: kDefaultSearchBudgetS where the plateau is on by default, else never)
  bool fresh = false;             // ignore the history: measure everything again, no warm start
  std::string family;             // only this family (empty: the first that implements the problem)
  int finalists = 3;              // candidates re-measured against the baselines at the end
  double search_min_ms = 100;     // samples per candidate during the search
  double final_min_ms = 400;      // samples per target in the final interleaved measurement
  int final_rounds = 5;
  double graph_below_us = 50;  // kernels faster than this are also timed by CUDA-graph replay
  std::vector<int> check_seeds = {1, 2, 3};
  // The compile pool: before an exhaustive search on a GPU, this many workers made by
  // `make_compile_worker` compile every candidate into Triton's cache (0 or 1: no pool).
  int compile_workers = 0;
  std::function<std::unique_ptr<WorkerClient>()> make_compile_worker;
  // Profile and Diagnose on a GPU: given what the problem is (its compulsory bytes and FLOPs) and the GPU,
  // a profiler of candidates (Nsight Compute in the CLI). Null: no profiles, the guided search prescribes
  // from the floor that binds the problem. The guided search profiles its beam parents; with
  // `profile_all` (a sweep) every candidate that passed is profiled after the search.
  std::function<CandidateProfiler(const ProblemFacts&, const GpuSpec&)> make_profiler;
  bool profile_all = false;
  std::function<void(const ProgressEvent&)> on_progress;
};

struct OptimizeOutcome {
  ExitCode code = ExitCode::ok;
  nlohmann::json result;  // what result.json holds
  std::string message;    // for a failure, the one clear line to print
};

// The plateau the search stops at: --plateau when given, else kDefaultPlateau for a guided search on a GPU
// with no trial limit, else none (0).
int effective_plateau(const OptimizeOptions& opt, bool on_gpu);
// The search's time budget in seconds (0: none): --search-budget when given, else kDefaultSearchBudgetS for
// a guided search on a GPU without --trials (the default run), else none.
double effective_search_budget(const OptimizeOptions& opt, bool on_gpu);

// On one worker (one GPU, or the CPU).
OptimizeOutcome run_optimize(const OptimizeOptions& options, WorkerClient& worker, HistoryStore& history,
                             const std::vector<std::unique_ptr<Family>>& families);
// On a pool of worker slots (one per GPU): the search measures on every live slot at once; the problem is
// traced and the baselines and finalists timed on the home slot (worker_pool.hpp).
OptimizeOutcome run_optimize(const OptimizeOptions& options, WorkerPool& pool, HistoryStore& history,
                             const std::vector<std::unique_ptr<Family>>& families);

}  // namespace kernelagent

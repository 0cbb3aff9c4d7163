#pragma once
// Orchestrate: a search strategy proposes the next configurations to measure from what has been measured
// so far (the working memory of this run). One file per strategy under src/orchestrate/strategies/.
//   exhaustive  every configuration in the knob space's order (default first): the reference
//   random      a seeded shuffle: the baseline a guided search must beat
//   guided      a beam over one-knob moves, ordered by the prescription for the current best's diagnosis
//               (or, without a profile, for the floor that binds the problem)

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernelagent/explore/measure_executor.hpp"
#include "kernelagent/families/family.hpp"
#include "kernelagent/orchestrate/move_stats.hpp"
#include "kernelagent/prescribe/prescription.hpp"

namespace kernelagent {

struct Trial {
  Config config;
  Measurement result;
  std::string reason;  // why the strategy chose it (the decision log)
};

struct SearchContext {
  const KnobSpace* space = nullptr;
  std::vector<Config> valid;  // every configuration the problem and GPU allow, in space order
  std::vector<Trial> trials;  // measured so far, in order (earlier runs' trials first when resumed)
  // Proposed for the batch being assembled, not measured yet: a strategy treats them as taken (measured()
  // says yes) but knows nothing of their results. Empty outside a batch, so a run with one GPU never sees it.
  std::vector<Config> pending;
  // Configurations worth measuring early, each with its reason (a warm start from the best configuration
  // of a similar problem); the guided strategy proposes them right after the default.
  std::vector<std::pair<Config, std::string>> seeds;
  // The diagnosed cause of a configuration's kernel when one was profiled; empty when unknown.
  std::function<std::string(const Config&)> cause_of;
  std::string bound = "memory";  // which floor binds the problem
  // How often each one-knob move helped in earlier runs like this one (null or empty: no history); the
  // guided strategy tries the moves that helped most often first among those its prescription allows.
  const MoveStats* moves = nullptr;
  // Measured, or pending in the batch being assembled.
  bool measured(const Config& c) const;
  const Trial* best() const;
};

class SearchStrategy {
 public:
  virtual ~SearchStrategy() = default;
  virtual std::string name() const = 0;
  // The next configuration to measure, with its reason; nullopt when the strategy has nothing left.
  virtual std::optional<std::pair<Config, std::string>> next(const SearchContext& ctx) = 0;
  // Up to `k` configurations to measure at once (one per free GPU), never measured before: the next ones
  // the strategy would propose if the earlier ones of the batch were measured, results unknown. For k = 1
  // exactly next() (a proposal already measured is asked again, as the loop always did). A strategy stops a
  // batch early where its next proposal would need the batch's results (joins_batch).
  std::vector<Proposal> next_batch(SearchContext& ctx, int k);

 protected:
  // Whether the proposal next() just made may join a batch that already has one: a strategy says no where
  // it proposed only because it knew nothing better without the pending results.
  virtual bool joins_batch() const { return true; }
};

std::unique_ptr<SearchStrategy> make_exhaustive_search();
std::unique_ptr<SearchStrategy> make_random_search(std::uint64_t seed);
std::unique_ptr<SearchStrategy> make_guided_search(int beam_width = 2);
// "exhaustive", "random", "guided"; throws UserError for another name.
std::unique_ptr<SearchStrategy> make_search(const std::string& name, std::uint64_t seed = 1);

struct SearchLimits {
  int max_trials = 0;               // 0: no limit but the space
  std::optional<double> target_us;  // stop once a measurement is at or below this (the roofline target)
  int plateau = 0;                  // stop after this many trials without a 1 % improvement (0: never)
  std::optional<double> budget_s;   // start no trial once the search has run this many seconds
};
// The limits count the trials the context already holds: a search resumed with 3 trials and a budget of
// 5 measures 2 more.

struct SearchOutcome {
  std::vector<Trial> trials;
  std::string stop_reason;  // "space exhausted", "trial budget", "target reached", "plateau", "search budget"
  const Trial* best() const;
};

// The loop: ask the strategy, never measure a configuration twice, measure through the executor, stop at
// a limit. `on_trial` sees every trial as it is measured (progress, storage). With an executor of capacity
// k > 1 (k GPUs) the strategy proposes batches of up to k (never past the trial budget), measured at once;
// the target and the plateau are checked after each batch. With capacity 1 it is the one-at-a-time loop.
SearchOutcome run_search(SearchStrategy& strategy, MeasureExecutor& executor, SearchContext ctx,
                         const SearchLimits& limits, const std::function<void(const Trial&)>& on_trial = {});

}  // namespace kernelagent

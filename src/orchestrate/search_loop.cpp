#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "kernelagent/core/error.hpp"
#include "kernelagent/orchestrate/search_strategy.hpp"

namespace kernelagent {

namespace {
const Trial* fastest(const std::vector<Trial>& trials) {
  const Trial* best = nullptr;
  for (const auto& t : trials)
    if (t.result.ok() && (!best || *t.result.median_us < *best->result.median_us)) best = &t;
  return best;
}
}  // namespace

bool SearchContext::measured(const Config& c) const {
  return std::any_of(trials.begin(), trials.end(), [&](const Trial& t) { return t.config == c; }) ||
         std::find(pending.begin(), pending.end(), c) != pending.end();
}

std::vector<Proposal> SearchStrategy::next_batch(SearchContext& ctx, int k) {
  std::vector<Proposal> batch;
  while (static_cast<int>(batch.size()) < k) {
    auto proposal = next(ctx);
    if (!proposal) break;
    // A strategy that does not know the batch proposes a pending configuration again: the batch is done.
    if (std::find(ctx.pending.begin(), ctx.pending.end(), proposal->first) != ctx.pending.end()) break;
    if (ctx.measured(proposal->first)) continue;  // never measure a configuration twice
    if (!batch.empty() && !joins_batch()) break;
    ctx.pending.push_back(proposal->first);
    batch.push_back(std::move(*proposal));
  }
  ctx.pending.clear();
  return batch;
}

const Trial* SearchContext::best() const { return fastest(trials); }
const Trial* SearchOutcome::best() const { return fastest(trials); }

std::unique_ptr<SearchStrategy> make_search(const std::string& name, std::uint64_t seed) {
  if (name == "exhaustive") return make_exhaustive_search();
  if (name == "random") return make_random_search(seed);
  if (name == "guided") return make_guided_search();
  throw UserError(ExitCode::bad_input, fmt::format("unknown search strategy '{}' (exhaustive, random, guided)", name));
}

SearchOutcome run_search(SearchStrategy& strategy, MeasureExecutor& executor, SearchContext ctx,
                         const SearchLimits& limits, const std::function<void(const Trial&)>& on_trial) {
  SearchOutcome out;
  const auto started = std::chrono::steady_clock::now();
  std::optional<double> best_us;
  int since_improvement = 0;
  auto count = [&](const Trial& t) {
    if (t.result.ok() && (!best_us || *t.result.median_us < *best_us * 0.99)) {
      best_us = t.result.median_us;
      since_improvement = 0;
    } else {
      ++since_improvement;
    }
  };
  // Trials measured before the loop (resumed from the history) count as if this loop had measured them,
  // so a resumed search stops where the uninterrupted one would have.
  for (const auto& t : ctx.trials) count(t);
  while (true) {
    if (best_us && limits.target_us && *best_us <= *limits.target_us) {
      out.stop_reason = "target reached";
      break;
    }
    if (limits.plateau > 0 && since_improvement >= limits.plateau) {
      out.stop_reason = "plateau";
      break;
    }
    if (limits.max_trials > 0 && static_cast<int>(ctx.trials.size()) >= limits.max_trials) {
      out.stop_reason = "trial budget";
      break;
    }
    // A trial under way finishes; none starts after the budget (a trial is bounded by the candidate timeout).
    if (limits.budget_s &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() >= *limits.budget_s) {
      out.stop_reason = "search budget";
      break;
    }
    int k = std::max(1, executor.capacity());
    if (limits.max_trials > 0) k = std::min(k, limits.max_trials - static_cast<int>(ctx.trials.size()));
    const std::vector<Proposal> batch = strategy.next_batch(ctx, k);
    if (batch.empty()) {
      out.stop_reason = "space exhausted";
      break;
    }
    const std::vector<Measurement> results = executor.measure_batch(batch);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      Trial t{batch[i].first, results.at(i), batch[i].second};
      ctx.trials.push_back(t);
      if (on_trial) on_trial(t);
      count(t);
    }
  }
  out.trials = std::move(ctx.trials);
  return out;
}

}  // namespace kernelagent

// The guided search: a beam of the best configurations so far; from each parent, one-knob moves whose
// knobs carry the purposes the prescription names for that parent's bottleneck come first, in the
// prescription's order. Example: the default matmul (fp32 "ieee" dot) is diagnosed fp32_pipe_saturated;
// the prescription says tensor_cores, then reuse; the first move proposed is input_precision=tf32x3, then
// BLOCK_M/BLOCK_N. When the beam's neighbourhoods are spent, two-knob moves from the best follow, then
// whatever is left in the knob space's order, so the search always terminates and never repeats. The
// context's seeds (warm starts from similar problems) are proposed right after the default.

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "kernelagent/orchestrate/search_strategy.hpp"

namespace kernelagent {

namespace {

class GuidedSearch : public SearchStrategy {
 public:
  explicit GuidedSearch(int beam_width) : beam_width_(std::max(1, beam_width)) {}
  std::string name() const override { return "guided"; }

  std::optional<std::pair<Config, std::string>> next(const SearchContext& ctx) override {
    if (valid_.empty())
      for (const auto& c : ctx.valid) valid_.insert(c.dump());
    auto fresh = [&](const Config& c) { return valid_.count(c.dump()) && !ctx.measured(c); };
    if (ctx.trials.empty() && !ctx.valid.empty())
      return std::make_pair(ctx.valid.front(), std::string("the default configuration"));
    // Seeds (warm starts) come right after the default, before any move of the beam.
    for (const auto& [seed, why] : ctx.seeds)
      if (fresh(seed)) return std::make_pair(seed, why);

    std::vector<const Trial*> beam;
    for (const auto& t : ctx.trials)
      if (t.result.ok()) beam.push_back(&t);
    std::sort(beam.begin(), beam.end(),
              [](const Trial* a, const Trial* b) { return *a->result.median_us < *b->result.median_us; });
    if (static_cast<int>(beam.size()) > beam_width_) beam.resize(static_cast<std::size_t>(beam_width_));
    const auto& knobs = ctx.space->knobs;

    // 1. Prescribed one-knob moves from each parent, best parent first.
    for (const Trial* p : beam) {
      const std::string cause = ctx.cause_of ? ctx.cause_of(p->config) : std::string();
      const Prescription rx = cause.empty() ? prescribe_for_bound(ctx.bound, true) : prescribe_for_cause(cause, true);
      for (const auto& tag : rx.tags)
        for (const auto& k : knobs) {
          if (std::find(k.tags.begin(), k.tags.end(), tag) == k.tags.end()) continue;
          for (const auto& v : k.domain) {
            Config c = p->config;
            c[k.name] = v;
            if (fresh(c))
              return std::make_pair(c, fmt::format("{} ({}) -> {}: {}={}", rx.cause, rx.reason, tag, k.name, v.dump()));
          }
        }
    }
    // 2. The parents' other one-knob moves.
    for (const Trial* p : beam)
      for (const auto& k : knobs)
        for (const auto& v : k.domain) {
          Config c = p->config;
          c[k.name] = v;
          if (fresh(c)) return std::make_pair(c, fmt::format("neighbour of a beam parent: {}={}", k.name, v.dump()));
        }
    // 3. Two-knob moves from the best.
    if (!beam.empty())
      for (std::size_t i = 0; i < knobs.size(); ++i)
        for (std::size_t j = i + 1; j < knobs.size(); ++j)
          for (const auto& vi : knobs[i].domain)
            for (const auto& vj : knobs[j].domain) {
              Config c = beam.front()->config;
              c[knobs[i].name] = vi;
              c[knobs[j].name] = vj;
              if (fresh(c))
                return std::make_pair(c, fmt::format("two-knob move from the best: {}={}, {}={}", knobs[i].name,
                                                     vi.dump(), knobs[j].name, vj.dump()));
            }
    // 4. Whatever is left.
    for (const auto& c : ctx.valid)
      if (fresh(c)) return std::make_pair(c, std::string("the neighbourhoods are spent: next in the space's order"));
    return std::nullopt;
  }

 private:
  int beam_width_;
  std::set<std::string> valid_;
};

}  // namespace

std::unique_ptr<SearchStrategy> make_guided_search(int beam_width) {
  return std::make_unique<GuidedSearch>(beam_width);
}

}  // namespace kernelagent

// The guided search: a beam of parents; from each, one-knob moves whose knobs carry the purposes the
// prescription names for that parent's bottleneck come first, in the prescription's order.
//
// The beam is the fastest `beam_width` configurations plus the fastest of every variant (the values of
// the knobs marked `variant`: input_precision, SPLIT_K, split_r), because a variant's best tiles differ
// from the others': 3xTF32 at the fp32 default's 128x128 tile with 8 warps is slower than IEEE fp32
// there, yet 3xTF32 at 128x64 with 4 warps is the fastest of all. Judged only against the overall best,
// a switched variant would never be refined. Parents take turns, one move each, so a new variant's
// refinement is not queued behind every move of the current best. From each parent, a numeric move that
// helped is first pursued in the same direction (continued_move); a variant the parent cannot switch to
// by itself is reached through its nearest valid configuration (nearest_with).
//
// Example (4096^3 fp32 matmul, compute-bound, no profile): the default (IEEE, 128x128, 8 warps) first;
// the prescription for the compute floor says tensor_cores, then reuse: input_precision=tf32x3 (slower,
// but now the tf32x3 variant has a parent), then BLOCK_M=64 from the default, then BLOCK_N=64 from the
// tf32x3 parent, and so on by turns. When the beam's neighbourhoods are spent, two-knob moves from the
// best follow, then whatever is left in the knob space's order, so the search always terminates and never
// repeats. The context's seeds (warm starts from similar problems) are proposed right after the default.

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "kernelagent/orchestrate/search_strategy.hpp"

namespace kernelagent {

namespace {

using Proposal = std::pair<Config, std::string>;

// A variant's best joins the beam while it is within this factor of the overall best: far slower
// variants are not refined. On the recorded H200 sweeps 1.15 did as well as any factor from 1 to 100
// (search_efficiency), and it keeps the beam short when a family has many variants (split_r has six).
constexpr double kVariantSlack = 1.15;

// The values of the variant knobs: configurations with the same key run the same algorithm.
std::string variant_key(const KnobSpace& space, const Config& c) {
  std::string key;
  for (const auto& k : space.knobs)
    if (k.variant && c.is_object() && c.contains(k.name)) key += k.name + "=" + c.at(k.name).dump() + ";";
  return key;
}

class GuidedSearch : public SearchStrategy {
 public:
  explicit GuidedSearch(int beam_width) : beam_width_(std::max(1, beam_width)) {}
  std::string name() const override { return "guided"; }

  std::optional<Proposal> next(const SearchContext& ctx) override {
    if (valid_.empty())
      for (const auto& c : ctx.valid) valid_.insert(c.dump());
    auto fresh = [&](const Config& c) { return valid_.count(c.dump()) && !ctx.measured(c); };
    filler_ = false;
    if (ctx.trials.empty() && !ctx.valid.empty() && !ctx.measured(ctx.valid.front()))
      return std::make_pair(ctx.valid.front(), std::string("the default configuration"));
    // Seeds (warm starts) come right after the default, before any move of the beam.
    for (const auto& [seed, why] : ctx.seeds)
      if (fresh(seed)) return std::make_pair(seed, why);

    const auto& knobs = ctx.space->knobs;
    const std::vector<const Trial*> beam = parents(ctx);

    // 1. Prescribed one-knob moves, the parents taking turns: from the parent whose turn it is, or the next
    // one that still has a move.
    for (std::size_t i = 0; i < beam.size(); ++i) {
      const std::size_t at = (turn_ + i) % beam.size();
      auto offer = continued_move(ctx, *beam[at], fresh);
      if (!offer) offer = prescribed_move(ctx, *beam[at], fresh);
      if (offer) {
        turn_ = at + 1;
        return offer;
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
    filler_ = true;
    for (const auto& c : ctx.valid)
      if (fresh(c)) return std::make_pair(c, std::string("the neighbourhoods are spent: next in the space's order"));
    return std::nullopt;
  }

 protected:
  // In a batch (several GPUs), a configuration proposed only because nothing measured so far suggests
  // anything better (the space's order) waits for the batch's results, which may: the first batch of a
  // cold search is the default (and the warm starts), the next the best moves from it.
  bool joins_batch() const override { return !filler_; }

 private:
  // The fastest few, then the fastest of each variant not among them; fastest first.
  std::vector<const Trial*> parents(const SearchContext& ctx) const {
    std::vector<const Trial*> passed;
    for (const auto& t : ctx.trials)
      if (t.result.ok()) passed.push_back(&t);
    std::stable_sort(passed.begin(), passed.end(),
                     [](const Trial* a, const Trial* b) { return *a->result.median_us < *b->result.median_us; });
    std::vector<const Trial*> beam;
    std::set<std::string> variants_in_beam;
    for (const Trial* t : passed) {
      const std::string key = variant_key(*ctx.space, t->config);
      const bool close = *t->result.median_us <= *passed.front()->result.median_us * kVariantSlack;
      if (static_cast<int>(beam.size()) < beam_width_ || (close && !variants_in_beam.count(key))) {
        beam.push_back(t);
        variants_in_beam.insert(key);
      }
    }
    return beam;
  }

  static bool tried_value(const SearchContext& ctx, const std::string& knob, const nlohmann::json& value) {
    return std::any_of(ctx.trials.begin(), ctx.trials.end(),
                       [&](const Trial& t) { return t.config.contains(knob) && t.config.at(knob) == value; });
  }

  // A variant that the parent cannot switch to by itself (the cooperative softmax needs a few elements
  // per thread, so split_r=96 at block_r 4096 is invalid) is reached through the valid configuration of
  // that variant nearest to the parent: fewest other knobs changed, the knob space's order breaking ties.
  // Example: from block_r 4096, 8 warps, split_r=48 comes with block_r 1024 (its only block_r).
  template <class Fresh>
  static Config nearest_with(const SearchContext& ctx, const Config& parent, const std::string& knob,
                             const nlohmann::json& value, const Fresh& fresh) {
    const Config* best = nullptr;
    int best_d = 0;
    for (const auto& c : ctx.valid) {
      if (c.at(knob) != value || !fresh(c)) continue;
      const int d = static_cast<int>(differing_knobs(c, parent).size());
      if (!best || d < best_d) best = &c, best_d = d;
    }
    return best ? *best : parent;
  }

  // A numeric value past one that was already worse than the parent, in the same direction, is not
  // tried (a knob's effect is taken to be monotone on each side of its best). Example: a softmax's
  // block_r 1024 -> 256 was 2x slower, so 64 and 32 are skipped from that parent.
  static bool beyond_a_worse_step(const SearchContext& ctx, const Trial& parent, const std::string& knob,
                                  const nlohmann::json& value) {
    const auto& at = parent.config.at(knob);
    if (!value.is_number() || !at.is_number()) return false;
    const double a = at.get<double>(), x = value.get<double>();
    for (const auto& t : ctx.trials) {
      if (!t.result.ok() || *t.result.median_us <= *parent.result.median_us * 1.01) continue;
      const auto& y_json = t.config.at(knob);
      if (!y_json.is_number()) continue;
      const double y = y_json.get<double>();
      if (!((a < y && y < x) || (x < y && y < a))) continue;
      if (differing_knobs(t.config, parent.config) == std::vector<std::string>{knob}) return true;
    }
    return false;
  }

  // A numeric knob move that helped is pursued further before anything else is tried from its result:
  // if the parent is faster than a measured neighbour that differs from it only in knob k, the next
  // value of k beyond the parent's, in the same direction, comes first (a line search). Example: a
  // reduction's block_i 16 -> 64 was 1.6x faster, so 128 follows from the 64 parent, then 256.
  template <class Fresh>
  std::optional<Proposal> continued_move(const SearchContext& ctx, const Trial& parent, const Fresh& fresh) const {
    for (const auto& t : ctx.trials) {
      if (!t.result.ok() || *t.result.median_us <= *parent.result.median_us * 1.01) continue;
      const auto differ = differing_knobs(t.config, parent.config);
      if (differ.size() != 1) continue;
      for (const auto& k : ctx.space->knobs) {
        if (k.name != differ[0]) continue;
        const auto& from = t.config.at(k.name);
        const auto& at = parent.config.at(k.name);
        if (!from.is_number() || !at.is_number()) break;
        // The domain's values beyond the parent's, nearest first, in the direction of the move.
        const bool up = at.get<double>() > from.get<double>();
        std::optional<nlohmann::json> next;
        for (const auto& v : k.domain) {
          if (!v.is_number()) continue;
          const double x = v.get<double>(), a = at.get<double>();
          if ((up ? x > a : x < a) && (!next || (up ? x < next->get<double>() : x > next->get<double>()))) next = v;
        }
        if (!next) break;
        Config c = parent.config;
        c[k.name] = *next;
        if (fresh(c))
          return std::make_pair(c, fmt::format("{}={} -> {} helped ({:.2f}x): on to {}={}", k.name, from.dump(),
                                               at.dump(), *t.result.median_us / *parent.result.median_us, k.name,
                                               next->dump()));
        break;
      }
    }
    return std::nullopt;
  }

  // The parent's fresh prescribed move: by the prescription's tag order, or, with a history, the move
  // that helped most often in earlier runs among all the prescribed ones (the tag order breaks ties). With
  // a diagnosis of the parent's kernel its cause's prescription comes first; the floor that binds the
  // problem is the fallback, for a parent with no diagnosis, a cause no rule answers (at the roofline,
  // divergence) or one whose moves are spent. Example: a reduction whose profile says small_grid gets
  // split_r and block_i (parallelism) before block_r (bytes_moved), then the memory floor's moves.
  template <class Fresh>
  std::optional<Proposal> prescribed_move(const SearchContext& ctx, const Trial& parent, const Fresh& fresh) const {
    const std::string cause = ctx.cause_of ? ctx.cause_of(parent.config) : std::string();
    std::vector<Prescription> rxs;
    if (!cause.empty()) rxs.push_back(prescribe_for_cause(cause, true));
    rxs.push_back(prescribe_for_bound(ctx.bound, true));
    for (const auto& rx : rxs)
      if (auto offer = prescribed_move_by(ctx, parent, rx, fresh)) return offer;
    return std::nullopt;
  }

  template <class Fresh>
  std::optional<Proposal> prescribed_move_by(const SearchContext& ctx, const Trial& parent, const Prescription& rx,
                                             const Fresh& fresh) const {
    const bool ranked = ctx.moves && !ctx.moves->empty();
    std::optional<Proposal> best;
    double best_score = -1;
    for (const auto& tag : rx.tags)
      for (const auto& k : ctx.space->knobs) {
        if (std::find(k.tags.begin(), k.tags.end(), tag) == k.tags.end()) continue;
        for (const auto& v : k.domain) {
          Config c = parent.config;
          c[k.name] = v;
          if (!fresh(c) && k.variant && !tried_value(ctx, k.name, v)) c = nearest_with(ctx, parent.config, k.name, v, fresh);
          if (!fresh(c) || beyond_a_worse_step(ctx, parent, k.name, v)) continue;
          const double score = ranked ? ctx.moves->score(k.name, v) : 0;
          if (best && score <= best_score) continue;
          std::string why = fmt::format("{} ({}) -> {}: {}={}", rx.cause, rx.reason, tag, k.name, v.dump());
          if (const auto [helped, seen] = ranked ? ctx.moves->counts(k.name, v) : std::pair{0, 0}; seen > 0)
            why += fmt::format(" (helped {} of {} times in earlier runs)", helped, seen);
          best = std::make_pair(std::move(c), std::move(why));
          best_score = score;
          if (!ranked) return best;
        }
      }
    return best;
  }

  int beam_width_;
  std::size_t turn_ = 0;  // the parent whose turn it is to propose
  bool filler_ = false;   // the last proposal came from the space's order, not from the beam
  std::set<std::string> valid_;
};

}  // namespace

std::unique_ptr<SearchStrategy> make_guided_search(int beam_width) {
  return std::make_unique<GuidedSearch>(beam_width);
}

}  // namespace kernelagent

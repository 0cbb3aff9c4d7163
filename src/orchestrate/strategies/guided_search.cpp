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
// The warps follow the tile (moved): a move of a knob that sizes the tile each program holds (its
// tile_exponent) takes num_warps along in proportion, so each thread holds as much as before, as Triton's
// own configurations pair 128x128 tiles with 8 warps and 128x64 with 4. Example (32768 x 64 x 32768, 3xTF32,
// K-major): from 128x128 at 8 warps (3.317 ms), BLOCK_N=64 at 8 warps is 4.467 ms, a dead end, while 128x64
// at 4 warps is 3.304 ms, one stage from the best (3.149 ms). In such a space a warp count
// off its tile's is an occupancy experiment: without a diagnosis that asks for one it comes after the
// floor's other moves (prescribed_move). A variant already measured and far slower than the best is not
// switched to again from the other parents (variant_left_behind), as it is not refined in the beam.
//
// Example (4096^3 fp32 matmul, compute-bound, no profile): the default (IEEE, 128x128, 8 warps, 3.32 ms)
// first; the prescription for the compute floor says tensor_cores, then reuse: K_MAJOR=1 (valid only with
// 3xTF32, so through its nearest configuration: 1.62 ms, the best), input_precision=tf32x3 without the
// copy (3.95 ms: that variant is left behind), then BLOCK_M=64 with 4 warps from the K-major parent, then
// BLOCK_N=64 from the new one (64x64 at 4 warps: 2 warps are not in the domain), and so on by turns. When the beam's
// neighbourhoods are spent, two-knob moves from the best follow, then whatever is left in the knob space's order, so
// the search always terminates and never repeats. The context's seeds (warm starts from similar problems) are proposed
// right after the default.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
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

// Triton's launch parameter: the warps of one program, over whose threads the program's tile is spread.
constexpr const char* kWarps = "num_warps";

const Knob* knob_named(const KnobSpace& space, const std::string& name) {
  for (const auto& k : space.knobs)
    if (k.name == name) return &k;
  return nullptr;
}

// Whether num_warps follows the tile in this space: it has num_warps and a knob that sizes the tile.
bool warps_follow_tiles(const KnobSpace& space) {
  return knob_named(space, kWarps) &&
         std::any_of(space.knobs.begin(), space.knobs.end(), [](const Knob& k) { return k.tile_exponent != 0; });
}

// The warp count that keeps each thread's share of the tile when knob k moves from `from` to `to` at
// `warps`: warps * (to / from)^tile_exponent; nullopt for a knob that does not size the tile. Examples:
// BLOCK_N 128 -> 64 at 8 warps: 4; the softmax's split_r 48 -> 96 at 8 warps: 4 (each program holds half
// of what it held); block_i 128 -> 256 at 16 warps: 32.
std::optional<double> following_warps(const Knob& k, const nlohmann::json& from, const nlohmann::json& to,
                                      const nlohmann::json& warps) {
  if (k.tile_exponent == 0 || !from.is_number() || !to.is_number() || !warps.is_number()) return std::nullopt;
  const double ratio = to.get<double>() / from.get<double>();
  return warps.get<double>() * std::pow(ratio, k.tile_exponent);
}

// The knob by whose move `to` differs from `from`: the only knob they set differently, or a knob that sizes
// the tile when num_warps differs too (the warps are the tile's companion, whether they followed it in
// proportion or not). Example: {block_i 16, 8 warps} -> {block_i 128, 16 warps} is a move of block_i, so a
// line search goes on to block_i 256; {BLOCK_N 128, 3 stages} -> {BLOCK_N 64, 4 stages} is none.
std::optional<std::string> moved_knob(const KnobSpace& space, const Config& from, const Config& to) {
  const auto differ = differing_knobs(from, to);
  if (differ.size() == 1) return differ.front();
  if (differ.size() != 2 || std::find(differ.begin(), differ.end(), kWarps) == differ.end()) return std::nullopt;
  const std::string other = differ[0] == kWarps ? differ[1] : differ[0];
  const Knob* k = knob_named(space, other);
  if (!k || k->tile_exponent == 0) return std::nullopt;
  return other;
}

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

  // The parent with knob k at v: with num_warps following the tile where k sizes it and a valid
  // configuration has exactly the proportional warp count, else k alone. Example: BLOCK_M=64 from 128x128 at
  // 8 warps is 64x128 at 4 warps; from 64x128 at 4 warps, BLOCK_N=64 is 64x64 at 4 warps (2 warps are not
  // in the domain). When the proportional configuration was measured the move is spent: it does not fall
  // back to k alone, which stays one warp move away from the measured one.
  Config moved(const KnobSpace& space, const Config& parent, const Knob& k, const nlohmann::json& v) const {
    Config c = parent;
    c[k.name] = v;
    const Knob* warps = knob_named(space, kWarps);
    if (!warps || !parent.contains(kWarps) || !parent.contains(k.name)) return c;
    const auto target = following_warps(k, parent.at(k.name), v, parent.at(kWarps));
    if (!target) return c;
    for (const auto& w : warps->domain) {
      if (!w.is_number() || std::abs(w.get<double>() - *target) > 1e-9) continue;
      Config with_warps = c;
      with_warps[kWarps] = w;
      if (valid_.count(with_warps.dump())) return with_warps;
    }
    return c;
  }

  // A move's description: the knob and value, and the warps when they followed the tile.
  static std::string move_text(const Config& parent, const Config& c, const std::string& knob) {
    std::string text = fmt::format("{}={}", knob, c.at(knob).dump());
    if (parent.contains(kWarps) && c.contains(kWarps) && parent.at(kWarps) != c.at(kWarps) && knob != kWarps)
      text += fmt::format(" with {}={} (the warps follow the tile)", kWarps, c.at(kWarps).dump());
    return text;
  }

  // A variant whose best measured configuration is further than kVariantSlack from the overall best: it
  // left the beam, and a switch to it from another parent would refine it all the same. Example: 3xTF32
  // without the K-major copy was 2.3x slower than with it at the default tile (4.05 against 1.77 ms for
  // A^T B), so it is not tried again at 64x128, 128x64, ... from each new parent.
  static bool variant_left_behind(const SearchContext& ctx, const Config& c) {
    const Trial* overall = ctx.best();
    if (!overall) return false;
    const std::string key = variant_key(*ctx.space, c);
    std::optional<double> variant_best;
    for (const auto& t : ctx.trials)
      if (t.result.ok() && variant_key(*ctx.space, t.config) == key &&
          (!variant_best || *t.result.median_us < *variant_best))
        variant_best = *t.result.median_us;
    return variant_best && *variant_best > *overall->result.median_us * kVariantSlack;
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
    const Config* best = nearest_setting(ctx.valid, parent, Config{{knob, value}}, fresh);
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
      if (moved_knob(*ctx.space, parent.config, t.config) == knob) return true;
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
      const auto knob = moved_knob(*ctx.space, t.config, parent.config);
      if (!knob) continue;
      for (const auto& k : ctx.space->knobs) {
        if (k.name != *knob) continue;
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
        Config c = moved(*ctx.space, parent.config, k, *next);
        if (fresh(c))
          return std::make_pair(
              c, fmt::format("{}={} -> {} helped ({:.2f}x): on to {}", k.name, from.dump(), at.dump(),
                             *t.result.median_us / *parent.result.median_us, move_text(parent.config, c, k.name)));
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
  // Where the warps follow the tile, the floor's warp moves come after its other ones: a warp count off
  // the tile's doubles or halves what each thread holds, which a diagnosis (register spills) may ask for
  // but the floor alone does not. Example: A^T B with 3xTF32 and the K-major copy at 128x128, 8 warps (1.769
  // ms): 4 warps is 3.079 ms, a fourth stage 1.686 ms (the best).
  template <class Fresh>
  std::optional<Proposal> prescribed_move(const SearchContext& ctx, const Trial& parent, const Fresh& fresh) const {
    const std::string cause = ctx.cause_of ? ctx.cause_of(parent.config) : std::string();
    if (!cause.empty())
      if (auto offer = prescribed_move_by(ctx, parent, prescribe_for_cause(cause, true), fresh, WarpMoves::included))
        return offer;
    const Prescription floor = prescribe_for_bound(ctx.bound, true);
    if (!warps_follow_tiles(*ctx.space)) return prescribed_move_by(ctx, parent, floor, fresh, WarpMoves::included);
    if (auto offer = prescribed_move_by(ctx, parent, floor, fresh, WarpMoves::left_out)) return offer;
    return prescribed_move_by(ctx, parent, floor, fresh, WarpMoves::only);
  }

  enum class WarpMoves { included, left_out, only };

  template <class Fresh>
  std::optional<Proposal> prescribed_move_by(const SearchContext& ctx, const Trial& parent, const Prescription& rx,
                                             const Fresh& fresh, WarpMoves warp_moves) const {
    const bool ranked = ctx.moves && !ctx.moves->empty();
    std::optional<Proposal> best;
    double best_score = -1;
    for (const auto& tag : rx.tags)
      for (const auto& k : ctx.space->knobs) {
        if (std::find(k.tags.begin(), k.tags.end(), tag) == k.tags.end()) continue;
        if ((warp_moves == WarpMoves::left_out && k.name == kWarps) ||
            (warp_moves == WarpMoves::only && k.name != kWarps))
          continue;
        for (const auto& v : k.domain) {
          Config c = moved(*ctx.space, parent.config, k, v);
          std::string move = move_text(parent.config, c, k.name);
          if (!fresh(c) && k.variant && !tried_value(ctx, k.name, v)) {
            c = nearest_with(ctx, parent.config, k.name, v, fresh);
            move = fmt::format("{}={}", k.name, v.dump());
          }
          if (!fresh(c) || beyond_a_worse_step(ctx, parent, k.name, v) || variant_left_behind(ctx, c)) continue;
          const double score = ranked ? ctx.moves->score(k.name, v) : 0;
          if (best && score <= best_score) continue;
          std::string why = fmt::format("{} ({}) -> {}: {}", rx.cause, rx.reason, tag, move);
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

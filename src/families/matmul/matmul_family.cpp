// The matmul family's recogniser and validity rule (the recognition itself is matmul_problem.cpp, the
// emission matmul_emit.cpp).

#include "kernelagent/families/matmul/matmul_family.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "kernelagent/families/registry.hpp"

namespace kernelagent {

using nlohmann::json;

namespace {

std::int64_t element_bytes(const std::string& dtype) { return dtype == "float32" ? 4 : 2; }

// Splitting K pays for a workspace and a second kernel: only where K dominates the output's sides.
bool k_dominates(const MatmulProblem& p) { return p.k >= 4 * std::max(p.m, p.n); }

std::int64_t smallest(const KnobSpace& space, const std::string& knob) {
  std::int64_t best = 0;
  for (const auto& k : space.knobs)
    if (k.name == knob)
      for (const auto& v : k.domain)
        if (best == 0 || v.get<std::int64_t>() < best) best = v.get<std::int64_t>();
  return best;
}

class MatmulFamilyProblem final : public FamilyProblem {
 public:
  MatmulFamilyProblem(const Family& f, const TraceResult& t, MatmulProblem p) : FamilyProblem(f, t), p_(std::move(p)) {}

  // Rows that are not 16-element aligned make every tile load straddle sectors, whatever the tile: the
  // aligned copy (ALIGN) is worth measuring at once, on the tensor cores the policy allows, rather than after
  // the tile moves. Example: 8205 x 2949 @ 2949 x 5921, 0.46x cuBLAS on the H200 after 25 tile moves.
  //
  // Aligned rows, an operand not K-major (a row-major B): a TF32 product copies that operand K-major first
  // (K_MAJOR), or the tile's transposing stores to shared memory conflict. In the recorded H200 sweeps the
  // 3xTF32 tile ran faster with the copy than without at the same knobs in 233 of 234 pairs (1.08x to 3.39x;
  // KernelBench 1's best: 1.47 ms against 2.57 ms, the IEEE default 3.05 ms), and on an H100 the tile without it spent 74 % of its shared
  // wavefronts on bank conflicts; the guided search reached it only after its tile moves.
  std::vector<KnobSuggestion> suggestions() const override {
    if (p_.kind != MatmulProblem::Kind::product) return {};
    std::vector<KnobSuggestion> layout = layout_suggestions();
    const std::int64_t split = wanted_split();
    if (split <= 1) return layout;
    // A long K under few output tiles: the default's programs leave most SMs idle whatever the layout, so the
    // split comes with each layout suggestion first, then alone. Example: KernelBench 6 (256 x 256, K = 524288)
    // has 4 tiles of 128 x 128; unsplit it ran at 0.06x cuBLAS on an H100 after four trials of other knobs,
    // split 64 ways it ran at 1.32x on the H200.
    const std::string why = fmt::format(
        "K ({}) is long and the output has {} tile(s) of the default's {} x {}: SPLIT_K={} gives {} programs",
        p_.k, default_tiles(), default_of("BLOCK_M"), default_of("BLOCK_N"), split, default_tiles() * split);
    std::vector<KnobSuggestion> out;
    for (const auto& s : layout) {
      Config knobs = s.knobs;
      knobs["SPLIT_K"] = split;
      out.push_back({knobs, why + "; " + s.reason});
    }
    out.push_back({{{"SPLIT_K", split}}, why});
    out.insert(out.end(), layout.begin(), layout.end());
    return out;
  }

 protected:
  bool valid_config(const Config& c, const GpuSpec* gpu, Precision precision) const override {
    const MatmulProblem& p = p_;
    const KnobSpace& space = family().knob_space();
    const auto bm = c.at("BLOCK_M").get<std::int64_t>(), bn = c.at("BLOCK_N").get<std::int64_t>();

    // A tile far larger than the problem is mostly mask: allow the smallest tile, or the one that covers it.
    if (bm > std::max(smallest(space, "BLOCK_M"), pow2_at_least(p.m))) return false;
    if (bn > std::max(smallest(space, "BLOCK_N"), pow2_at_least(p.n))) return false;

    if (p.kind != MatmulProblem::Kind::product) {
      // The diagonal form has no K loop: only the tile and the warps matter, the rest would repeat configs.
      const Config def = space.default_config();
      for (const auto* knob : {"BLOCK_K", "GROUP_M", "num_stages", "SPLIT_K", "input_precision", "K_MAJOR", "ALIGN"})
        if (c.at(knob) != def.at(knob)) return false;
      return true;
    }

    const auto prec = c.at("input_precision").get<std::string>();
    if (prec != "ieee" && p.dtype != "float32") return false;  // TF32 modes exist only for fp32 inputs
    if (prec == "tf32" && precision != Precision::tf32) return false;
    // The copy pays only for a TF32 product (an IEEE dot reads either layout alike) and only when an
    // operand is not K-major already.
    if (c.value("K_MAJOR", 0) == 1 && (prec == "ieee" || (p.a.stride_col == 1 && p.b.stride_row == 1))) return false;
    // The copies read a batch as one dim: none of an operand whose batch is two broadcast dims.
    if ((p.a.batch_inner != 0 || p.b.batch_inner != 0) && (c.value("K_MAJOR", 0) == 1 || c.value("ALIGN", 0) == 1))
      return false;
    // The aligned copy pays only where an operand's rows are not 16-element aligned.
    if (c.value("ALIGN", 0) == 1 && !misaligned(p.a) && !misaligned(p.b)) return false;

    if (gpu && gpu->smem_per_block_optin > 0 && matmul_smem_bytes(c, p.dtype) > gpu->smem_per_block_optin) return false;

    const auto split = c.at("SPLIT_K").get<std::int64_t>();
    // An epilogue runs on the whole sum: not on one split's part of it.
    if (split > 1 && !p.epilogue.empty()) return false;
    if (split > 1) {
      // Splitting K pays for a workspace and a second kernel; it helps only when K dominates and the
      // output tiles alone leave the GPU idle.
      const auto bk = c.at("BLOCK_K").get<std::int64_t>();
      if (!k_dominates(p)) return false;
      if (p.k / split < 4 * bk) return false;
      const std::int64_t tiles = p.batch * ((p.m + bm - 1) / bm) * ((p.n + bn - 1) / bn);
      if (gpu && gpu->sm_count > 0 && tiles >= gpu->sm_count) return false;
    }
    return true;
  }

  Emission emission(const Config& c) const override {
    return matmul_emission(p_, c, p_.epilogue.empty() ? "" : shared_helper("pointwise_helpers"));
  }

 private:
  // The layout's own suggestions: the aligned copy for rows that straddle sectors, else the K-major copy for
  // an operand that is not K-major (see suggestions()).
  std::vector<KnobSuggestion> layout_suggestions() const {
    if (!misaligned(p_.a) && !misaligned(p_.b)) {
      if (p_.a.stride_col == 1 && p_.b.stride_row == 1) return {};
      const std::string why = "an operand is not K-major: the TF32 tile reads it through a K-major copy (K_MAJOR=1) "
                              "rather than transposing it in shared memory";
      return {{{{"K_MAJOR", 1}, {"input_precision", "tf32"}}, why}, {{{"K_MAJOR", 1}, {"input_precision", "tf32x3"}}, why}};
    }
    std::vector<std::string> which;
    for (const auto& [name, op] : {std::pair{"A", &p_.a}, std::pair{"B", &p_.b}})
      if (misaligned(*op))
        which.push_back(fmt::format("{}'s strides ({}, {}) are not multiples of 16 elements", name, op->stride_row,
                                    op->stride_col));
    const std::string why = fmt::format("{}: its loads straddle sectors; ALIGN=1 copies it into aligned rows",
                                        fmt::format("{}", fmt::join(which, " and ")));
    return {{{{"ALIGN", 1}, {"input_precision", "tf32"}}, why},
            {{{"ALIGN", 1}, {"input_precision", "tf32x3"}}, why},
            {{{"ALIGN", 1}}, why}};
  }

  std::int64_t default_of(const std::string& knob) const {
    return family().knob_space().default_config().at(knob).get<std::int64_t>();
  }

  std::int64_t default_tiles() const {
    const std::int64_t bm = default_of("BLOCK_M"), bn = default_of("BLOCK_N");
    return p_.batch * ((p_.m + bm - 1) / bm) * ((p_.n + bn - 1) / bn);
  }

  // The split of K worth measuring first, or 1: where K dominates (valid_config's rule) and the default's tiles
  // are fewer than a wave of even a small GPU's SMs (64), the smallest split of the knob's domain that makes
  // 128 programs or more, else its largest, keeping at least four K steps of the default's BLOCK_K a split.
  std::int64_t wanted_split() const {
    constexpr std::int64_t kFewTiles = 64, kPrograms = 128;
    if (!p_.epilogue.empty() || !k_dominates(p_)) return 1;
    const std::int64_t tiles = default_tiles();
    if (tiles >= kFewTiles) return 1;
    std::vector<std::int64_t> splits;
    for (const auto& k : family().knob_space().knobs)
      if (k.name == "SPLIT_K")
        for (const auto& v : k.domain) splits.push_back(v.get<std::int64_t>());
    std::sort(splits.begin(), splits.end());
    std::int64_t best = 1;
    for (const std::int64_t s : splits) {
      if (p_.k / s < 4 * default_of("BLOCK_K")) break;
      best = s;
      if (tiles * s >= kPrograms) break;
    }
    return best;
  }

  MatmulProblem p_;
};

Recognition recognise(const Family& family, const TraceResult& trace) {
  auto r = recognise_matmul(trace);
  if (auto* why = std::get_if<std::string>(&r)) return {nullptr, *why};
  return {std::make_shared<MatmulFamilyProblem>(family, trace, std::get<MatmulProblem>(std::move(r))), ""};
}

}  // namespace

std::int64_t matmul_smem_bytes(const Config& c, const std::string& dtype) {
  const auto bm = c.at("BLOCK_M").get<std::int64_t>(), bn = c.at("BLOCK_N").get<std::int64_t>();
  const auto bk = c.at("BLOCK_K").get<std::int64_t>(), stages = c.at("num_stages").get<std::int64_t>();
  return (bm * bk + bk * bn) * element_bytes(dtype) * stages;
}

KA_REGISTER_FAMILY(matmul, recognise);

}  // namespace kernelagent

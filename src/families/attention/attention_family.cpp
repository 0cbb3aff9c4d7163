// The attention family's recogniser: scaled dot-product attention of [B, H, L, D] inputs, in whichever
// fused aten op the reference's device traces to (the CPU's flash-attention-for-CPU, CUDA's efficient,
// flash or cuDNN attention), causal or with a mask (added to the scores, or boolean), without dropout or
// grouped heads.
// Example: KernelBench 97, F.scaled_dot_product_attention(Q, K, V) with Q, K, V [32, 32, 512, 1024]:
// 1024 heads of 512 queries by 512 keys with a head dimension of 1024, which no ordinary tile holds: the
// fused variants sum the scores over the head dimension in steps and write the output in column blocks; the
// materialized variant writes the scores to a workspace between two products instead.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>

#include "kernelagent/families/common/broadcast.hpp"
#include "kernelagent/families/common/leaves.hpp"
#include "kernelagent/families/common/pointwise_ops.hpp"
#include "kernelagent/families/family.hpp"
#include "kernelagent/families/model_wrapper.hpp"
#include "kernelagent/families/registry.hpp"

namespace kernelagent {

namespace {

struct Operand {
  std::string expr;                   // what ModelNew passes
  std::vector<std::int64_t> strides;  // batch, head, row, column
};

class AttentionProblem final : public FamilyProblem {
 public:
  AttentionProblem(const Family& f, const TraceResult& t) : FamilyProblem(f, t) {}

  std::int64_t batch = 1, heads = 1, m = 0, n = 0, d = 0, dv = 0;
  // Grouped-query attention: this many query heads share one head of keys and values (query head h reads
  // key and value head h / kv_group, as enable_gqa and repeat_interleave have it); 1 for plain attention.
  std::int64_t kv_group = 1;
  double scale = 1.0;
  bool causal = false;
  // The attention's mask: none (0), added to the scores (1), keeping the keys where it is true (nonzero: 2), or
  // keeping them where it is false (zero: 3, masked_fill(scores, m, -inf) of PyTorch's math form);
  // its strides broadcast to [batch, heads, queries, keys].
  int mask_kind = 0;
  Operand mask;
  std::string dtype;
  Operand q, k, v;
  std::vector<std::int64_t> out_shape;

 protected:
  bool valid_config(const Config& c, const GpuSpec*, Precision precision) const override {
    const std::string variant = c.at("variant").get<std::string>();
    const auto bm = c.at("block_m").get<std::int64_t>(), bn = c.at("block_n").get<std::int64_t>();
    const auto bd = c.at("block_d").get<std::int64_t>(), bdv = c.at("block_dv").get<std::int64_t>();
    const std::string prec = c.at("input_precision").get<std::string>();
    if (prec != "ieee" && dtype != "float32") return false;
    if (prec == "tf32" && precision != Precision::tf32) return false;
    // Tiles no larger than what they tile (tl.dot needs 16 of each).
    if (bm > std::max<std::int64_t>(pow2_at_least(m), 16) || bd > std::max<std::int64_t>(pow2_at_least(d), 16) ||
        bdv > std::max<std::int64_t>(pow2_at_least(dv), 16))
      return false;
    if (variant == "whole") {
      // Every score of the program's rows is held in registers: at most 32 a thread. Compiled for sm_90 at
      // KernelBench 97's shape (512 keys), 128 a thread (32 rows, 4 warps) spilled 9872 bytes a thread, 64
      // spilled 2224, 32 (16 rows, 8 warps) none, in 120 registers.
      const std::int64_t keys = std::max<std::int64_t>(pow2_at_least(n), 16);
      const std::int64_t threads = 32 * c.at("num_warps").get<std::int64_t>();
      return keys <= 1024 && bm * keys <= 32 * threads &&
             c.at("block_n") == family().knob_space().default_config().at("block_n");
    }
    // The K-major copy of the values is for the materialized variant's second product on the tensor cores,
    // and only where the keys are not contiguous in the values already.
    if (c.value("v_k_major", 0) == 1 &&
        (variant != "materialized" || prec == "ieee" || v.strides[2] == 1 || !values_batch_stride() || kv_group != 1))
      return false;
    if (variant == "materialized") {
      // Two products through a workspace of every score (at most 4 GiB), each tile within the registers
      // and each pipeline within the shared memory an H100 or H200 gives one program; a row of keys
      // softmaxed whole.
      const std::int64_t stages = c.at("num_stages").get<std::int64_t>();
      const std::int64_t smem = 4 * stages * std::max(bm * bd + bd * bn, bm * bd + bd * bdv);
      return batch * heads * m * n * 4 <= (std::int64_t{4} << 30) && pow2_at_least(n) <= 16384 &&
             bn <= std::max<std::int64_t>(pow2_at_least(n), 16) && bm * bn <= 16384 && bm * bdv <= 16384 &&
             smem <= 200 * 1024;
    }
    if (bn > std::max<std::int64_t>(pow2_at_least(n), 16)) return false;
    return bm * bdv <= 16384;
  }

  // Heads wider than one block of output columns make the fused variants pay twice: the online one computes
  // every score again for each block of columns, the whole one holds too much in registers. Example:
  // KernelBench 97 (head dimension 1024) ran 10x slower than PyTorch's on the H200 with both fused variants.
  std::vector<KnobSuggestion> suggestions() const override {
    if (dv <= 256) {
      // From a head of 128 the workspace pays too: on an H100, 8 x 16 heads of 1024 x 1024 x 128 ran 1.54 ms
      // through it (3xTF32, the values K-major) against 1.94 ms fused; a head of 64 (512 queries over 2048
      // keys) 0.97 ms against 0.50 fused. So the fused tile first, then the workspace's.
      std::vector<KnobSuggestion> out = fused_suggestions();
      if (dv >= 128)
        for (auto& s : materialized_suggestions(fmt::format(
                 "a head of {} output columns: through a workspace of the scores, two products in 128 x 128 tiles",
                 dv)))
          if (s.knobs.at("input_precision") != "ieee") out.push_back(std::move(s));
      return out;
    }
    return materialized_suggestions(fmt::format(
        "the values' head dimension ({}) is wider than one block of output columns: fused, every score would be "
        "computed again for each block; through a workspace of the scores, once",
        dv));
  }

  // A suggested tile edge: `want`, no larger than what it tiles rounded up to a power of two (at least 16,
  // what tl.dot needs).
  static std::int64_t tile(std::int64_t want, std::int64_t extent) {
    return std::min(want, std::max<std::int64_t>(pow2_at_least(extent), 16));
  }

  std::vector<KnobSuggestion> materialized_suggestions(const std::string& why) const {
    // Both products in tiles of 128 x 128 summed in steps of 64 through three stages at 8 warps, the matmul
    // family's best under 3xTF32 on the H200, no larger than what they tile (a short sequence gets a smaller
    // block of queries or keys). Compiled for sm_90 at KernelBench 97's shape, the earlier 128 x 64 scores
    // and steps of 32 in two stages measured 30.8 ms, 21 % of the 3xTF32 floor.
    // On the tensor cores each is suggested without and then with the values' K-major copy: the copy costs a
    // read and a write of the values, the transposing tile its bank conflicts; which pays is measured.
    std::vector<KnobSuggestion> out;
    for (const char* prec : {"tf32", "tf32x3", "ieee"})
      for (int v_k_major : {0, 1}) {
        if (v_k_major == 1 && (std::string(prec) == "ieee" || v.strides[2] == 1)) continue;
        out.push_back({{{"variant", "materialized"},
                        {"block_m", tile(128, m)},
                        {"block_n", tile(128, n)},
                        {"block_d", tile(64, d)},
                        {"block_dv", 128},
                        {"num_warps", 8},
                        {"num_stages", 3},
                        {"input_precision", prec},
                        {"v_k_major", v_k_major}},
                       why});
      }
    return out;
  }

  // Heads of at most 256 columns: the flash-attention tile, every output column of a block of queries in one
  // program, so each score is computed once (the default's 64 columns computed them twice for a head of 128:
  // 8 x 16 heads of 1024 x 1024 x 128 ran 2.93 ms with 3xTF32 on an H100, against 1.54 ms for PyTorch's
  // IEEE attention), on the tensor cores, 64 and then 128 queries a program. 3xTF32 splits every operand in
  // two: compiled for sm_90 at a head of 128, 64 keys a step spilled 280 and 416 bytes a thread (255
  // registers), 32 keys none; a head of 64 and TF32 do not spill at 64 keys.
  std::vector<KnobSuggestion> fused_suggestions() const {
    const std::string why = fmt::format(
        "a head of {} output columns fits one accumulator: each block of queries computes its scores once, "
        "for all its columns, on the tensor cores",
        dv);
    std::vector<KnobSuggestion> out;
    for (const char* prec : {"tf32", "tf32x3"})
      for (std::int64_t bm : {std::int64_t{64}, std::int64_t{128}})
        out.push_back({{{"variant", "online"},
                        {"block_m", tile(bm, m)},
                        {"block_n", tile(std::string(prec) == "tf32x3" && dv > 64 ? 32 : 64, n)},
                        {"block_d", tile(64, d)},
                        {"block_dv", std::max<std::int64_t>(pow2_at_least(dv), 16)},
                        {"num_warps", bm == 128 ? 8 : 4},
                        {"num_stages", 2},
                        {"input_precision", prec}},
                       why});
    return out;
  }

  // The one stride that steps through the values' (batch, head) pairs in order, as the K-major copy reads
  // them; none when the two do not collapse into one (a view that interleaves them).
  std::optional<std::int64_t> values_batch_stride() const {
    if (heads == 1) return v.strides[0];
    if (batch == 1 || v.strides[0] == heads * v.strides[1]) return v.strides[1];
    return std::nullopt;
  }

  Emission emission(const Config& c) const override {
    const std::string variant = c.at("variant").get<std::string>();
    const auto bm = c.at("block_m").get<std::int64_t>();
    const auto bdv = c.at("block_dv").get<std::int64_t>();
    std::vector<std::string> args = {
        fmt::format("SCALE={}", float_literal(scale)), fmt::format("H={}", heads), fmt::format("M={}", m),
        fmt::format("N={}", n), fmt::format("D={}", d), fmt::format("DV={}", dv)};
    const char* names[] = {"B", "H", "M", "D"};
    const char* knames[] = {"B", "H", "N", "D"};
    for (int i = 0; i < 4; ++i) args.push_back(fmt::format("Q_S{}={}", names[i], q.strides[static_cast<std::size_t>(i)]));
    for (int i = 0; i < 4; ++i) args.push_back(fmt::format("K_S{}={}", knames[i], k.strides[static_cast<std::size_t>(i)]));
    for (int i = 0; i < 4; ++i) args.push_back(fmt::format("V_S{}={}", knames[i], v.strides[static_cast<std::size_t>(i)]));
    args.push_back(fmt::format("KV_GROUP={}", kv_group));
    args.push_back(fmt::format("MASK={}", mask_kind));
    const char* anames[] = {"B", "H", "M", "N"};
    for (int i = 0; i < 4; ++i)
      args.push_back(fmt::format("A_S{}={}", anames[i], mask_kind ? mask.strides[static_cast<std::size_t>(i)] : 0));
    args.push_back(fmt::format("CAUSAL={}", causal ? "True" : "False"));
    args.push_back(fmt::format("BLOCK_M={}", bm));
    std::int64_t programs = batch * heads * cdiv(m, bm);
    std::string plan;
    const std::string prec = fmt::format("PRECISION=\"{}\"", c.at("input_precision").get<std::string>());
    if (variant == "materialized") {
      // Three kernels; their arguments are picked from the fused kernel's by name.
      const auto bn = c.at("block_n").get<std::int64_t>();
      auto pick = [&](std::initializer_list<const char*> wanted) {
        std::vector<std::string> out;
        for (const char* name : wanted)
          for (const auto& a : args)
            if (a.rfind(std::string(name) + "=", 0) == 0) out.push_back(a);
        return fmt::format("{}", fmt::join(out, ", "));
      };
      const std::string scores =
          pick({"SCALE", "H", "M", "N", "D", "Q_SB", "Q_SH", "Q_SM", "Q_SD", "K_SB", "K_SH", "K_SN", "K_SD", "KV_GROUP", "MASK",
                "A_SB", "A_SH", "A_SM", "A_SN", "CAUSAL", "BLOCK_M"}) +
          fmt::format(", BLOCK_N={}, BLOCK_D={}, {}", bn, c.at("block_d").get<std::int64_t>(), prec);
      // The second product sums over the keys in steps of block_d, as the first sums over the head dimension.
      // With v_k_major the values are first copied keys-contiguous ([batch, heads, DV, N] in memory, the same
      // logical shape), so the TF32 instructions read each tile of them as it lies.
      const bool v_k_major = c.value("v_k_major", 0) == 1;
      const std::string v_strides =
          v_k_major ? fmt::format("V_SB={}, V_SH={}, V_SN=1, V_SD={}", heads * dv * n, dv * n, n)
                    : pick({"V_SB", "V_SH", "V_SN", "V_SD"});
      const std::string stage_v =
          v_k_major ? fmt::format("        v = ka_k_major(v, {}, {}, {}, ({}, {}, {}), {})  # the values, keys contiguous\n",
                                  batch * heads, dv, n, *values_batch_stride(), v.strides[3], v.strides[2], n)
                    : "";
      const std::string pv = pick({"H", "M", "N", "DV"}) + ", " + v_strides + ", " + pick({"KV_GROUP", "CAUSAL", "BLOCK_M"}) +
                             fmt::format(", BLOCK_N={}, BLOCK_DV={}, {}", c.at("block_d").get<std::int64_t>(), bdv, prec);
      const std::int64_t n_p2 = std::max<std::int64_t>(pow2_at_least(n), 16);
      const std::string launch_lines =
          render_part("launch_materialized", {{"HEADS", std::to_string(batch * heads)},
                                         {"M", std::to_string(m)},
                                         {"N", std::to_string(n)},
                                         {"Q_BLOCKS", std::to_string(cdiv(m, bm))},
                                         {"K_BLOCKS", std::to_string(cdiv(n, bn))},
                                         {"DV_BLOCKS", std::to_string(cdiv(dv, bdv))},
                                         {"ROWS", std::to_string(batch * heads * m)},
                                         {"N_P2", std::to_string(n_p2)},
                                         {"SOFTMAX_WARPS", std::to_string(std::clamp<std::int64_t>(n_p2 / 256, 1, 16))},
                                         {"SCORE_ARGS", scores},
                                         {"PV_ARGS", pv},
                                         {"STAGE_V_K_MAJOR", stage_v},
                                         {"NUM_WARPS", std::to_string(c.at("num_warps").get<int>())},
                                         {"NUM_STAGES", std::to_string(c.at("num_stages").get<int>())}});
      return {"kernel",
              {{"CAUSAL_TEXT", causal ? " (causal)" : ""},
               {"HEADS", std::to_string(batch * heads)},
               {"M", std::to_string(m)},
               {"N", std::to_string(n)},
               {"D", std::to_string(d)},
               {"DV", std::to_string(dv)},
               {"PLAN", fmt::format("The scores go through a workspace: a product of {} x {} tiles over the head "
                                    "dimension, a softmax of each row of {} keys, then a product of {} x {} tiles "
                                    "over the keys; no score is computed twice, however wide the heads.",
                                    bm, bn, n, bm, bdv)},
               {"ATTENTION_KERNEL",
                render("materialized",
                       {{"K_MAJOR_COPY", v_k_major ? shared_helper("k_major_copy") + "\n\n\n" : std::string()}})},
               {"Q", q.expr},
               {"K", k.expr},
               {"V", v.expr},
               {"A", mask_kind ? mask.expr : "q"},
               {"OUT_SHAPE", py_tuple(out_shape)},
               {"DTYPE", dtype},
               {"LAUNCH", launch_lines}}};
    }
    if (variant == "whole") {
      const std::int64_t keys = std::max<std::int64_t>(pow2_at_least(n), 16);
      args.push_back(fmt::format("N_P2={}", keys));
      plan = fmt::format(
          "Fused into one kernel: the scores never leave the chip. Each program holds the scores of "
          "{} queries against all {} keys.",
          bm, n);
    } else {
      args.push_back(fmt::format("BLOCK_N={}", c.at("block_n").get<std::int64_t>()));
      programs *= cdiv(dv, bdv);
      plan = fmt::format(
          "Fused into one kernel: the scores never leave the chip. Each program walks the keys in "
          "blocks of {} for {} queries and {} output columns.",
          c.at("block_n").get<std::int64_t>(), bm, bdv);
    }
    args.push_back(fmt::format("BLOCK_D={}", c.at("block_d").get<std::int64_t>()));
    args.push_back(fmt::format("BLOCK_DV={}", bdv));
    args.push_back(prec);
    return {"kernel",
            {{"CAUSAL_TEXT", causal ? " (causal)" : ""},
             {"HEADS", std::to_string(batch * heads)},
             {"M", std::to_string(m)},
             {"N", std::to_string(n)},
             {"D", std::to_string(d)},
             {"DV", std::to_string(dv)},
             {"PLAN", plan},
             {"ATTENTION_KERNEL", render(variant, {})},
             {"Q", q.expr},
             {"K", k.expr},
             {"V", v.expr},
             {"A", mask_kind ? mask.expr : "q"},
             {"OUT_SHAPE", py_tuple(out_shape)},
             {"DTYPE", dtype},
             {"LAUNCH", render_part("launch_fused", {{"PROGRAMS", std::to_string(programs)},
                                                {"ARGS", fmt::format("{}", fmt::join(args, ", "))},
                                                {"NUM_WARPS", std::to_string(c.at("num_warps").get<int>())},
                                                {"NUM_STAGES", std::to_string(c.at("num_stages").get<int>())}})}}};
  }
};

Recognition fail(std::string why) { return {nullptr, std::move(why)}; }

// Argument positions of each fused op: dropout, is_causal, a mask or bias that must be None.
struct Form {
  std::size_t dropout, causal;
  int bias;  // -1: none in the schema
};

std::optional<Form> form_of(const std::string& t) {
  if (t == "aten._scaled_dot_product_flash_attention_for_cpu.default") return Form{3, 4, -1};
  if (t == "aten._scaled_dot_product_efficient_attention.default") return Form{5, 6, 3};
  if (t == "aten._scaled_dot_product_flash_attention.default") return Form{3, 4, -1};
  if (t == "aten._scaled_dot_product_cudnn_attention.default") return Form{5, 6, 3};
  return std::nullopt;
}

// A node that only re-views its input (expand to the same size, view, reshape, clone): followed through.
// A permute that moves only axes of size 1 (einsum's decomposition inserts and moves such axes around its
// products): the elements stay in their order.
bool moves_only_unit_axes(const Node& n) {
  if (n.target != "aten.permute.default" || n.args.size() < 2 || n.args[1].kind != Arg::Kind::list) return false;
  const auto& shape = n.meta.shape;
  if (shape.size() != n.args[1].items.size()) return false;
  std::int64_t last = -1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    if (!n.args[1].items[i].is_number()) return false;
    auto d = static_cast<std::int64_t>(n.args[1].items[i].number());
    if (d < 0) d += static_cast<std::int64_t>(shape.size());
    if (d < last) return false;
    last = d;
  }
  return true;
}

bool re_views(const Node& n) {
  return n.target == "aten.expand.default" || n.target == "aten.view.default" || n.target == "aten._unsafe_view.default" ||
         n.target == "aten.reshape.default" || n.target == "aten.clone.default" || n.target == "aten.alias.default" ||
         n.target == "aten.unsqueeze.default" || n.target == "aten.squeeze.dim" || n.target == "aten.squeeze.dims" ||
         n.target == "aten.squeeze.default" || moves_only_unit_axes(n);
}

const Node* through_views(const OpGraph& g, const Node* n) {
  while (n && re_views(*n) && !n->args.empty() && n->args[0].kind == Arg::Kind::ref) {
    const Node* src = g.find_node(n->args[0].ref);
    if (!src) return n;
    n = src;
  }
  return n;
}

// The reference of `n`'s argument i, through re-views; the graph-input ref where the chain ends at a leaf.
std::string source_of(const OpGraph& g, const std::string& ref) {
  std::string r = ref;
  for (const Node* n = g.find_node(r); n && re_views(*n) && !n->args.empty() && n->args[0].kind == Arg::Kind::ref;
       n = g.find_node(r))
    r = n->args[0].ref;
  return r;
}

// Whether `mask` (added to the scores) is the causal mask PyTorch's math form builds: where(tril(ones), 0, -inf).
bool causal_mask_add(const OpGraph& g, const Node& mask) {
  if (mask.target != "aten.where.self" || mask.args.size() != 3) return false;
  const Node* tril = g.find_node(mask.args.at(0).ref);
  const Node* ones = tril && tril->target == "aten.tril.default" ? g.find_node(tril->args.at(0).ref) : nullptr;
  const Node* zero = g.find_node(mask.args.at(1).ref);
  const Node* minus = g.find_node(mask.args.at(2).ref);
  auto diag = tril ? tril->arg(1, "diagonal") : std::nullopt;
  auto value_of = [](const Node* n) -> std::optional<double> {
    if (!n || n->target != "aten.scalar_tensor.default" || n->args.empty() || !n->args[0].is_number()) return std::nullopt;
    return n->args[0].number();
  };
  return ones && ones->target == "aten.ones.default" && !(diag && diag->is_number() && diag->number() != 0) &&
         value_of(zero) == 0.0 && value_of(minus) && std::isinf(*value_of(minus)) && *value_of(minus) < 0;
}

// A square of ones built in the graph and cut to a triangle: tril (keep == true) or triu (keep == false) at
// `diagonal`, through dtype conversions. Example: torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1).
bool ones_triangle(const OpGraph& g, const std::string& ref, bool tril, double diagonal) {
  const Node* n = g.find_node(ref);
  while (n && (n->target == "aten._to_copy.default" || re_views(*n)) && !n->args.empty() && n->args[0].kind == Arg::Kind::ref)
    n = g.find_node(n->args[0].ref);
  if (!n || n->target != (tril ? "aten.tril.default" : "aten.triu.default") || n->args.empty()) return false;
  auto d = n->arg(1, "diagonal");
  if ((d && d->is_number() ? d->number() : 0.0) != diagonal) return false;
  const Node* ones = n->args[0].kind == Arg::Kind::ref ? g.find_node(n->args[0].ref) : nullptr;
  return ones && ones->target == "aten.ones.default";
}

// The mask of masked_fill(scores, m, -inf) in the math form, the keys where m is true dropped:
//   m = triu(ones, 1), or tril(ones) == 0       the causal mask, built in the graph
//   m = x == 0                                  keep where x is nonzero (GPT's registered tril buffer)
//   m = ~x                                      keep where x is true
//   m = x                                       keep where x is false
// with x a graph input or parameter (a slice of one: bias[:, :, :T, :T]).
std::string masked_fill_mask(const OpGraph& g, const Leaves& leaves, const std::string& ref, AttentionProblem& p,
                             const Leaf*& mask) {
  if (ones_triangle(g, ref, false, 1)) {
    p.causal = true;
    return "";
  }
  const Node* m = g.find_node(ref);
  const bool eq_zero = m && (m->target == "aten.eq.Scalar" || m->target == "aten.eq.Tensor") && m->args.size() == 2 &&
                       m->args[0].kind == Arg::Kind::ref && m->args[1].is_number() && m->args[1].number() == 0;
  if (eq_zero && ones_triangle(g, m->args[0].ref, true, 0)) {
    p.causal = true;
    return "";
  }
  if (eq_zero || (m && m->target == "aten.logical_not.default" && !m->args.empty() && m->args[0].kind == Arg::Kind::ref)) {
    mask = leaves.find(m->args[0].ref);
    p.mask_kind = 2;
  } else {
    mask = leaves.find(ref);
    p.mask_kind = 3;
  }
  if (!mask) return "attention with a computed mask: the attention family reads a mask that is a graph input or a parameter";
  return "";
}

// k.repeat_interleave(g, dim=1) of a [B, H, S, D] input as it traces: view(clone(expand(unsqueeze(k, 2),
// [B, H, g, S, D])), [B, H * g, S, D]). The input's leaf and g; nullopt for anything else.
std::optional<std::pair<const Leaf*, std::int64_t>> repeated_heads(const OpGraph& g, const Leaves& leaves,
                                                                   const std::string& ref) {
  const Node* view = g.find_node(ref);
  if (!view || !re_views(*view) || view->args.empty() || view->args[0].kind != Arg::Kind::ref) return std::nullopt;
  const Node* n = g.find_node(view->args[0].ref);
  while (n && (n->target == "aten.clone.default" || n->target == "aten.alias.default") && !n->args.empty() &&
         n->args[0].kind == Arg::Kind::ref)
    n = g.find_node(n->args[0].ref);
  if (!n || n->target != "aten.expand.default" || n->args.empty() || n->args[0].kind != Arg::Kind::ref) return std::nullopt;
  const Node* unsqueeze = g.find_node(n->args[0].ref);
  if (!unsqueeze || unsqueeze->target != "aten.unsqueeze.default" || int_arg(*unsqueeze, 1, "dim") != 2 ||
      unsqueeze->args[0].kind != Arg::Kind::ref)
    return std::nullopt;
  const Leaf* leaf = leaves.find(unsqueeze->args[0].ref);
  const auto& e = n->meta.shape;
  if (!leaf || leaf->view.shape.size() != 4 || e.size() != 5) return std::nullopt;
  const auto& s = leaf->view.shape;
  if (e[0] != s[0] || e[1] != s[1] || e[3] != s[2] || e[4] != s[3] ||
      view->meta.shape != std::vector<std::int64_t>{s[0], s[1] * e[2], s[2], s[3]})
    return std::nullopt;
  return std::pair{leaf, e[2]};
}

// PyTorch's math attention, as a CPU (and some GPU) traces it when no fused kernel applies:
//   S = bmm(q * c1, k^T * c2) [* c3 or / c3] [+ mask]; P = softmax(S, -1); O = bmm(P, v) (mm over 2-D ones)
// with the causal mask where(tril(ones(M, N)), 0, -inf). Returns the attention's parameters, or why not.
std::string match_math_attention(const OpGraph& g, const Leaves& leaves, AttentionProblem& p) {
  const Node* out = g.find_node(g.outputs.front());
  const Node* bmm2 = through_views(g, out);
  // bmm over [batch, length, dim] operands, mm over [length, dim] ones.
  auto product = [](const Node* n) { return n && (n->target == "aten.bmm.default" || n->target == "aten.mm.default"); };
  if (!product(bmm2)) return "the graph has no scaled dot-product attention";
  const Node* sm = through_views(g, g.find_node(bmm2->args.at(0).ref));
  if (!sm || (sm->target != "aten._safe_softmax.default" && sm->target != "aten._softmax.default"))
    return "the graph has no scaled dot-product attention";
  auto dim = sm->arg(1, "dim");
  if (!dim || !dim->is_number() || (dim->number() != -1 && dim->number() != static_cast<double>(sm->meta.shape.size()) - 1))
    return "a softmax over another axis than the keys'";
  const Node* scores = g.find_node(sm->args.at(0).ref);
  const Leaf* mask = nullptr;  // a mask read from a graph input or parameter, its kind in p.mask_kind
  if (scores && scores->target == "aten.add.Tensor" && scores->args.size() == 2 && scores->args[1].kind == Arg::Kind::ref) {
    if (const Node* added = g.find_node(scores->args[1].ref); added && causal_mask_add(g, *added)) {
      p.causal = true;
    } else if ((mask = leaves.find(scores->args[1].ref))) {
      p.mask_kind = 1;  // a float mask added to the scores
    } else {
      return "attention with a mask other than the causal one or an input or parameter added to the scores";
    }
    scores = g.find_node(scores->args.at(0).ref);
  } else if (scores && scores->target.starts_with("aten.masked_fill") && scores->args.size() == 3 &&
             scores->args[1].kind == Arg::Kind::ref) {
    // masked_fill(S, m, -inf): the keys where m is true are dropped.
    if (!scores->args[2].is_number() || scores->args[2].number() != -std::numeric_limits<double>::infinity())
      return "attention scores filled with a value other than -inf";
    if (auto why = masked_fill_mask(g, leaves, scores->args[1].ref, p, mask); !why.empty()) return why;
    scores = g.find_node(scores->args.at(0).ref);
  }
  // A scale on the scores themselves: S = bmm(q, k^T) * c, or / c.
  double scale = 1.0;
  if (scores && scores->args.size() > 1 && scores->args[0].kind == Arg::Kind::ref && scores->args[1].is_number() &&
      (scores->target == "aten.mul.Tensor" || scores->target == "aten.mul.Scalar" ||
       scores->target == "aten.div.Tensor" || scores->target == "aten.div.Scalar")) {
    const double c = scores->args[1].number();
    const bool div = scores->target.starts_with("aten.div");
    if (div && c == 0) return "scores divided by zero";
    scale = div ? 1.0 / c : c;
    scores = g.find_node(scores->args[0].ref);
  }
  const Node* bmm1 = through_views(g, scores);
  if (!product(bmm1) || bmm1->target != bmm2->target) return "the graph has no scaled dot-product attention";
  // q * c1 and k^T * c2 (either scale absent when it is 1), each a leaf underneath.
  // Keys and values repeated over groups of query heads (repeat_interleave; the keys perhaps transposed after):
  // read once a group, as leaves of their own kept here.
  std::deque<Leaf> repeated;
  std::int64_t group = 1;
  auto kv_leaf = [&](const std::string& r) -> const Leaf* {
    if (const Leaf* l = leaves.find(r)) return l;
    const Node* n = g.find_node(r);
    std::string inner = r;
    bool transposed = false;
    if (n && n->target == "aten.transpose.int" && !n->args.empty() && n->args[0].kind == Arg::Kind::ref &&
        n->meta.shape.size() == 4) {
      const auto d0 = int_arg(*n, 1, "dim0"), d1 = int_arg(*n, 2, "dim1");
      auto last_two = [](std::optional<std::int64_t> d) { return d && (*d == -1 || *d == -2 || *d == 2 || *d == 3); };
      if (!last_two(d0) || !last_two(d1) || *d0 == *d1 || (*d0 + 4) % 4 == (*d1 + 4) % 4) return nullptr;
      inner = n->args[0].ref;
      transposed = true;
    }
    auto rep = repeated_heads(g, leaves, inner);
    if (!rep || (group != 1 && group != rep->second)) return nullptr;
    group = rep->second;
    Leaf l = *rep->first;
    if (transposed) {
      std::swap(l.view.shape[2], l.view.shape[3]);
      std::swap(l.view.stride[2], l.view.stride[3]);
    }
    repeated.push_back(l);
    return &repeated.back();
  };
  auto scaled_leaf = [&](const std::string& ref, bool keys) -> const Leaf* {
    std::string r = source_of(g, ref);
    // q * c or q / c before the product (mul.Scalar, or mul.Tensor / div.Tensor of a number).
    if (const Node* n = g.find_node(r); n && n->args.size() > 1 && n->args[0].kind == Arg::Kind::ref && n->args[1].is_number() &&
                                        (n->target == "aten.mul.Scalar" || n->target == "aten.mul.Tensor" ||
                                         ((n->target == "aten.div.Tensor" || n->target == "aten.div.Scalar") &&
                                          n->args[1].number() != 0))) {
      scale *= n->target.starts_with("aten.div") ? 1.0 / n->args[1].number() : n->args[1].number();
      r = source_of(g, n->args[0].ref);
    }
    return keys ? kv_leaf(r) : leaves.find(r);
  };
  const Leaf* q = scaled_leaf(bmm1->args.at(0).ref, false);
  const Leaf* kt = scaled_leaf(bmm1->args.at(1).ref, true);
  // The values through their re-views, stopping where they are a repeat over groups of query heads (itself a
  // view of an expand, which source_of would walk past).
  auto values_leaf = [&](std::string r) -> const Leaf* {
    for (const Node* n = g.find_node(r); n && !repeated_heads(g, leaves, r) && re_views(*n) && !n->args.empty() &&
                                         n->args[0].kind == Arg::Kind::ref;
         n = g.find_node(r))
      r = n->args[0].ref;
    return kv_leaf(r);
  };
  const Leaf* v = values_leaf(bmm2->args.at(1).ref);
  if (!q || !kt || !v) return "an attention operand is computed: the attention family reads graph inputs";
  // [batch, length, dim] operands (two bmm of 3-D tensors) are one head each: a heads axis of 1; [length,
  // dim] ones (two mm) one batch of one head.
  auto four_d = [](const StridedView& view) {
    StridedView with_heads = view;
    // Axes of size 1 past the fourth, from the last (einsum's k^T as [B, H, D, N, 1]).
    for (std::size_t i = with_heads.shape.size(); i-- > 0 && with_heads.shape.size() > 4;)
      if (with_heads.shape[i] == 1) {
        with_heads.shape.erase(with_heads.shape.begin() + static_cast<std::ptrdiff_t>(i));
        with_heads.stride.erase(with_heads.stride.begin() + static_cast<std::ptrdiff_t>(i));
      }
    while (with_heads.shape.size() == 2 || with_heads.shape.size() == 3) {
      const auto at = with_heads.shape.size() == 3 ? 1 : 0;
      with_heads.shape.insert(with_heads.shape.begin() + at, 1);
      with_heads.stride.insert(with_heads.stride.begin() + at, 0);
    }
    return with_heads;
  };
  const StridedView qv = four_d(q->view), kv = four_d(kt->view), vv = four_d(v->view);
  if (qv.shape.size() != 4 || kv.shape.size() != 4 || vv.shape.size() != 4)
    return "attention over operands that are not [batch, heads, length, dim], [batch, length, dim] or [length, dim]";
  auto dtype_of = [&](const Leaf* l) { return g.meta_of(l->base)->dtype; };
  // A slice of an input (q, k, v = qkv.unbind(0)) starts its pointer where the slice does.
  auto expr_of = [&](const Leaf* l) { return leaf_tensor_expr(*owned_tensor_expr(g, l->base), l->view); };
  p.q = {expr_of(q), qv.stride};
  // k^T is [B, H, D, N]: k's own strides swap its last two.
  p.k = {expr_of(kt), {kv.stride[0], kv.stride[1], kv.stride[3], kv.stride[2]}};
  p.v = {expr_of(v), vv.stride};
  const auto& qs = qv.shape;
  const auto& ks = kv.shape;
  const auto& vs = vv.shape;
  if (dtype_of(q) != dtype_of(kt) || dtype_of(kt) != dtype_of(v) || !float_dtype(dtype_of(q)))
    return "attention operands of different or non-float dtypes";
  if (qs[0] != ks[0] || qs[1] != ks[1] * group || qs[0] != vs[0] || qs[1] != vs[1] * group || qs[3] != ks[2] ||
      ks[3] != vs[2])
    return "attention operands whose batch, heads, lengths or dimensions do not match";
  p.kv_group = group;
  p.batch = qs[0];
  p.heads = qs[1];
  p.m = qs[2];
  p.n = ks[3];
  p.d = qs[3];
  p.dv = vs[3];
  p.dtype = dtype_of(q);
  p.scale = scale;
  if (mask) {
    const auto dtype = g.meta_of(mask->base)->dtype;
    if (p.mask_kind == 1 && !float_dtype(dtype))
      return fmt::format("attention with a mask of dtype {} added to the scores", dtype);
    auto strides = broadcast_strides(mask->view, {p.batch, p.heads, p.m, p.n});
    if (!strides) return "attention with a mask that does not broadcast to [batch, heads, queries, keys]";
    p.mask.expr = expr_of(mask);
    p.mask.strides = *strides;
  }
  return "";
}

// Whether `ref` is a node of one value, `value` (a scalar_tensor or a 0-d constant).
bool holds_value(const OpGraph& g, const std::string& ref, double value) {
  if (const Node* n = g.find_node(ref); n && n->target == "aten.scalar_tensor.default")
    return n->args.size() == 1 && n->args[0].is_number() && n->args[0].number() == value;
  const auto* c = g.find_constant(ref);
  return c && c->value && *c->value == value;
}

// The attention's mask: a float tensor added to the scores, or a boolean one (traced as where(mask, 0, -inf))
// keeping the keys where it is true; read as a graph input or parameter, broadcast to [B, H, M, N].
std::string read_mask(const OpGraph& g, const Leaves& leaves, const Arg& mask, AttentionProblem& p) {
  if (p.causal) return "attention with both a mask and is_causal";
  if (mask.kind != Arg::Kind::ref) return "attention with a mask that is not a tensor";
  std::string ref = mask.ref;
  // CUDA's efficient attention pads the mask's last dimension to a multiple of 16 and slices the keys back:
  // the same values.
  if (const Node* cut = g.find_node(ref); cut && cut->target == "aten.slice.Tensor" && !cut->args.empty() &&
                                          cut->args[0].kind == Arg::Kind::ref) {
    const Node* pad = g.find_node(cut->args[0].ref);
    const auto dim = int_arg(*cut, 1, "dim"), start = int_arg(*cut, 2, "start"), end = int_arg(*cut, 3, "end");
    const auto rank = static_cast<std::int64_t>(cut->meta.shape.size());
    auto widths = pad ? pad->arg(1, "pad") : std::nullopt;
    if (pad && pad->target == "aten.constant_pad_nd.default" && !pad->args.empty() &&
        pad->args[0].kind == Arg::Kind::ref && dim && (*dim == -1 || *dim == rank - 1) && start.value_or(0) == 0 &&
        end && *end == p.n && widths && widths->kind == Arg::Kind::list && widths->items.size() == 2 &&
        widths->items[0].is_number() && widths->items[0].number() == 0)
      ref = pad->args[0].ref;
  }
  p.mask_kind = 1;
  // A boolean mask as CUDA's fused ops receive it, zeros_like(m, float) with -inf filled where not m, or as the
  // CPU's does, where(m, 0, -inf); perhaps expanded to [B, H, M, N] (a broadcast the mask's strides give anyway).
  if (const Node* f = through_views(g, g.find_node(ref)); f && f->target.rfind("aten.masked_fill", 0) == 0 &&
                                                          f->args.size() == 3 && f->args[1].kind == Arg::Kind::ref) {
    const Node* zeros = f->args[0].kind == Arg::Kind::ref ? g.find_node(f->args[0].ref) : nullptr;
    const Node* negated = g.find_node(f->args[1].ref);
    if (!zeros || zeros->target != "aten.zeros_like.default" || !negated ||
        negated->target != "aten.logical_not.default" || negated->args.empty() ||
        negated->args[0].kind != Arg::Kind::ref || !f->args[2].is_number() ||
        f->args[2].number() != -std::numeric_limits<double>::infinity())
      return "attention with a mask computed by a masked_fill other than a boolean mask's (-inf where false)";
    ref = negated->args[0].ref;
    p.mask_kind = 2;
  } else if (const Node* w = through_views(g, g.find_node(ref)); w && w->target == "aten.where.self" && w->args.size() == 3 &&
                                        w->args[0].kind == Arg::Kind::ref && w->args[1].kind == Arg::Kind::ref &&
                                        w->args[2].kind == Arg::Kind::ref) {
    if (!holds_value(g, w->args[1].ref, 0.0) ||
        !holds_value(g, w->args[2].ref, -std::numeric_limits<double>::infinity()))
      return "attention with a mask computed by a where other than a boolean mask's (0 where true, -inf elsewhere)";
    ref = w->args[0].ref;
    p.mask_kind = 2;
  }
  const Leaf* leaf = leaves.find(ref);
  if (!leaf) return "attention with a computed mask: the attention family reads a mask that is a graph input or a parameter";
  const auto meta = g.meta_of(leaf->base);
  if (!meta || (p.mask_kind == 2 ? meta->dtype != "bool" : !float_dtype(meta->dtype)))
    return fmt::format("attention with a mask of dtype {}: a boolean mask or a float one added to the scores",
                       meta ? meta->dtype : "unknown");
  auto strides = broadcast_strides(leaf->view, {p.batch, p.heads, p.m, p.n});
  if (!strides) return "attention with a mask that does not broadcast to [batch, heads, queries, keys]";
  p.mask.expr = *owned_tensor_expr(g, leaf->base);
  p.mask.strides = *strides;
  return "";
}

Recognition recognise_attention(const Family& family, const TraceResult& trace) {
  const OpGraph& g = trace.graph;
  if (g.outputs.size() != 1) return fail("the attention family computes one output");
  const Node* att = nullptr;
  for (const auto& n : g.nodes)
    if (form_of(n.target)) {
      if (att) return fail("more than one attention in the graph");
      att = &n;
    }
  if (!att) {
    auto p = std::make_shared<AttentionProblem>(family, trace);
    const std::string why = match_math_attention(g, find_leaves(g, /*slices=*/true), *p);
    if (!why.empty()) return fail(why);
    const auto out_meta = *g.meta_of(g.outputs.front());
    if (out_meta.shape != std::vector<std::int64_t>{p->batch, p->heads, p->m, p->dv} &&
        !(p->heads == 1 && out_meta.shape == std::vector<std::int64_t>{p->batch, p->m, p->dv}) &&
        !(p->batch == 1 && p->heads == 1 && out_meta.shape == std::vector<std::int64_t>{p->m, p->dv}))
      return fail("the attention's output is not [batch, heads, queries, value dimension]");
    p->out_shape = out_meta.shape;
    return {p, ""};
  }
  const Form form = *form_of(att->target);
  auto p = std::make_shared<AttentionProblem>(family, trace);
  auto dropout = att->arg(form.dropout, "dropout_p");
  if (dropout && dropout->is_number() && dropout->number() != 0) return fail("attention with dropout");
  // The mask: the CPU's op takes it as attn_mask, CUDA's efficient and cuDNN ones as a bias in their schema.
  auto mask = att->arg(99, "attn_mask");
  if (form.bias >= 0)
    if (auto bias = att->arg(static_cast<std::size_t>(form.bias), "attn_bias")) mask = bias;
  if (mask && is_none(mask)) mask.reset();
  auto causal = att->arg(form.causal, "is_causal");
  p->causal = causal && causal->kind == Arg::Kind::value && causal->value.is_boolean() && causal->value.get<bool>();

  const Leaves leaves = find_leaves(g);
  auto operand = [&](std::size_t i, Operand& out, std::vector<std::int64_t>& shape, std::string& dtype) -> std::string {
    auto a = att->arg(i, "");
    if (!a || a->kind != Arg::Kind::ref) return "an attention operand is not a tensor";
    const Leaf* leaf = leaves.find(a->ref);
    // Keys and values repeated over groups of query heads (repeat_interleave) are read once a group.
    if (auto rep = !leaf && i > 0 ? repeated_heads(g, leaves, a->ref) : std::nullopt) leaf = rep->first;
    if (!leaf) return "an attention operand is computed: the attention family reads graph inputs";
    if (leaf->view.shape.size() != 4) return "attention over operands that are not [batch, heads, length, dim]";
    out.expr = *owned_tensor_expr(g, leaf->base);
    out.strides = leaf->view.stride;
    shape = leaf->view.shape;
    dtype = g.meta_of(leaf->base)->dtype;
    return "";
  };
  std::vector<std::int64_t> qs, ks, vs;
  std::string qd, kd, vd;
  for (auto [i, o, s, dt] : {std::tuple{0, &p->q, &qs, &qd}, std::tuple{1, &p->k, &ks, &kd}, std::tuple{2, &p->v, &vs, &vd}})
    if (auto why = operand(static_cast<std::size_t>(i), *o, *s, *dt); !why.empty()) return fail(why);
  if (qd != kd || kd != vd || !float_dtype(qd)) return fail("attention operands of different or non-float dtypes");
  // Grouped-query attention (enable_gqa, or keys and values repeated over the query heads): each head of keys
  // and values serves qs[1] / ks[1] query heads.
  if (qs[0] != ks[0] || ks[0] != vs[0] || ks[1] != vs[1] || ks[1] == 0 || qs[1] % ks[1] != 0)
    return fail("attention whose batch or heads differ between operands, other than groups of query heads");
  p->kv_group = qs[1] / ks[1];
  if (qs[3] != ks[3] || ks[2] != vs[2]) return fail("attention operands whose lengths or dimensions do not match");
  p->batch = qs[0];
  p->heads = qs[1];
  p->m = qs[2];
  p->n = ks[2];
  p->d = qs[3];
  p->dv = vs[3];
  p->dtype = qd;
  auto scale = att->arg(99, "scale");
  p->scale = scale && scale->is_number() ? scale->number() : 1.0 / std::sqrt(static_cast<double>(p->d));
  if (mask) {
    if (auto why = read_mask(g, leaves, *mask, *p); !why.empty()) return fail(why);
  }

  // The output: the attention's first result, through layout ops that keep the element order.
  const Node* o = g.find_node(g.outputs.front());
  while (o && o != att) {
    if (o->target == "getitem") {
      auto idx = o->arg(1, "");
      if (!idx || !idx->is_number() || idx->number() != 0) return fail("only the attention's output is supported, not its logsumexp");
    } else if (!(o->target == "aten.clone.default" || o->target == "aten.alias.default" || o->target == "aten.detach.default")) {
      return fail(o->name + " (" + o->target + ") after the attention");
    }
    o = o->args.empty() || o->args[0].kind != Arg::Kind::ref ? nullptr : g.find_node(o->args[0].ref);
  }
  if (!o) return fail("the output is not the attention's");
  const auto out_meta = *g.meta_of(g.outputs.front());
  if (out_meta.shape != std::vector<std::int64_t>{p->batch, p->heads, p->m, p->dv})
    return fail("the attention's output is not [batch, heads, queries, value dimension]");
  p->out_shape = out_meta.shape;
  return {p, ""};
}

}  // namespace

KA_REGISTER_FAMILY(attention, recognise_attention);

}  // namespace kernelagent

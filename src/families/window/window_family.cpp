// The window family's recogniser: max and average pooling over the last 1 to 3 axes of an input, with
// pointwise ops of one tensor and constants before it (on each input inside the tensor: relu(x) pooled) and
// after it (on each output).
// Example: nn.MaxPool1d(8, stride=1, padding=4, dilation=3) on x [64, 192, 65536] traces to
//   n0 = aten.unsqueeze(x, -2); n1 = aten.max_pool2d_with_indices(n0, [1, 8], [1, 1], [0, 4], [1, 3], False)
//   n2 = getitem(n1, 0); n4 = aten.squeeze.dim(n2, -2)
// and is a 2-D pool of windows 1 x 8 over 12288 planes of 1 x 65536, whose outputs are written as the
// squeezed [64, 192, 65520].

#include <algorithm>

#include <fmt/format.h>

#include "kernelagent/families/common/pointwise_ops.hpp"
#include "kernelagent/families/common/broadcast.hpp"
#include "kernelagent/families/common/leaves.hpp"
#include "kernelagent/families/family.hpp"
#include "kernelagent/families/model_wrapper.hpp"
#include "kernelagent/families/registry.hpp"

namespace kernelagent {

namespace {

std::optional<std::vector<std::int64_t>> ints(const Node& n, std::size_t i, std::string_view kw) {
  auto a = n.arg(i, kw);
  if (is_none(a)) return std::vector<std::int64_t>{};
  std::vector<std::int64_t> out;
  if (a->kind == Arg::Kind::list) {
    for (const auto& item : a->items) {
      if (!item.is_number()) return std::nullopt;
      out.push_back(static_cast<std::int64_t>(item.number()));
    }
    return out;
  }
  if (a->is_number()) return std::vector<std::int64_t>{static_cast<std::int64_t>(a->number())};
  return std::nullopt;
}

// A window argument for `s` spatial axes: one value for all, or one each; `def` when empty.
std::optional<std::vector<std::int64_t>> per_axis(std::vector<std::int64_t> v, std::size_t s,
                                                  const std::vector<std::int64_t>& def) {
  if (v.empty()) return def;
  if (v.size() == 1) return std::vector<std::int64_t>(s, v[0]);
  if (v.size() != s) return std::nullopt;
  return v;
}

class WindowProblem final : public FamilyProblem {
 public:
  WindowProblem(const Family& f, const TraceResult& t) : FamilyProblem(f, t) {}

  bool is_max = true;
  std::size_t rank = 2;  // spatial axes pooled (a 1-D pool traces as 2-D)
  std::vector<std::int64_t> in_sizes, out_sizes, kernel, stride, padding, dilation, x_strides;
  bool count_pad = true;
  std::int64_t divisor = 0;
  // Adaptive pooling whose input is no multiple of its output along some axis: windows of varying extent,
  // `kernel` their largest (an input that is a multiple is an ordinary pool of kernel = stride = in / out).
  bool adaptive = false;
  std::vector<std::int64_t> lead, lead_strides;  // the planes: the axes before the pooled ones
  std::string input_expr;
  // The pointwise lines before and after the pooling, each `v = EXPR  # op` over the value `v`.
  std::vector<std::string> prologue, epilogue;
  // The tensors the epilogue reads (a parameter broadcast over the output: a per-channel bias), each loaded
  // at the output's flat index `i` through its strides over the output.
  struct Operand {
    std::string var, tensor_expr;
    std::vector<std::int64_t> shape, strides;
  };
  std::vector<Operand> epilogue_operands;
  std::vector<std::int64_t> out_shape;
  std::string out_dtype;

  std::int64_t planes() const {
    std::int64_t n = 1;
    for (auto d : lead) n *= d;
    return n;
  }
  std::int64_t out_positions() const {
    std::int64_t n = 1;
    for (auto d : out_sizes) n *= d;
    return n;
  }

  // The row variant (tile_kw 2): a segment of `block` inputs along a row serves the outputs whose windows
  // it holds whole; their count, and the inputs a whole output row's windows span.
  std::int64_t row_outputs(std::int64_t block) const {
    const std::int64_t reach = (kernel.back() - 1) * dilation.back() + 1;
    if (block < reach) return 0;
    return std::min((block - reach) / stride.back() + 1, out_sizes.back());
  }
  std::int64_t row_span() const {
    return (out_sizes.back() - 1) * stride.back() + (kernel.back() - 1) * dilation.back() + 1;
  }
  // Values a thread of the row variant holds at once: the selection tile of `block` inputs by its outputs.
  std::int64_t row_held(std::int64_t block, std::int64_t warps) const {
    return block * pow2_at_least(row_outputs(block)) / (32 * warps);
  }
  // A row segment of `block` inputs for the row and ring variants: no longer than a whole output row's windows
  // need, holding one window at least, a load of one input a thread at least (fewer only with one warp).
  bool segment_fits(std::int64_t block, std::int64_t warps) const {
    return block <= std::max<std::int64_t>(pow2_at_least(row_span()), 32) && row_outputs(block) >= 1 &&
           (block >= 32 * warps || warps == 1);
  }
  // Values a thread of the ring variant (tile_kw 3) holds at once: the segments of its `rows` output rows and
  // the one being read, and the gathered windows of a row.
  std::int64_t ring_held(std::int64_t block, std::int64_t rows, std::int64_t warps) const {
    return ((rows + 1) * block + pow2_at_least(kernel.back()) * pow2_at_least(row_outputs(block))) / (32 * warps);
  }
  // The windows overlap along an axis: neighbouring outputs' windows share inputs (a stride below the reach).
  bool overlaps(std::size_t axis) const { return stride[axis] < (kernel[axis] - 1) * dilation[axis] + 1; }
  // The ring's output rows run along the axis before the last (H); a 3-D pool's depth is the program's.
  std::size_t row_axis() const { return rank - 2; }
  // Where the ring applies: a 2-D (or 1-D) or 3-D pool whose windows overlap along a row or down the rows.
  bool ring_applies() const { return !adaptive && (overlaps(row_axis()) || overlaps(row_axis() + 1)); }

  // A large window wants few outputs a thread: each output is a run of loads, and a thread with many
  // outputs holds more loads than it keeps in flight. On the H200 (fp32, KernelBench shapes), 46's 3x3x3
  // windows ran in 2.63 ms at one output a thread (256 outputs, 8 warps) against 6.12 ms at the default's
  // eight, and 45's 11x11 windows in 9.86 ms at two (1024 outputs, 16 warps) against 21.6 ms at eight; 42's
  // 4x4 windows were fastest at eight (2.04 ms, against 2.52 at four), so small windows keep the default.
  std::vector<KnobSuggestion> suggestions() const override {
    std::vector<KnobSuggestion> out;
    // Blocks no larger than a plane's outputs allow (a small plane has fewer than 256 a program).
    const std::int64_t most = std::max<std::int64_t>(pow2_at_least(out_positions()), 128);
    auto block_of = [&](std::int64_t want) { return std::min(want, most); };
    // Neighbouring outputs whose windows start 16 bytes or more apart: a thread an output reads its own
    // window, so each load of a warp touches a sector per lane; a tile of the window's columns reads each row
    // of inputs side by side instead (a warp's load: the columns of neighbouring windows, contiguous). On the
    // H200, KernelBench 45 (11 x 11 windows, stride 11) ran at 0.42x of PyTorch a thread an output.
    const std::int64_t apart = stride.back() * x_strides.back();
    // Overlapping windows: a thread an output loads each input once per window holding it (KernelBench 42's
    // 4 x 4 windows of stride 1: 16 loads an output, 85 % of them L1 hits the warps wait on; 2.03 ms on the
    // H200, 44 % of the memory floor). The ring reads each input row once, folds it into the output rows whose
    // windows hold it, and picks the windows' columns from shared memory.
    if (ring_applies()) {
      // On the H100 (fp32, KernelBench shapes): 42 (rows overlapping too) ran 1.42 ms with 8 rows of a whole
      // row's segment at 16 warps, against 1.63 ms with one row and 2.64 ms a thread an output. 1-D windows
      // ran fastest at 4 inputs of the segment a thread: 44 in 1.42 ms with segments of 512 at 4 warps (256 at 2
      // warps 1.42, 1024 at 8 1.47; two a thread: 256 at 4 warps 1.57, 512 at 8 1.61), 41 in 2.23 ms (2.21, 2.28;
      // 2.42, 2.51), the gathered windows then 40 values a thread. A 3-D pool
      // folds its window's depths into every input row it reads: 46's 3 x 3 x 3 windows of stride 2 ran 3.14 ms
      // with 4 rows at 8 warps (3.28 with 8 rows, 3.35 a thread an output at its best); 43's dilated ones 1.79
      // to 1.92 ms, behind a thread an output (1.73 ms), which the next suggestions measure.
      const bool deep = rank == 3;
      const std::int64_t span = row_span();
      const std::int64_t rows =
          overlaps(row_axis()) ? std::min<std::int64_t>(deep ? 4 : 8, pow2_at_least(out_sizes[row_axis()])) : 1;
      const std::int64_t block = rows == 1 ? std::min<std::int64_t>(512, std::max<std::int64_t>(pow2_at_least(span), 32))
                                 : span <= 2048 ? std::max<std::int64_t>(pow2_at_least(span), 32)
                                                : 1024;
      std::int64_t warps = std::clamp<std::int64_t>(block / (rows == 1 ? 128 : 64), 1, 4);
      const std::int64_t held_most = deep ? 16 : rows == 1 ? 64 : 32;
      while (warps < 16 && ring_held(block, rows, warps) > held_most) warps *= 2;
      Config ring = {{"tile_kw", 3}, {"block", block}, {"rows", rows}, {"num_warps", warps}};
      if (valid_config(ring, nullptr, Precision::strict))
        out.push_back({ring, fmt::format("overlapping windows ({} of stride {}): each input row read once as a "
                                         "segment of {} inputs and folded into the {} output rows that hold it, the "
                                         "windows' columns picked from shared memory",
                                         fmt::join(kernel, " x "), fmt::join(stride, " x "), block, rows)});
    }
    if (rank == 2 && kernel.back() >= 4 && apart >= 4) {
      // Better still: each row of the windows read as one contiguous segment, the windows picked from it.
      const std::int64_t block = std::min<std::int64_t>(256, pow2_at_least(row_span()));
      std::int64_t warps = std::clamp<std::int64_t>(block / 64, 1, 4);
      while (warps < 16 && row_held(block, warps) > 32 && block >= 64 * warps) warps *= 2;
      if (row_outputs(block) >= 1 && row_held(block, warps) <= 64 && block >= 32 * warps)
        out.push_back({{{"tile_kw", 2}, {"block", block}, {"num_warps", warps}},
                       fmt::format("neighbouring windows start {} inputs apart: each row of {} windows read as one "
                                   "contiguous segment of {} inputs, the windows' columns picked from it",
                                   apart, row_outputs(block), block)});
    }
    if (kernel.back() >= 4 && apart >= 4)
      out.push_back({{{"tile_kw", 1}, {"block", block_of(256)}, {"num_warps", block_of(256) / 32}},
                     fmt::format("neighbouring windows start {} inputs apart: a tile of their {} columns reads each "
                                 "row of inputs coalesced",
                                 apart, kernel.back())});
    std::int64_t window = 1;
    for (auto k : kernel) window *= k;
    if (window <= kSmallWindow) return out;
    const std::string why = fmt::format("a window of {} inputs an output: one or two outputs a thread", window);
    out.push_back({{{"block", block_of(256)}, {"num_warps", block_of(256) / 32}}, why});
    out.push_back({{{"block", block_of(1024)}, {"num_warps", std::min<std::int64_t>(16, block_of(1024) / 64)}}, why});
    return out;
  }

 protected:
  // Windows of at most this many inputs keep the default outputs a thread.
  static constexpr std::int64_t kSmallWindow = 16;

  bool valid_config(const Config& c, const GpuSpec*, Precision) const override {
    const auto block = c.at("block").get<std::int64_t>(), warps = c.at("num_warps").get<std::int64_t>();
    const int mode = c.at("tile_kw").get<int>();
    const auto rows = c.at("rows").get<std::int64_t>();
    if (mode == 3) {
      // The ring variant: pools whose windows overlap along a row or down the rows (elsewhere it reads what the
      // row variant reads, through shared memory), as the row variant, and output rows no more than a plane has.
      return ring_applies() && segment_fits(block, warps) && rows <= pow2_at_least(out_sizes[row_axis()]) &&
             ring_held(block, rows, warps) <= 64;
    }
    if (rows != 1) return false;  // output rows a program are the ring's alone
    if (mode == 2) {
      if (adaptive) return false;
      // The row variant: 2-D (and 1-D) pools, a segment that fits.
      return rank == 2 && segment_fits(block, warps) && row_held(block, warps) <= 64;
    }
    const bool tile_kw = mode == 1;
    if (block > std::max<std::int64_t>(pow2_at_least(out_positions()), 128)) return false;
    if (tile_kw && kernel.back() < 2) return false;
    // The values a thread holds at once: its outputs, times the window's columns when they are a tile axis
    // (on the H200, 45_Average_Pooling_2D's 11 columns at 512 outputs and 2 warps held 128 a thread, spilled,
    // and ran 4x slower than without the tile).
    const std::int64_t per_thread = block / (32 * warps);
    const std::int64_t held = block * (tile_kw ? pow2_at_least(kernel.back()) : 1) / (32 * warps);
    return (per_thread >= 1 || warps == 1) && held <= 64;
  }

  // The epilogue's tensors as extra pointer arguments of the pool kernel and of ka_epilogue.
  std::string epi_ptrs() const {
    std::string out;
    for (const auto& o : epilogue_operands) out += fmt::format(", {}_ptr", o.var);
    return out;
  }

  Emission emission(const Config& c) const override {
    const auto block = c.at("block").get<std::int64_t>();
    const std::string plane_offset = flat_offset(lead, lead_strides, "plane");
    std::map<std::string, std::string> v = {{"PLANE_OFFSET", plane_offset}, {"EPI_PTRS", epi_ptrs()}};
    const int mode = c.at("tile_kw").get<int>();
    const std::string pool =
        render(mode == 3 ? "pool_ring" : mode == 2 ? "pool2d_rows" : rank == 2 ? "pool2d" : "pool3d", v);
    std::vector<std::string> args = {fmt::format("IS_MAX={}", is_max ? "True" : "False")};
    const char* axes2[] = {"H", "W"};
    const char* axes3[] = {"D", "H", "W"};
    auto names = [&](std::size_t i) { return std::string(rank == 2 ? axes2[i] : axes3[i]); };
    // The ring takes three axes; a 2-D pool is one depth of it (size, window, stride, dilation 1, no padding).
    const bool depth_of_one = mode == 3 && rank == 2;
    auto axis_args = [&](const std::string& prefix, const std::vector<std::int64_t>& sizes, std::int64_t depth) {
      if (depth_of_one) args.push_back(fmt::format("{}D={}", prefix, depth));
      for (std::size_t i = 0; i < rank; ++i) args.push_back(fmt::format("{}{}={}", prefix, names(i), sizes[i]));
    };
    axis_args("", in_sizes, 1);
    axis_args("O", out_sizes, 1);
    axis_args("K", kernel, 1);
    axis_args("S", stride, 1);
    axis_args("P", padding, 0);
    axis_args("D", dilation, 1);
    axis_args("X_S", x_strides, 0);
    args.push_back(fmt::format("COUNT_PAD={}", count_pad ? "True" : "False"));
    args.push_back(fmt::format("DIVISOR={}", divisor));
    if (mode != 3) args.push_back(fmt::format("TILE_KW={}", mode == 2 ? "2" : mode == 1 ? "True" : "False"));
    args.push_back(fmt::format("KW_P2={}", pow2_at_least(kernel.back())));
    args.push_back(fmt::format("BLOCK={}", block));
    if (mode != 3) args.push_back(fmt::format("BLOCKS={}", cdiv(out_positions(), block)));
    if (mode < 2) args.push_back(fmt::format("ADAPTIVE={}", adaptive ? "True" : "False"));
    std::int64_t programs = planes() * cdiv(out_positions(), block);
    if (mode >= 2) {
      const std::int64_t row_out = row_outputs(block), row_blocks = cdiv(out_sizes.back(), row_out);
      args.push_back(fmt::format("ROW_OUT={}", row_out));
      args.push_back(fmt::format("ROW_OUT_P2={}", pow2_at_least(row_out)));
      args.push_back(fmt::format("ROW_BLOCKS={}", row_blocks));
      programs = planes() * out_sizes[0] * row_blocks;
      if (mode == 3) {
        const auto rows = c.at("rows").get<std::int64_t>(), groups = cdiv(out_sizes[row_axis()], rows);
        args.push_back(fmt::format("ROWS={}", rows));
        args.push_back(fmt::format("ROW_GROUPS={}", groups));
        programs = planes() * (rank == 3 ? out_sizes[0] : 1) * groups * row_blocks;
      }
    }
    std::string what =
        adaptive ? fmt::format("Adaptive {} pooling ({}-D, outputs {} of inputs {}: windows of {} at most)",
                               is_max ? "max" : "average", rank, fmt::join(out_sizes, "x"), fmt::join(in_sizes, "x"),
                               fmt::join(kernel, "x"))
                 : fmt::format("{} pooling ({}-D window {}, stride {}, padding {}, dilation {})", is_max ? "Max" : "Average",
                               rank, fmt::join(kernel, "x"), fmt::join(stride, "x"), fmt::join(padding, "x"),
                               fmt::join(dilation, "x"));
    auto helper = [](const std::string& head, const std::vector<std::string>& lines, const std::string& ret) {
      std::string out = head;
      for (const auto& l : lines) out += "\n    " + l;
      return out + "\n    return " + ret;
    };
    const std::string prologue_fn = helper(
        prologue.empty() ? "    # No pointwise ops before the pooling." : "    # The pointwise ops before the pooling, on the inputs inside the tensor: the padding stays `fill`.",
        prologue, prologue.empty() ? "v" : "tl.where(ok, v, fill)");
    std::vector<std::string> epilogue_lines;
    std::string epi_ptrs, epi_args;
    for (const auto& o : epilogue_operands) {
      // One value for every output (a 0-d parameter): read once, a scalar the block broadcasts.
      const std::string at = flat_offset(o.shape, o.strides, "i");
      epilogue_lines.push_back(at == "0" ? fmt::format("{} = tl.load({}_ptr).to(tl.float32)", o.var, o.var)
                                         : fmt::format("{} = tl.load({}_ptr + {}, mask=ok, other=0).to(tl.float32)",
                                                       o.var, o.var, at));
      epi_ptrs += fmt::format(", {}_ptr", o.var);
      epi_args += o.tensor_expr + ", ";
    }
    epilogue_lines.insert(epilogue_lines.end(), epilogue.begin(), epilogue.end());
    const std::string epilogue_fn = helper(
        epilogue.empty() ? "    # No pointwise ops after the pooling."
                         : "    # The pointwise ops after the pooling, on each output (flat index i of the output, where ok).",
        epilogue_lines, "v");
    if (!prologue.empty() || !epilogue.empty())
      what += fmt::format(" with pointwise ops ({} before, {} after)", prologue.size(), epilogue.size());
    return {"kernel",
            {{"WHAT", what},
             {"PROLOGUE", prologue_fn},
             {"EPILOGUE", epilogue_fn},
             {"EPI_PTRS", epi_ptrs},
             {"EPI_ARGS", epi_args},
             {"PLANES", std::to_string(planes())},
             {"POOL_KERNEL", pool},
             {"OUT_SHAPE", py_tuple(out_shape)},
             {"OUT_DTYPE", out_dtype},
             {"INPUT", input_expr},
             {"PROGRAMS", std::to_string(programs)},
             {"ARGS", fmt::format("{}", fmt::join(args, ", "))},
             {"NUM_WARPS", std::to_string(c.at("num_warps").get<int>())}}};
  }
};

Recognition fail(std::string why) { return {nullptr, std::move(why)}; }

// The tensor a pointwise op of the chain reads: its one argument that is a node, not a constant's literal.
// A computed node comes first (after the pooling the chain is the pooled value, a parameter beside it a leaf).
std::optional<std::string> chain_arg(const OpGraph& g, const Node& n, const Leaves& leaves) {
  std::optional<std::string> first;
  for (const auto& a : n.args)
    if (a.kind == Arg::Kind::ref) {
      const auto* k = g.find_constant(a.ref);
      if (k && k->value && !k->owned()) continue;
      if (!leaves.find(a.ref)) return a.ref;
      if (!first) first = a.ref;
    }
  return first;
}

// One pointwise op before the pooling of the value `value` (a node's first argument) and constants, as a
// line `v = EXPR  # op`; why not where it reads another tensor or is no pointwise op.
PointwiseExpr pointwise_line(const OpGraph& g, const Node& n, const std::string& value, const std::string& where) {
  std::string other;
  OperandFn operand = [&](const Arg& a) -> std::optional<std::string> {
    if (a.kind != Arg::Kind::ref) return std::nullopt;
    if (a.ref == value) return "v";
    if (const auto* k = g.find_constant(a.ref); k && k->value && !k->owned()) return float_literal(*k->value);
    other = a.ref;
    return std::nullopt;
  };
  auto e = pointwise_expr(n, operand, "tl.float32");
  if (!other.empty())
    return {"", fmt::format("{} ({}) {} reads {}: only the pooled values and constants join the pooling", n.name,
                            n.target, where, other)};
  if (e.expr.empty()) return {"", fmt::format("{} ({}) {}: {}", n.name, n.target, where, e.why_not)};
  return {fmt::format("v = {}  # {}", e.expr, n.target), ""};
}

Recognition recognise_window(const Family& family, const TraceResult& trace) {
  const OpGraph& g = trace.graph;
  if (g.outputs.size() != 1) return fail("the window family computes one output");
  const Node* pool = nullptr;
  for (const auto& n : g.nodes) {
    const std::string& t = n.target;
    if (t.find("pool") != std::string::npos &&
        (t.starts_with("aten.max_pool") || t.starts_with("aten.avg_pool") || t.starts_with("aten.adaptive_max_pool") ||
         t.starts_with("aten._adaptive_avg_pool") || t.starts_with("aten.adaptive_avg_pool"))) {
      if (pool) return fail("more than one pooling in the graph");
      pool = &n;
    }
  }
  if (!pool) return fail("the graph has no max or average pooling");
  auto p = std::make_shared<WindowProblem>(family, trace);
  const std::string& t = pool->target;
  p->is_max = t.find("max_pool") != std::string::npos;
  const std::size_t s = t.find("1d") != std::string::npos ? 1 : t.find("3d") != std::string::npos ? 3 : 2;
  const bool adaptive = t.find("adaptive") != std::string::npos;

  // The pooled tensor: a graph input, possibly through layout ops (a 1-D pool's unsqueeze).
  auto x = pool->arg(0, "self");
  if (!x || x->kind != Arg::Kind::ref) return fail("the pooling reads something that is not a tensor");
  const Leaves leaves = find_leaves(g);
  // The pooled tensor: a graph input, or pointwise ops of one (and constants) seen through layout ops.
  std::vector<const Node*> before;  // from the pooling's input back to the leaf
  std::string ref = x->ref;
  while (!leaves.find(ref)) {
    const Node* n = g.find_node(ref);
    const auto next = n ? chain_arg(g, *n, leaves) : std::nullopt;
    if (!next) return fail("the pooling's input is computed from something other than one tensor's pointwise ops");
    if (auto it = leaves.why.find(n->name); it != leaves.why.end()) return fail(it->second);
    before.push_back(n);
    ref = *next;
  }
  const Leaf* leaf = leaves.find(ref);
  const auto meta = *g.meta_of(leaf->base);
  if (!float_dtype(meta.dtype)) return fail("pooling of " + meta.dtype + " values");
  StridedView view = leaf->view;
  for (auto it = before.rbegin(); it != before.rend(); ++it) {
    const Node& n = **it;
    if (is_layout_op(n.target)) {
      auto r = apply_layout_op(n, view);
      if (!r.view) return fail(n.name + " (" + n.target + ") before the pooling: " + r.why_not);
      view = *r.view;
      continue;
    }
    auto line = pointwise_line(g, n, *chain_arg(g, n, leaves), "before the pooling");
    if (!line.why_not.empty()) return fail(line.why_not);
    if (n.meta.shape != view.shape)
      return fail(fmt::format("{} ({}) before the pooling changes the shape [{}] to [{}]", n.name, n.target,
                              fmt::join(view.shape, ","), fmt::join(n.meta.shape, ",")));
    p->prologue.push_back(line.expr);
  }
  if (view.shape.size() < s + 1) return fail("the pooled input has no axis before the pooled ones");

  // Adaptive pooling's windows follow from its output size (below); one of 1 x .. x 1 stands in until then.
  auto kernel = adaptive ? std::optional<std::vector<std::int64_t>>(std::vector<std::int64_t>(s, 1)) : ints(*pool, 1, "kernel_size");
  auto stride = adaptive ? kernel : ints(*pool, 2, "stride");
  auto padding = adaptive ? std::optional<std::vector<std::int64_t>>(std::vector<std::int64_t>{}) : ints(*pool, 3, "padding");
  if (!kernel || !stride || !padding) return fail("the pooling's window arguments cannot be read");
  auto k = per_axis(*kernel, s, {});
  if (!k || k->empty()) return fail("the pooling's window cannot be read");
  auto st = per_axis(*stride, s, *k);
  auto pad = per_axis(*padding, s, std::vector<std::int64_t>(s, 0));
  std::vector<std::int64_t> dil(s, 1);
  if (p->is_max && !adaptive) {
    auto d = ints(*pool, 4, "dilation");
    if (!d) return fail("the pooling's dilation cannot be read");
    auto dd = per_axis(*d, s, std::vector<std::int64_t>(s, 1));
    if (!dd) return fail("the pooling's dilation cannot be read");
    dil = *dd;
  } else if (!adaptive) {
    auto cp = pool->arg(5, "count_include_pad");
    p->count_pad = !cp || !(cp->kind == Arg::Kind::value && cp->value.is_boolean()) || cp->value.get<bool>();
    auto dv = pool->arg(6, "divisor_override");
    if (dv && dv->is_number()) p->divisor = static_cast<std::int64_t>(dv->number());
  }
  if (!st || !pad) return fail("the pooling's stride or padding cannot be read");
  // A 1-D pool is a 2-D pool of height 1.
  if (s == 1) {
    k->insert(k->begin(), 1);
    st->insert(st->begin(), 1);
    pad->insert(pad->begin(), 0);
    dil.insert(dil.begin(), 1);
  }
  p->rank = s == 1 ? 2 : s;
  // The pooled axes are the last `s` of the input; a 1-D pool of [N, C, L] reads it as [N, C, 1, L].
  std::vector<std::int64_t> in_shape = view.shape, in_strides = view.stride;
  if (s == 1) {
    in_shape.insert(in_shape.end() - 1, 1);
    in_strides.insert(in_strides.end() - 1, 0);
  }
  const std::size_t rr = in_shape.size();
  p->in_sizes.assign(in_shape.end() - static_cast<std::ptrdiff_t>(p->rank), in_shape.end());
  p->x_strides.assign(in_strides.end() - static_cast<std::ptrdiff_t>(p->rank), in_strides.end());
  p->lead.assign(in_shape.begin(), in_shape.begin() + static_cast<std::ptrdiff_t>(rr - p->rank));
  p->lead_strides.assign(in_strides.begin(), in_strides.begin() + static_cast<std::ptrdiff_t>(rr - p->rank));
  p->kernel = *k;
  p->stride = *st;
  p->padding = *pad;
  p->dilation = dil;
  for (std::size_t i = 0; i < p->rank; ++i)
    if (p->kernel[i] < 1 || p->stride[i] < 1 || p->dilation[i] < 1 || p->padding[i] < 0)
      return fail("a pooling window, stride or dilation below 1");

  // The output: the values (not a max pool's indices), through layout ops that keep the element order, and
  // the pointwise ops after the pooling: each an epilogue line of the pooled values, constants, tensors that
  // broadcast to the output and earlier lines (LPPool's sign(f) * relu(|f|) reads f twice), in graph order.
  const std::set<std::string> live = g.ancestors(g.outputs);
  std::map<std::string, std::string> vars{{pool->name, "v"}};  // values after the pooling -> their variable
  bool after_pool = false;
  for (const auto& n : g.nodes) {
    if (&n == pool) {
      after_pool = true;
      continue;
    }
    if (!after_pool || !live.contains(n.name)) continue;
    const bool reads_pooled = std::any_of(n.args.begin(), n.args.end(), [&](const Arg& a) {
      return a.kind == Arg::Kind::ref && vars.contains(a.ref);
    });
    if (!reads_pooled) continue;
    if (n.target == "getitem") {
      auto idx = n.arg(1, "");
      if (!idx || !idx->is_number() || idx->number() != 0) return fail("only a max pool's values are supported, not its indices");
      vars[n.name] = vars.at(n.args[0].ref);
      continue;
    }
    if (is_layout_op(n.target)) {
      if (!(n.target.find("squeeze") != std::string::npos || n.target == "aten.view.default" ||
            n.target == "aten.clone.default" || n.target == "aten.alias.default") ||
          n.args[0].kind != Arg::Kind::ref || !vars.contains(n.args[0].ref))
        return fail(n.name + " (" + n.target + ") after the pooling");
      vars[n.name] = vars.at(n.args[0].ref);
      continue;
    }
    std::string other;
    OperandFn operand = [&](const Arg& a) -> std::optional<std::string> {
      if (a.kind != Arg::Kind::ref) return std::nullopt;
      if (auto it = vars.find(a.ref); it != vars.end()) return it->second;
      if (const auto* c = g.find_constant(a.ref); c && c->value && !c->owned()) return float_literal(*c->value);
      if (const Leaf* tensor = leaves.find(a.ref)) {
        if (auto strides = broadcast_strides(tensor->view, n.meta.shape)) {
          const std::string var = "e_" + a.ref;
          if (std::none_of(p->epilogue_operands.begin(), p->epilogue_operands.end(),
                           [&](const auto& op) { return op.var == var; }))
            p->epilogue_operands.push_back({var, *owned_tensor_expr(g, tensor->base), n.meta.shape, *strides});
          return var;
        }
      }
      other = a.ref;
      return std::nullopt;
    };
    auto e = pointwise_expr(n, operand, "tl.float32");
    if (!other.empty())
      return fail(fmt::format("{} ({}) after the pooling reads {}: only the pooled values, constants and tensors that "
                              "broadcast to the output join the pooling's epilogue",
                              n.name, n.target, other));
    if (e.expr.empty()) return fail(fmt::format("{} ({}) after the pooling: {}", n.name, n.target, e.why_not));
    vars[n.name] = "v_" + n.name;
    p->epilogue.push_back(fmt::format("v_{} = {}  # {}", n.name, e.expr, n.target));
  }
  auto result = vars.find(g.outputs.front());
  if (result == vars.end()) return fail("the output is not the pooling's");
  if (result->second != "v") p->epilogue.push_back("v = " + result->second);
  // The pooled shape: the pooling's own result (a getitem of it for a max pool with indices).
  std::vector<std::int64_t> pooled = pool->meta.shape;
  if (pooled.empty())
    for (const auto& n : g.nodes)
      if (n.target == "getitem" && !n.args.empty() && n.args[0].ref == pool->name && n.args.size() > 1 &&
          n.args[1].is_number() && n.args[1].number() == 0)
        pooled = n.meta.shape;
  if (pooled.size() < p->rank) return fail("the pooling's output shape is not recorded");
  p->out_sizes.assign(pooled.end() - static_cast<std::ptrdiff_t>(p->rank), pooled.end());
  if (adaptive) {
    // Output o of an axis of n inputs and m outputs pools [o * n / m, ceil((o + 1) * n / m)): where m divides
    // n that is a window and stride of n / m; elsewhere the windows vary, the largest sets the loops.
    for (std::size_t i = 0; i < p->rank; ++i) {
      const std::int64_t n = p->in_sizes[i], m = p->out_sizes[i];
      if (m < 1 || n < 1) return fail("an adaptive pooling to or of an empty axis");
      if (n % m == 0) {
        p->kernel[i] = p->stride[i] = n / m;
        continue;
      }
      p->adaptive = true;
      std::int64_t widest = 1;
      for (std::int64_t j = 0; j < m; ++j) widest = std::max(widest, ((j + 1) * n + m - 1) / m - j * n / m);
      p->kernel[i] = widest;
      p->stride[i] = 1;
    }
  }
  const auto out_meta = *g.meta_of(g.outputs.front());
  p->out_shape = out_meta.shape;
  p->out_dtype = out_meta.dtype;
  if (out_meta.numel() != p->planes() * p->out_positions()) return fail("the output is not the pooled planes");
  p->input_expr = *owned_tensor_expr(g, leaf->base);
  return {p, ""};
}

}  // namespace

KA_REGISTER_FAMILY(window, recognise_window);

}  // namespace kernelagent

// The reduction family's recogniser and validity rule: one reduction or softmax over one dimension of a
// contiguous input, seen as [OUTER, R, INNER] (reduction_family.hpp). The kernels and every launch variant
// are templates in families/reduction/.

#include "kernelagent/families/reduction/reduction_family.hpp"

#include <map>

#include <fmt/format.h>

#include "kernelagent/families/family.hpp"
#include "kernelagent/families/registry.hpp"

namespace kernelagent {

using nlohmann::json;

namespace {

// aten target -> the family's op name.
const std::map<std::string, std::string, std::less<>>& reduction_targets() {
  static const std::map<std::string, std::string, std::less<>> t = {
      {"aten._softmax.default", "softmax"}, {"aten._log_softmax.default", "log_softmax"},
      {"aten.sum.dim_IntList", "sum"},      {"aten.mean.dim", "mean"},
      {"aten.amax.default", "max"},         {"aten.amin.default", "min"},
      {"aten.max.dim", "max"},              {"aten.min.dim", "min"},
      {"aten.argmax.default", "argmax"},    {"aten.argmin.default", "argmin"},
      {"aten.prod.dim_int", "prod"}};
  return t;
}

// The index of the Triton kernel's OP constant (see kernel.py.in).
int op_code(const std::string& op) {
  static const std::map<std::string, int> codes = {{"sum", 0},    {"mean", 1},   {"max", 2}, {"min", 3},
                                                   {"argmax", 4}, {"argmin", 5}, {"prod", 6}};
  return codes.at(op);
}

bool is_softmax(const std::string& op) { return op == "softmax" || op == "log_softmax"; }

// The single reduced dimension from a dim argument (an int, or a list of one int), normalised.
std::optional<std::int64_t> one_dim(const std::optional<Arg>& a, std::size_t rank) {
  if (!a) return std::nullopt;
  const Arg* d = &*a;
  if (d->kind == Arg::Kind::list) {
    if (d->items.size() != 1) return std::nullopt;
    d = &d->items[0];
  }
  if (!d->is_number()) return std::nullopt;
  auto v = static_cast<std::int64_t>(d->number());
  if (v < 0) v += static_cast<std::int64_t>(rank);
  if (v < 0 || v >= static_cast<std::int64_t>(rank)) return std::nullopt;
  return v;
}

}  // namespace

std::optional<ReductionShape> recognise_reduction_shape(const TraceResult& trace, std::string* why_not) {
  auto fail = [&](std::string why) -> std::optional<ReductionShape> {
    if (why_not) *why_not = std::move(why);
    return std::nullopt;
  };
  const OpGraph& g = trace.graph;
  if (g.outputs.empty() || g.outputs.size() > 2)
    return fail("the reduction family computes one output (or the values and indices of a max / min)");
  // The reduction node, and for max.dim / min.dim the getitem that takes its values.
  const Node* red = nullptr;
  for (const auto& n : g.nodes) {
    if (reduction_targets().contains(n.target)) {
      if (red) return fail("more than one reduction in the graph");
      red = &n;
    } else if (n.target != "getitem") {
      return fail(n.target + " is not a reduction or softmax over one dimension");
    }
  }
  if (!red) return fail("the graph has no reduction");
  // max.dim / min.dim give (values, indices): either alone is a reduction; the indices are the arg-reduction's;
  // both are the arg-reduction that also writes the values it found.
  std::vector<int> taken;  // per output: -1 the reduction itself, else the result of max.dim / min.dim it takes
  for (const auto& name : g.outputs) {
    const Node* out = g.find_node(name);
    if (!out) return fail("the output is not computed by the graph");
    if (out == red) {
      taken.push_back(-1);
      continue;
    }
    auto src = out->arg(0, "");
    auto idx = out->arg(1, "");
    if (out->target != "getitem" || !src || src->ref != red->name || !idx || !idx->is_number() ||
        (idx->number() != 0 && idx->number() != 1))
      return fail("the output is not the values or the indices of the max/min over a dimension");
    taken.push_back(static_cast<int>(idx->number()));
  }
  const bool both = taken.size() == 2;
  if (both && (taken[0] == taken[1] || taken[0] < 0 || taken[1] < 0))
    return fail("the two outputs are not the values and the indices of one max/min over a dimension");
  const bool indices = both || taken[0] == 1;
  const Node* out = g.find_node(g.outputs[both ? (taken[0] == 1 ? 0 : 1) : 0]);
  auto x = red->arg(0, "self");
  if (!x || x->kind != Arg::Kind::ref) return fail("the reduction's input is not a tensor");
  const GraphInput* in = g.find_input(x->ref);
  if (!in || !in->is_tensor) return fail("the reduction's input is not a graph input (fuse chains later)");
  if (!in->meta.contiguous()) return fail("input " + in->name + " is not contiguous");
  const auto& dt = in->meta.dtype;
  if (dt != "float32" && dt != "float16" && dt != "bfloat16") return fail("input dtype " + dt + " is not float32, float16 or bfloat16, the dtypes the reduction family reduces");
  const std::size_t rank = in->meta.shape.size();
  if (rank == 0) return fail("a 0-d input has no dimension to reduce");
  ReductionShape s;
  s.op = reduction_targets().at(red->target);
  if (indices) s.op = s.op == "max" ? "argmax" : "argmin";
  s.input = in->name;
  // argmax / argmin without a dimension (x.argmax()): the index into the flattened tensor, one row of all
  // its elements (the input is contiguous).
  const auto dim_arg = red->arg(1, "dim");
  const bool whole = (red->target == "aten.argmax.default" || red->target == "aten.argmin.default") &&
                     is_none(dim_arg);
  if (whole) {
    for (const auto d : in->meta.shape) s.r *= d;
  } else {
    auto dim = one_dim(dim_arg, rank);
    if (!dim) return fail("the reduction is not over exactly one dimension");
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(rank); ++i) {
      const auto d = in->meta.shape[static_cast<std::size_t>(i)];
      if (i < *dim) s.outer *= d;
      else if (i == *dim) s.r = d;
      else s.inner *= d;
    }
  }
  s.out_shape = out->meta.shape;
  s.out_dtype = out->meta.dtype;
  if (both) {
    s.values_too = true;
    s.values_first = taken[0] == 0;
    s.values_dtype = dt;
  }
  // The kernels accumulate in fp32: an output asked for in float64 (x.sum(dim, dtype=torch.float64)) would
  // not have the reference's precision.
  if (s.out_dtype == "float64") return fail("a float64 output (the kernels accumulate in fp32)");
  if (s.r == 0) return fail("the reduced dimension is empty");
  return s;
}

namespace {

// The elements each program of a cooperative softmax holds: its share of the row, as a power of two.
std::int64_t coop_chunk(std::int64_t r, std::int64_t split) { return pow2_at_least(cdiv(r, split)); }

// The cooperative softmax's EXCHANGE argument: 0 counter (also a configuration recorded before the knob),
// 1 tagged, 2 spin (see ka_softmax_coop_kernel).
int exchange_code(const Config& c) {
  const std::string e = c.value("exchange", std::string("counter"));
  return e == "spin" ? 2 : e == "tagged" ? 1 : 0;
}

// SMs to fill: the GPU's, or an H200's on the CPU, where nothing is timed and the choice only shapes the space.
std::int64_t sm_count(const GpuSpec* gpu) { return gpu && gpu->sm_count > 0 ? gpu->sm_count : 132; }

constexpr std::int64_t kTileLimit = 16384;  // elements of one register tile

class ReductionProblem final : public FamilyProblem {
 public:
  ReductionProblem(const Family& f, const TraceResult& t, ReductionShape s) : FamilyProblem(f, t), shape(std::move(s)) {}
  const ReductionShape shape;

  // A reduction over a dimension that is not the innermost reads, in each of a block's rows, block_i
  // consecutive elements of the kept inner dimension: the first valid block (16 of fp32, 64 bytes) uses half
  // of each 128-byte line it fetches, 64 of them whole lines. Example: KernelBench 47 (sum over the middle
  // of [128, 4096, 4095]) ran at 1989 us with 64 x 256 against 2419 us at 16 x 1024 on the H200, and its
  // four-trial search on an H100 never reached block_i 64 (0.92x eager).
  std::vector<KnobSuggestion> suggestions() const override {
    if (shape.inner < 64) return {};
    return {{{{"block_i", 64}, {"block_r", 256}, {"num_warps", 8}},
             fmt::format("the reduced dimension is not the innermost: blocks of 64 of the {} kept inner elements "
                         "read whole 128-byte lines a row, where 16 read half of each",
                         shape.inner)}};
  }

 protected:
  bool valid_config(const Config& c, const GpuSpec* gpu, Precision) const override {
  const ReductionShape* s = &shape;
  const auto block_r = c.at("block_r").get<std::int64_t>(), block_i = c.at("block_i").get<std::int64_t>();
  // split_r came later than the other knobs: a configuration recorded without it did not split.
  const auto warps = c.at("num_warps").get<std::int64_t>(), split = c.value("split_r", std::int64_t{1});
  if ((s->inner == 1) != (block_i == 1)) return false;
  if (block_r * block_i > kTileLimit) return false;
  if (block_r > std::max<std::int64_t>(pow2_at_least(s->r), 64)) return false;
  if (block_i > std::max<std::int64_t>(pow2_at_least(s->inner), 16)) return false;

  // exchange came later too: a configuration recorded without it used the counter. Only a cooperative
  // softmax exchanges anything: elsewhere another value would be a duplicate configuration.
  if (exchange_code(c) != 0 && !(is_softmax(s->op) && split > 1)) return false;
  if (is_softmax(s->op) && split > 1) {
    // Example: softmax over rows of 393216 with split_r 24: chunks of 16384, 32 per thread at 16 warps;
    // 24 programs per row, 11 rows in flight on 132 SMs at two programs per SM.
    if (!gpu || s->inner != 1 || s->r <= kTileLimit || c.at("block_r") != family().knob_space().default_config().at("block_r"))
      return false;
    const std::int64_t chunk = coop_chunk(s->r, split), per_thread = chunk / (warps * 32);
    // Every part must hold some of the row: 16 parts of 32768 would leave the last four of 393216 empty.
    // 192 programs of a row share 132 SMs two to an SM at most: a chunk of 2048 at 2 warps is 64 registers
    // a thread, 16 such programs fit an SM, so rows stay in flight.
    return chunk >= 1024 && chunk <= 32768 && per_thread >= 4 && per_thread <= 32 && split <= 2 * sm_count(gpu) &&
           (split - 1) * chunk < s->r;
  }
  if (warps == 32 || warps == 2) return false;
  if (split > 1) {
    // Example: a sum over the last dimension of [4, 1048576] is 4 programs; 16 splits make 64.
    const std::int64_t programs = s->outer * cdiv(s->inner, block_i);
    return programs < 2 * sm_count(gpu) && cdiv(s->r, block_r) >= 2 * split;
  }
  return true;
}

  Emission emission(const Config& c) const override {
    const ReductionShape* s = &shape;
    const auto block_r = c.at("block_r").get<std::int64_t>(), block_i = c.at("block_i").get<std::int64_t>();
    const auto split = c.value("split_r", std::int64_t{1});
    const std::string warps = std::to_string(c.at("num_warps").get<int>());
    const std::string log = s->op == "log_softmax" ? "True" : "False";
    // Every kernel but the cooperative softmax runs on one flat axis of outer indices times column blocks
    // (column blocks fastest, see ka_outer_and_cols), with a reduction's splits on the third axis.
    const std::int64_t programs = s->outer * cdiv(s->inner, block_i);
    auto str = [](std::int64_t v) { return std::to_string(v); };

    std::string launch;
    if (is_softmax(s->op) && split > 1) {
      const std::int64_t chunk = coop_chunk(s->r, split);
      const int exchange = exchange_code(c);
      // The counter exchange: (max, sum) pairs and a counter per row at 0; the tagged and spin ones: a
      // 64-bit slot per program of a row at -1 (the count argument is then unused).
      const std::string buffers = render_part(exchange != 0 ? "buffers_slots" : "buffers_counter", {{"SPLIT", str(split)}});
      launch = render("launch_coop",
                      {{"ROWS", str(s->outer)},
                       {"BUFFERS", buffers},
                       {"SPLIT", str(split)},
                       {"ARGS", fmt::format("R={}, LOG={}, SPLIT={}, SPLIT_P2={}, CHUNK={}, EXCHANGE={}, num_warps={}", s->r,
                                            log, split, pow2_at_least(split), chunk, exchange, warps)}});
    } else if (is_softmax(s->op)) {
      launch = render("launch_softmax", {{"PROGRAMS", str(programs)},
                                         {"R", str(s->r)},
                                         {"INNER", str(s->inner)},
                                         {"LOG", log},
                                         {"ONE_TILE", block_r >= s->r ? "True" : "False"},
                                         {"BLOCK_R", str(block_r)},
                                         {"BLOCK_I", str(block_i)},
                                         {"NUM_WARPS", warps}});
    } else if (split > 1) {
      const bool arg = s->op == "argmax" || s->op == "argmin";
      launch = render("launch_split",
                      {{"SPLIT", str(split)},
                       {"OUTER", str(s->outer)},
                       {"INNER", str(s->inner)},
                       {"WS_IDX", arg ? fmt::format("torch.empty(({} * {} * {},), dtype=torch.int32, device=x.device)",
                                                    s->outer, split, s->inner)
                                      : std::string("ws")},
                       {"PROGRAMS", str(programs)},
                       {"R", str(s->r)},
                       {"OP", str(op_code(s->op))},
                       {"BLOCK_R", str(block_r)},
                       {"BLOCK_I", str(block_i)},
                       {"R_STEPS", str(cdiv(cdiv(s->r, block_r), split))},
                       {"NUM_WARPS", warps},
                       {"SPLIT_P2", str(pow2_at_least(split))},
                       {"VALUES", s->values_too ? "True" : "False"}});
    } else {
      launch = render("launch_reduce", {{"PROGRAMS", str(programs)},
                                        {"R", str(s->r)},
                                        {"INNER", str(s->inner)},
                                        {"OP", str(op_code(s->op))},
                                        {"BLOCK_R", str(block_r)},
                                        {"BLOCK_I", str(block_i)},
                                        {"R_STEPS", str(cdiv(s->r, block_r))},
                                        {"NUM_WARPS", warps},
                                        {"VALUES", s->values_too ? "True" : "False"}});
    }
    const std::string out_shape = fmt::format("{}{}", fmt::join(s->out_shape, ", "), s->out_shape.size() == 1 ? "," : "");
    // torch.max(x, dim) returned whole: the values beside the indices, in the graph's order.
    const std::string values_buffer =
        s->values_too ? fmt::format("        values = torch.empty(({}), dtype=torch.{}, device=x.device)", out_shape, s->values_dtype)
                      : "        values = out";
    const std::string returned = !s->values_too ? "out" : s->values_first ? "values, out" : "out, values";
    return {"kernel",
            {{"INPUT", s->input},
             {"OUT_SHAPE", out_shape},
             {"OUT_DTYPE", s->out_dtype},
             {"VALUES_BUFFER", values_buffer},
             {"RETURNED", returned},
             {"LAUNCH", strip_final_newlines(launch)}}};
  }
};

Recognition recognise_reduction(const Family& family, const TraceResult& trace) {
  std::string why;
  auto s = recognise_reduction_shape(trace, &why);
  if (!s) return {nullptr, why};
  return {std::make_shared<ReductionProblem>(family, trace, std::move(*s)), ""};
}

}  // namespace

KA_REGISTER_FAMILY(reduction, recognise_reduction);

}  // namespace kernelagent

#include "kernelagent/families/reduction/reduction_family.hpp"

#include <map>

#include <fmt/format.h>

#include "kernelagent/core/hash.hpp"
#include "kernelagent/core/template.hpp"

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
      {"aten.argmax.default", "argmax"},    {"aten.argmin.default", "argmin"}};
  return t;
}

// The index of the Triton kernel's OP constant (see kernel.py.in).
int op_code(const std::string& op) {
  static const std::map<std::string, int> codes = {{"sum", 0}, {"mean", 1}, {"max", 2}, {"min", 3}, {"argmax", 4}, {"argmin", 5}};
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

ReductionFamily::ReductionFamily(const std::filesystem::path& dir) {
  FamilyFiles files = FamilyFiles::read(dir);
  space_ = std::move(files.space);
  template_ = files.templates.at("template");
  hash_ = files.hash;
}

std::optional<ReductionShape> ReductionFamily::recognise(const TraceResult& trace, std::string* why_not) {
  auto fail = [&](std::string why) -> std::optional<ReductionShape> {
    if (why_not) *why_not = std::move(why);
    return std::nullopt;
  };
  const OpGraph& g = trace.graph;
  if (g.outputs.size() != 1) return fail("the reduction family computes one output");
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
  const Node* out = g.find_node(g.outputs.front());
  if (!out) return fail("the output is not computed by the graph");
  if (out != red) {
    auto src = out->arg(0, "");
    auto idx = out->arg(1, "");
    if (out->target != "getitem" || !src || src->ref != red->name || !idx || !idx->is_number() || idx->number() != 0)
      return fail("only the values of a max/min over a dimension are supported, not its indices");
  }
  auto x = red->arg(0, "self");
  if (!x || x->kind != Arg::Kind::ref) return fail("the reduction's input is not a tensor");
  const GraphInput* in = g.find_input(x->ref);
  if (!in || !in->is_tensor) return fail("the reduction's input is not a graph input (fuse chains later)");
  if (!in->meta.contiguous()) return fail("input " + in->name + " is not contiguous");
  const auto& dt = in->meta.dtype;
  if (dt != "float32" && dt != "float16" && dt != "bfloat16") return fail("input dtype " + dt + " is not a float");
  const std::size_t rank = in->meta.shape.size();
  if (rank == 0) return fail("a 0-d input has no dimension to reduce");
  auto dim = one_dim(red->arg(1, "dim"), rank);
  if (!dim) return fail("the reduction is not over exactly one dimension");

  ReductionShape s;
  s.op = reduction_targets().at(red->target);
  s.input = in->name;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(rank); ++i) {
    const auto d = in->meta.shape[static_cast<std::size_t>(i)];
    if (i < *dim) s.outer *= d;
    else if (i == *dim) s.r = d;
    else s.inner *= d;
  }
  s.out_shape = out->meta.shape;
  s.out_dtype = out->meta.dtype;
  if (s.r == 0) return fail("the reduced dimension is empty");
  return s;
}

std::optional<std::string> ReductionFamily::why_not(const TraceResult& trace) const {
  std::string why;
  if (!recognise(trace, &why)) return why;
  return std::nullopt;
}

bool ReductionFamily::valid(const Config& c, const TraceResult& trace, const GpuSpec*, Precision) const {
  auto s = recognise(trace, nullptr);
  if (!s) return false;
  const auto block_r = c.at("block_r").get<std::int64_t>(), block_i = c.at("block_i").get<std::int64_t>();
  if ((s->inner == 1) != (block_i == 1)) return false;
  if (block_r * block_i > 16384) return false;
  std::int64_t pow2 = 1;
  while (pow2 < s->r) pow2 *= 2;
  return block_r <= std::max<std::int64_t>(pow2, 64);
}

std::string ReductionFamily::emit(const TraceResult& trace, const Config& c, const EmitContext& ctx) const {
  std::string why;
  auto s = recognise(trace, &why);
  if (!s) throw std::runtime_error("reduction family cannot emit this problem: " + why);
  const auto block_r = c.at("block_r").get<std::int64_t>(), block_i = c.at("block_i").get<std::int64_t>();
  const int warps = c.at("num_warps").get<int>();

  std::string launch;
  if (is_softmax(s->op))
    launch = fmt::format("ka_softmax_kernel[grid](x, out, R={}, INNER={}, LOG={}, ONE_TILE={}, BLOCK_R={}, BLOCK_I={}, num_warps={})",
                         s->r, s->inner, s->op == "log_softmax" ? "True" : "False", block_r >= s->r ? "True" : "False",
                         block_r, block_i, warps);
  else
    launch = fmt::format("ka_reduce_kernel[grid](x, out, R={}, INNER={}, OP={}, BLOCK_R={}, BLOCK_I={}, num_warps={})", s->r,
                         s->inner, op_code(s->op), block_r, block_i, warps);
  return fill_template(template_, {
      {"PROBLEM", ctx.problem_label},
      {"CONFIG", c.dump()},
      {"FORWARD_PARAMS", forward_params(trace.graph)},
      {"FORWARD_CHECKS", forward_guards(trace.graph)},
      {"INPUT", s->input},
      {"OUT_SHAPE", fmt::format("{}{}", fmt::join(s->out_shape, ", "), s->out_shape.size() == 1 ? "," : "")},
      {"OUT_DTYPE", s->out_dtype},
      {"OUTER", std::to_string(s->outer)},
      {"INNER", std::to_string(s->inner)},
      {"BLOCK_I", std::to_string(block_i)},
      {"LAUNCH", launch},
  });
}

}  // namespace kernelagent

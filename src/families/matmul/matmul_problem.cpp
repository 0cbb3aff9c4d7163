#include "kernelagent/families/matmul/matmul_problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "kernelagent/families/common/batch_norm_eval.hpp"
#include "kernelagent/families/common/broadcast.hpp"
#include "kernelagent/families/common/pointwise_ops.hpp"
#include "kernelagent/families/model_wrapper.hpp"

namespace kernelagent {

bool misaligned(const MatmulOperand& op) {
  for (auto s : {op.stride_batch, op.stride_row, op.stride_col})
    if (s != 0 && s != 1 && s % 16 != 0) return true;
  return false;
}

namespace {

bool is_product(std::string_view t) {
  return t == "aten.mm.default" || t == "aten.bmm.default" || t == "aten.matmul.default" || t == "aten.mv.default";
}
// addmm(bias, a, b, beta, alpha) = beta * bias + alpha * (a @ b) (nn.Linear), and baddbmm over a batch.
bool is_biased_product(std::string_view t) { return t == "aten.addmm.default" || t == "aten.baddbmm.default"; }
bool is_triangle(std::string_view t) { return t == "aten.tril.default" || t == "aten.triu.default"; }
bool is_diag(std::string_view t) { return t == "aten.diag_embed.default" || t == "aten.diag.default"; }

bool supported_dtype(const std::string& dt) { return dt == "float32" || dt == "float16" || dt == "bfloat16"; }

// What a ref holds while the graph is walked: a graph input seen through layout ops, the product (or a
// view of it), or the square matrix diag(d) of an input vector d.
struct Value {
  enum class Kind { input_view, product_view, diag } kind = Kind::input_view;
  std::string input;
  StridedView view;
  bool raw_product = false;  // the product itself, not yet re-viewed: only there can tril/triu be fused
  std::int64_t batch_inner = 0, stride_batch_inner = 0;  // a batch of two dims (MatmulOperand's)
};

// A view that merges two or more leading dims into one batch dim (torch.matmul's reshape of expanded operands
// to [B, rows, cols] for bmm) where no single stride steps through the merged dims: the batch as two levels,
// the dims of size 1 dropped. Example: [2, 3, 32, 24] with strides [768, 0, 24, 1] (an input [2, 1, 32, 24]
// expanded) viewed as [6, 32, 24] is batch 6 = 2 x 3 with strides 768 and 0.
std::optional<Value> merged_batch(const Node& node, const Value& s) {
  const auto& shape = s.view.shape;
  const std::size_t rank = shape.size();
  const std::vector<std::int64_t>& size = node.meta.shape;  // the view's traced result
  if (s.kind != Value::Kind::input_view || s.batch_inner != 0 || rank < 4 || size.size() != 3 ||
      size[1] != shape[rank - 2] || size[2] != shape[rank - 1])
    return std::nullopt;
  std::vector<std::pair<std::int64_t, std::int64_t>> dims;  // (size, stride) of the leading dims not of size 1
  std::int64_t batch = 1;
  for (std::size_t d = 0; d + 2 < rank; ++d) {
    batch *= shape[d];
    if (shape[d] != 1) dims.emplace_back(shape[d], s.view.stride[d]);
  }
  if (dims.size() != 2 || size[0] != batch) return std::nullopt;
  Value v = s;
  v.view = StridedView{{batch, shape[rank - 2], shape[rank - 1]}, {dims[0].second, s.view.stride[rank - 2], s.view.stride[rank - 1]},
                       s.view.offset};
  v.batch_inner = dims[1].first;
  v.stride_batch_inner = dims[1].second;
  return v;
}

using Env = std::map<std::string, Value>;

// Looks up the tensor a node reads as argument i, or says why the family cannot read it.
std::variant<const Value*, std::string> operand(const OpGraph& /*graph*/, const Env& env, const Node& node, std::size_t i) {
  auto a = node.arg(i, "self");
  if (!a || a->kind != Arg::Kind::ref)
    return fmt::format("{} ({}) has an argument that is not a tensor", node.name, node.target);
  auto it = env.find(a->ref);
  if (it == env.end())
    return fmt::format("{} ({}) reads {}, which is not a tensor the family can follow", node.name, node.target, a->ref);
  return &it->second;
}

// The diagonal matrix diag(d) of a 1-D input d, from aten.diag_embed(d, 0, -2, -1) or aten.diag(d, 0).
std::variant<Value, std::string> diag_value(const Node& node, const Value& src) {
  if (src.kind != Value::Kind::input_view || src.view.shape.size() != 1)
    return fmt::format("{} ({}) builds a matrix from something other than a 1-D input vector", node.name, node.target);
  const bool embed = node.target == "aten.diag_embed.default";
  const auto offset = int_arg(node, 1, embed ? "offset" : "diagonal").value_or(0);
  if (offset != 0)
    return fmt::format("{} ({}) puts the vector on diagonal {}, not the main one", node.name, node.target, offset);
  if (embed) {
    const auto d1 = int_arg(node, 2, "dim1").value_or(-2), d2 = int_arg(node, 3, "dim2").value_or(-1);
    if (!((d1 == -2 || d1 == 0) && (d2 == -1 || d2 == 1)))
      return fmt::format("{} ({}) embeds into dims ({}, {}), not a plain square matrix", node.name, node.target, d1,
                         d2);
  }
  Value v = src;
  v.kind = Value::Kind::diag;
  return v;
}

// The operands as [batch, rows, cols] views, from a 2-D (mm) or 3-D (bmm) input view.
MatmulOperand as_operand(const Value& v) {
  const auto& s = v.view.stride;
  if (v.view.shape.size() == 2) return {v.input, 0, s[0], s[1]};
  MatmulOperand op{v.input, s[0], s[1], s[2]};
  op.batch_inner = v.batch_inner;
  op.stride_batch_inner = v.stride_batch_inner;
  return op;
}

std::variant<MatmulProblem, std::string> product(const Node& node, const Value& a, const Value& b) {
  const std::string& t = node.target;
  const auto ra = a.view.shape.size(), rb = b.view.shape.size();
  MatmulProblem p;
  if (a.kind == Value::Kind::diag && b.kind == Value::Kind::diag)
    return fmt::format("{} ({}) multiplies two diagonal matrices", node.name, t);
  if (a.kind == Value::Kind::diag || b.kind == Value::Kind::diag) {
    const bool rows = a.kind == Value::Kind::diag;
    const Value& d = rows ? a : b;
    const Value& x = rows ? b : a;
    if (t != "aten.mm.default" && t != "aten.matmul.default")
      return fmt::format("{} ({}) uses a diagonal matrix in a batched product", node.name, t);
    if (x.view.shape.size() != 2)
      return fmt::format("{} ({}) multiplies a diagonal matrix with a {}-D tensor", node.name, t, x.view.shape.size());
    p.kind = rows ? MatmulProblem::Kind::diag_rows : MatmulProblem::Kind::diag_cols;
    p.m = x.view.shape[0];
    p.n = x.view.shape[1];
    p.k = d.view.shape[0];
    if (p.k != (rows ? p.m : p.n)) return fmt::format("{} ({}) has mismatched inner dims", node.name, t);
    p.a = {d.input, 0, d.view.stride[0], 0};
    p.b = as_operand(x);
    p.output = StridedView::contiguous({p.m, p.n});
    return p;
  }
  if (t == "aten.mv.default") {
    if (ra != 2 || rb != 1) return fmt::format("{} ({}) needs a matrix and a vector", node.name, t);
    // y = A @ x is the product with B = x as a [K, 1] column; the result [M, 1] is returned as [M].
    p.m = a.view.shape[0];
    p.k = a.view.shape[1];
    p.n = 1;
    if (b.view.shape[0] != p.k) return fmt::format("{} ({}) has mismatched inner dims", node.name, t);
    p.a = as_operand(a);
    p.b = {b.input, 0, b.view.stride[0], 1};
    p.output = StridedView{{p.m}, {1}};
    return p;
  }
  const bool two_d = ra == 2 && rb == 2, three_d = ra == 3 && rb == 3;
  if ((t == "aten.mm.default" && !two_d) || (t == "aten.bmm.default" && !three_d) || (!two_d && !three_d))
    return fmt::format(
        "{} ({}) multiplies tensors of {} and {} dims: the family handles 2-D x 2-D and batched 3-D x 3-D", node.name,
        t, ra, rb);
  const auto& sa = a.view.shape;
  const auto& sb = b.view.shape;
  if (three_d && sa[0] != sb[0]) return fmt::format("{} ({}) has batch sizes {} and {}", node.name, t, sa[0], sb[0]);
  p.batch = three_d ? sa[0] : 1;
  p.m = sa[ra - 2];
  p.k = sa[ra - 1];
  p.n = sb[rb - 1];
  if (sb[rb - 2] != p.k)
    return fmt::format("{} ({}) has mismatched inner dims {} and {}", node.name, t, p.k, sb[rb - 2]);
  p.a = as_operand(a);
  p.b = as_operand(b);
  p.output = StridedView::contiguous(three_d ? std::vector<std::int64_t>{p.batch, p.m, p.n}
                                             : std::vector<std::int64_t>{p.m, p.n});
  return p;
}

}  // namespace

std::string MatmulOperand::batch_offset(const std::string& b, const std::string& stride) const {
  if (batch_inner == 0) return fmt::format("{} * {}", b, stride);
  return fmt::format("({0} // {1}) * {2} + ({0} % {1}) * {3}", b, batch_inner, stride, stride_batch_inner);
}

std::int64_t MatmulProblem::max_offset() const {
  auto reach = [](std::int64_t nb, std::int64_t nr, std::int64_t nc, const MatmulOperand& o) {
    const std::int64_t batches = o.batch_inner == 0
                                     ? (nb - 1) * o.stride_batch
                                     : (nb / o.batch_inner - 1) * o.stride_batch + (o.batch_inner - 1) * o.stride_batch_inner;
    return batches + (nr - 1) * o.stride_row + (nc - 1) * o.stride_col;
  };
  if (kind != Kind::product) {  // a is the vector d of length k, b the matrix X [m, n]
    return std::max({(k - 1) * a.stride_row, reach(1, m, n, b), m * n});
  }
  return std::max({reach(batch, m, k, a), reach(batch, k, n, b), batch * m * n});
}

std::variant<MatmulProblem, std::string> recognise_matmul(const TraceResult& trace) {
  const OpGraph& g = trace.graph;
  if (g.outputs.size() != 1)
    return fmt::format("the problem returns {} outputs: the matmul family returns one", g.outputs.size());
  // Nodes no output depends on (the unused results of a traced module) are not computed.
  const std::set<std::string> live = g.ancestors(g.outputs);
  std::size_t products = 0;
  for (const auto& node : g.nodes) {
    if (!live.contains(node.name)) continue;
    if (is_product(node.target) || is_biased_product(node.target)) {
      ++products;
    } else if (products == 0 && !is_layout_op(node.target) && !is_triangle(node.target) && !is_diag(node.target)) {
      return fmt::format(
          "{} ({}) is neither the matrix product nor a layout op or tril/triu around it: the matmul family computes "
          "one product, and pointwise ops after it",
          node.name, node.target);
    }
  }
  if (products == 0) return "the problem has no matrix product (aten.mm, aten.bmm, aten.mv or aten.matmul)";
  if (products > 1) return fmt::format("the problem has {} matrix products: the matmul family computes one", products);

  Env env;
  for (const auto& in : g.inputs) {
    if (!in.is_tensor) continue;
    StridedView v =
        in.meta.stride.empty() ? StridedView::contiguous(in.meta.shape) : StridedView{in.meta.shape, in.meta.stride};
    env[in.name] = Value{Value::Kind::input_view, in.name, v, false};
  }
  // The model's parameters and buffers (nn.Linear's weight and bias, a 0-d scale after the product) are read
  // like inputs: live, not as the values they held when traced.
  for (const auto& c : g.constants)
    if (c.owned())
      env[c.name] = Value{Value::Kind::input_view, c.name, StridedView::contiguous(c.meta.shape), false};
  std::optional<MatmulProblem> problem;
  std::map<std::string, std::string> epilogue_vars;  // product and epilogue nodes -> their variable in the tile
  // A tensor the epilogue reads besides the product: its tile variable, loaded at the output's positions.
  auto epilogue_operand = [&](const std::string& ref) -> std::optional<std::string> {
    auto it = env.find(ref);
    if (it == env.end() || it->second.kind != Value::Kind::input_view) return std::nullopt;
    const std::vector<std::int64_t>& out_shape = problem->output.shape;
    auto strides = broadcast_strides(it->second.view, out_shape);
    if (!strides) return std::nullopt;
    const std::string var = "x_" + ref;
    for (const auto& o : problem->epilogue_operands)
      if (o.var == var) return var;
    EpilogueOperand op{var, *owned_tensor_expr(g, it->second.input)};
    if (out_shape.size() == 3) op.stride_batch = (*strides)[0];
    if (out_shape.size() == 1) {
      // A matrix-vector product's [M] (or a vector-matrix product's [N]): the one axis is the rows' (columns').
      (problem->n == 1 ? op.stride_row : op.stride_col) = (*strides)[0];
    } else {
      op.stride_row = (*strides)[out_shape.size() - 2];
      op.stride_col = (*strides)[out_shape.size() - 1];
    }
    problem->epilogue_operands.push_back(op);
    return var;
  };
  for (const auto& node : g.nodes) {
    if (!live.contains(node.name)) continue;
    if (problem && !is_layout_op(node.target) && !is_triangle(node.target) && !is_product(node.target) &&
        !is_biased_product(node.target)) {
      // A pointwise op after the product: one more line of the epilogue, over the product's tile.
      const bool vector_out = problem->output.shape.size() == 1 && (problem->n == 1 || problem->m == 1);
      if (problem->kind != MatmulProblem::Kind::product || (problem->output.shape.size() < 2 && !vector_out) ||
          problem->mask != TriangleMask::none || !problem->row_major_output())
        return fmt::format("{} ({}) follows a product the family cannot give an epilogue (a diagonal scaling, a "
                           "matrix-vector product, a masked or re-viewed product)",
                           node.name, node.target);
      std::string why;
      PointwiseExpr e;
      if (is_batch_norm_eval(node)) {
        // BatchNorm1d in evaluation mode over a 2-D product (nn.Linear then BatchNorm1d): its channels are the
        // product's columns, and its [C] statistics and parameters broadcast along them like a bias.
        auto x = node.arg(0, "input");
        auto xv = x && x->kind == Arg::Kind::ref ? epilogue_vars.find(x->ref) : epilogue_vars.end();
        if (xv == epilogue_vars.end() || problem->output.shape.size() != 2)
          return fmt::format("{} ({}) normalises something other than a 2-D product's output", node.name, node.target);
        const std::int64_t columns = problem->output.shape[1];
        auto channel = [&](std::size_t i, std::string_view kw) -> std::optional<std::string> {
          auto a = node.arg(i, kw);
          if (!a || a->kind != Arg::Kind::ref) return std::nullopt;
          const auto meta = g.meta_of(a->ref);
          if (!meta || meta->shape != std::vector<std::int64_t>{columns} || !float_dtype(meta->dtype)) return std::nullopt;
          return epilogue_operand(a->ref);
        };
        e = batch_norm_eval_expr(node, xv->second, channel);
        if (e.expr.empty()) return e.why_not;
      }
      OperandFn fn = [&](const Arg& a) -> std::optional<std::string> {
        if (a.kind != Arg::Kind::ref) return std::nullopt;
        if (auto v = epilogue_vars.find(a.ref); v != epilogue_vars.end()) return v->second;
        if (const auto* c = g.find_constant(a.ref); c && c->value && !c->owned()) return float_literal(*c->value);
        if (auto operand_var = epilogue_operand(a.ref)) return operand_var;
        if (auto v = env.find(a.ref); v != env.end() && v->second.kind == Value::Kind::product_view) {
          why = fmt::format("{} ({}) reads {}, a re-ordered view of the product: the epilogue runs over the "
                            "product's own tile",
                            node.name, node.target, a.ref);
          return std::nullopt;
        }
        why = fmt::format("{} ({}) reads {}, which neither is the product nor broadcasts to its shape", node.name,
                          node.target, a.ref);
        return std::nullopt;
      };
      if (e.expr.empty()) e = pointwise_expr(node, fn, "tl.float32");
      if (!why.empty()) return why;
      if (e.expr.empty())
        return fmt::format("{} ({}) after the product is not a pointwise op: the matmul family computes one product, "
                           "and pointwise ops after it ({})",
                           node.name, node.target, e.why_not);
      const auto meta = g.meta_of(node.name);
      std::int64_t elements = 1;
      for (auto d : problem->output.shape) elements *= d;
      if (meta && !meta->shape.empty() && meta->numel() != elements)
        return fmt::format("{} ({}) changes the product's shape", node.name, node.target);
      const std::string var = "e_" + node.name;
      problem->epilogue.push_back(fmt::format("{} = {}  # {}", var, e.expr, node.target));
      problem->epilogue_result = var;
      epilogue_vars[node.name] = var;
      // The value keeps the view its first operand had (the product's, or a reshape of it).
      const Arg* first = node.args.empty() ? nullptr : &node.args[0];
      auto from = first && first->kind == Arg::Kind::ref ? env.find(first->ref) : env.end();
      env[node.name] = Value{Value::Kind::product_view, "",
                             from != env.end() && from->second.kind == Value::Kind::product_view ? from->second.view
                                                                                                  : problem->output,
                             false};
      continue;
    }
    auto src = operand(g, env, node, is_biased_product(node.target) ? 1 : 0);
    if (auto* why = std::get_if<std::string>(&src)) return *why;
    const Value& s = *std::get<const Value*>(src);
    if (problem && is_layout_op(node.target) && !problem->epilogue.empty()) {
      // A reshape of the epilogue's value keeps its elements in order (nn.Linear over [B, L, D] traces as a
      // view to [B * L, D], the product, a view back): the same variable; only a re-ordering is refused.
      auto r = is_identity_view(node.target) && node.args[0].kind == Arg::Kind::ref &&
                       epilogue_vars.contains(node.args[0].ref) && s.view.row_major()
                   ? apply_layout_op(node, s.view)
                   : LayoutResult{};
      if (!r.view || !r.view->row_major())
        return fmt::format("{} ({}) re-orders the product after its epilogue", node.name, node.target);
      env[node.name] = Value{Value::Kind::product_view, "", *r.view, false};
      epilogue_vars[node.name] = epilogue_vars.at(node.args[0].ref);
      continue;
    }
    if (is_biased_product(node.target)) {
      auto other = operand(g, env, node, 2);
      if (auto* why = std::get_if<std::string>(&other)) return *why;
      const Value& o = *std::get<const Value*>(other);
      if (s.kind != Value::Kind::input_view || o.kind != Value::Kind::input_view)
        return fmt::format("{} ({}) multiplies something other than inputs or parameters", node.name, node.target);
      auto p = product(node, s, o);
      if (auto* why = std::get_if<std::string>(&p)) return *why;
      problem = std::get<MatmulProblem>(p);
      auto bias = node.arg(0, "self");
      auto b = bias && bias->kind == Arg::Kind::ref ? epilogue_operand(bias->ref) : std::nullopt;
      if (!b) return fmt::format("{} ({}) adds a bias that does not broadcast to the product", node.name, node.target);
      const auto beta = node.arg(3, "beta"), alpha = node.arg(4, "alpha");
      const std::string scaled_acc = alpha && alpha->is_number() && alpha->number() != 1.0
                                         ? fmt::format("acc * {}", float_literal(alpha->number()))
                                         : "acc";
      const std::string scaled_bias = beta && beta->is_number() && beta->number() != 1.0
                                          ? fmt::format("{} * {}", *b, float_literal(beta->number()))
                                          : *b;
      const std::string var = "e_" + node.name;
      // With beta = 0 PyTorch does not read the bias at all: a NaN or inf in it must not reach the output.
      if (beta && beta->is_number() && beta->number() == 0.0)
        problem->epilogue.push_back(fmt::format("{} = {}  # {} (beta = 0)", var, scaled_acc, node.target));
      else
        problem->epilogue.push_back(fmt::format("{} = {} + {}  # {}", var, scaled_acc, scaled_bias, node.target));
      problem->epilogue_result = var;
      epilogue_vars[node.name] = var;
      env[node.name] = Value{Value::Kind::product_view, "", problem->output, false};
      continue;
    }
    if (is_layout_op(node.target)) {
      if (s.kind == Value::Kind::diag)
        return fmt::format("{} ({}) re-views the diagonal matrix", node.name, node.target);
      auto r = apply_layout_op(node, s.view);
      if (!r.view) {
        auto merged = merged_batch(node, s);
        if (!merged) return r.why_not;
        env[node.name] = *merged;
        continue;
      }
      // A batch of two levels stays one only where the op leaves the batch dim alone (an identity view).
      if (s.batch_inner != 0 && (r.view->shape.empty() || r.view->shape[0] != s.view.shape[0] ||
                                 r.view->stride[0] != s.view.stride[0]))
        return fmt::format("{} ({}) re-views a batch of broadcast dims", node.name, node.target);
      env[node.name] = Value{s.kind, s.input, *r.view, false, s.batch_inner, s.stride_batch_inner};
      // A reshape of the product that keeps its elements in order (a 3-D `a @ b` traces as bmm then a view, a
      // vector's `x @ B` as mm then a squeeze) is still the product's tile: an epilogue after it reads the
      // same variable.
      const bool same_order = is_identity_view(node.target) || node.target == "aten.squeeze.dim" ||
                              node.target == "aten.squeeze.dims" || node.target == "aten.squeeze.default" ||
                              node.target == "aten.unsqueeze.default";
      if (s.kind == Value::Kind::product_view && same_order && r.view->row_major() &&
          node.args[0].kind == Arg::Kind::ref && epilogue_vars.contains(node.args[0].ref))
        epilogue_vars[node.name] = epilogue_vars.at(node.args[0].ref);
    } else if (is_diag(node.target)) {
      auto d = diag_value(node, s);
      if (auto* why = std::get_if<std::string>(&d)) return *why;
      env[node.name] = std::get<Value>(d);
    } else if (is_product(node.target)) {
      auto other = operand(g, env, node, 1);
      if (auto* why = std::get_if<std::string>(&other)) return *why;
      const Value& o = *std::get<const Value*>(other);
      if (s.kind == Value::Kind::product_view || o.kind == Value::Kind::product_view)
        return fmt::format("{} ({}) multiplies the product again", node.name, node.target);
      auto p = product(node, s, o);
      if (auto* why = std::get_if<std::string>(&p)) return *why;
      problem = std::get<MatmulProblem>(p);
      env[node.name] = Value{Value::Kind::product_view, "", problem->output, true};
      epilogue_vars[node.name] = "acc";
    } else {  // tril / triu
      if (s.kind != Value::Kind::product_view || !s.raw_product || !problem || problem->mask != TriangleMask::none)
        return fmt::format(
            "{} ({}) is not applied directly to the product: only a tril/triu of the product itself is fused",
            node.name, node.target);
      if (problem->kind != MatmulProblem::Kind::product)
        return fmt::format("{} ({}) masks a diagonal scaling", node.name, node.target);
      problem->mask = node.target == "aten.tril.default" ? TriangleMask::tril : TriangleMask::triu;
      problem->diagonal = int_arg(node, 1, "diagonal").value_or(0);
      env[node.name] = s;
    }
  }

  auto out = env.find(g.outputs.front());
  if (out == env.end() || out->second.kind != Value::Kind::product_view)
    return fmt::format("the output {} is not the product (it is an input or a constant, or a view of one)",
                       g.outputs.front());
  problem->output = out->second.view;

  for (auto* op : {&problem->a, &problem->b}) {
    const std::string dt = g.meta_of(op->input)->dtype;  // a copy: meta_of returns a temporary
    if (!supported_dtype(dt))
      return fmt::format("input {} has dtype {}: the matmul family handles float32, float16 and bfloat16", op->input, dt);
    op->expr = *owned_tensor_expr(g, op->input);
  }
  const std::string da = g.meta_of(problem->a.input)->dtype;
  const std::string db = g.meta_of(problem->b.input)->dtype;
  if (da != db) return fmt::format("the operands have dtypes {} and {}: the matmul family needs one dtype", da, db);
  auto out_meta = g.meta_of(g.outputs.front());
  if (!out_meta || out_meta->dtype != da) return fmt::format("the output's dtype differs from the operands' ({})", da);
  problem->dtype = da;
  if (problem->m == 0 || problem->n == 0 || problem->k == 0 || problem->batch == 0)
    return "the product has an empty dimension";
  return *problem;
}

}  // namespace kernelagent

// The map-reduce family's recogniser: a traced graph lowered to a Program (program.hpp). Pointwise aten ops
// stay as they are; reductions (sum, mean, amax/amin, max/min over a dim, var/std, p-norms) and composite
// ops (layer, group and batch norm, softmax and log-softmax, nll_loss, smooth-L1/Huber/MSE losses) become
// reductions over the domain and the pointwise values around them. The first reduction of an element-level
// value fixes the domain (its input's shape) and the reduced axes; every later one must reduce the same
// axes of the same domain, or reduce the rows' values to one total.
//
// Example: torch.mean(torch.clamp(1 - p * t, min=0)) with p [B, N] and t [N] lowers to the domain [B, N],
// both axes reduced (one row), the element values 1 - p * t clamped, and their sum over the row divided by
// B * N as a row-level output of shape [].

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "kernelagent/families/common/broadcast.hpp"
#include "kernelagent/families/common/leaves.hpp"
#include "kernelagent/families/common/pointwise_ops.hpp"
#include "kernelagent/families/mapreduce/program.hpp"
#include "kernelagent/families/model_wrapper.hpp"

namespace kernelagent::mapreduce {

namespace {

std::int64_t numel_of(const std::vector<std::int64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
}

Arg ref_arg(const std::string& ref) {
  Arg a;
  a.kind = Arg::Kind::ref;
  a.ref = ref;
  return a;
}

Arg number_arg(double v) {
  Arg a;
  a.kind = Arg::Kind::value;
  a.value = v;
  return a;
}

// The dims argument of a reduction: a list (empty: every axis), one int, or none (every axis).
std::optional<std::vector<std::size_t>> dims_of(const std::optional<Arg>& a, std::size_t rank) {
  std::vector<std::size_t> out;
  auto add = [&](const Arg& d) {
    if (!d.is_number()) return false;
    auto v = static_cast<std::int64_t>(d.number());
    if (v < 0) v += static_cast<std::int64_t>(rank);
    if (v < 0 || v >= static_cast<std::int64_t>(std::max<std::size_t>(rank, 1))) return false;
    if (std::find(out.begin(), out.end(), static_cast<std::size_t>(v)) == out.end()) out.push_back(static_cast<std::size_t>(v));
    return true;
  };
  if (is_none(a)) {
    for (std::size_t i = 0; i < rank; ++i) out.push_back(i);
    return out;
  }
  if (a->kind == Arg::Kind::list) {
    if (a->items.empty())
      for (std::size_t i = 0; i < rank; ++i) out.push_back(i);
    for (const auto& d : a->items)
      if (!add(d)) return std::nullopt;
  } else if (!add(*a)) {
    return std::nullopt;
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::int64_t> reduced_shape(const std::vector<std::int64_t>& shape, const std::vector<std::size_t>& dims,
                                        bool keepdim) {
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const bool r = std::find(dims.begin(), dims.end(), i) != dims.end();
    if (!r) out.push_back(shape[i]);
    else if (keepdim) out.push_back(1);
  }
  return out;
}

bool bool_arg(const std::optional<Arg>& a, bool def) {
  if (!a || a->kind != Arg::Kind::value) return def;
  if (a->value.is_boolean()) return a->value.get<bool>();
  if (a->value.is_number()) return a->value.get<double>() != 0;
  return def;
}

std::optional<double> number(const std::optional<Arg>& a) {
  if (!a || !a->is_number()) return std::nullopt;
  return a->number();
}

struct Fail {
  std::string why;
};

class Lowering {
 public:
  // Slices of inputs and parameters are leaves too: an operand's pointer starts at its view's first element.
  explicit Lowering(const TraceResult& trace) : g_(trace.graph), leaves_(find_leaves(trace.graph, true)) {}

  std::variant<Program, std::string> run() {
    try {
      for (const auto& node : g_.nodes) lower(node);
      // A pick along the reduced axis (nll_loss with reduction 'none') needs no reduction: its rows are the
      // domain's, its class axis the reduced one.
      const bool picks = std::any_of(p_.values.begin(), p_.values.end(),
                                     [](const Value& v) { return v.kind == Value::Kind::gathered; });
      if (p_.reductions.empty() && !picks) return std::string("the graph has no reduction");
      for (const auto& out : g_.outputs) add_output(out);
      resolve();
      return std::move(p_);
    } catch (const Fail& f) {
      return f.why;
    }
  }

 private:
  struct PendingOperand {
    std::string var;
    StridedView view;
    std::vector<std::int64_t> frame;
  };

  struct Shaped {
    std::vector<std::int64_t> shape;
    std::string dtype;
  };

  [[noreturn]] static void fail(std::string why) { throw Fail{std::move(why)}; }

  // ---- values ------------------------------------------------------------------------------------------

  std::string fresh() { return fmt::format("ka_t{}", next_++); }

  Value& add_value(Value v, std::vector<std::int64_t> shape) {
    shapes_[v.ref] = {std::move(shape), v.dtype};
    p_.values.push_back(std::move(v));
    return p_.values.back();
  }

  // The program's ref for a trace ref: a value, or an operand made for a leaf in the frame of `frame`.
  std::string use(const std::string& trace_ref, const std::vector<std::int64_t>& frame) {
    std::string ref = trace_ref;
    while (alias_.contains(ref)) ref = alias_.at(ref);
    if (auto it = missing_.find(ref); it != missing_.end()) fail(it->second);
    if (shapes_.contains(ref)) return ref;
    if (const Leaf* leaf = leaves_.find(ref)) {
      const auto meta = *g_.meta_of(leaf->base);
      if (!float_dtype(meta.dtype) && meta.dtype != "int64" && meta.dtype != "int32" && meta.dtype != "bool")
        fail(fmt::format("{} has dtype {}: the map-reduce family reads float32, float16, bfloat16, int64, int32 and bool tensors", ref,
                         meta.dtype));
      const std::string key = ref + "@" + fmt::format("{}", fmt::join(frame, "x"));
      if (auto it = operand_of_.find(key); it != operand_of_.end()) return it->second;
      Operand o;
      o.var = fmt::format("x_{}_{}", ref, p_.operands.size());
      o.ptr = fmt::format("{}_ptr", o.var);
      o.base_expr = *owned_tensor_expr(g_, leaf->base);
      o.tensor_expr = leaf_tensor_expr(o.base_expr, leaf->view);
      o.dtype = meta.dtype;
      p_.operands.push_back(o);
      pending_.push_back({o.var, leaf->view, frame});
      if (have_domain_) resolve_operand(pending_.back());
      Value v;
      v.ref = o.var;
      v.kind = Value::Kind::operand;
      v.operand = o.var;
      v.dtype = meta.dtype;
      add_value(v, frame);
      operand_of_[key] = o.var;
      return o.var;
    }
    if (const auto* c = g_.find_constant(ref); c && c->value) return literal(float_literal(*c->value));
    if (leaves_.why.contains(ref)) fail(leaves_.why.at(ref));
    if (const auto* c = g_.find_constant(ref))
      fail(fmt::format("the model holds a tensor constant {} of shape [{}] that is not a parameter or buffer", c->name,
                       fmt::join(c->meta.shape, ",")));
    fail(fmt::format("{} is not a value the map-reduce family can read", ref));
  }

  std::string literal(const std::string& text) {
    const std::string key = "lit:" + text;
    if (auto it = literal_of_.find(key); it != literal_of_.end()) return it->second;
    Value v;
    v.ref = fresh();
    v.kind = Value::Kind::literal;
    v.literal = text;
    v.level = Level::total;
    add_value(v, {});
    literal_of_[key] = v.ref;
    return v.ref;
  }

  const Shaped& shaped(const std::string& ref) const { return shapes_.at(ref); }

  // A pointwise value: target applied to args (refs of values, or numbers), of the given shape.
  std::string pointwise(const std::string& target, std::vector<Arg> args, std::vector<std::int64_t> shape,
                        std::string dtype = "float32", nlohmann::json kwargs = nlohmann::json::object()) {
    Value v;
    v.ref = fresh();
    v.kind = Value::Kind::pointwise;
    v.dtype = dtype;
    v.node.name = v.ref;
    v.node.target = target;
    v.node.args = std::move(args);
    v.node.kwargs = std::move(kwargs);
    v.node.meta.shape = shape;
    v.node.meta.dtype = dtype;
    // An op the lowering writes itself (a p-norm's root, a loss's terms) must have an expression too.
    require_expression(v.node);
    add_value(v, std::move(shape));
    return p_.values.back().ref;
  }
  // Every pointwise value, traced or written by the lowering, must have an expression in the pointwise table:
  // asked here with any operand, so that an op it cannot write is a refusal by name at recognition, not a
  // failure when the kernel is emitted.
  void require_expression(const Node& node) {
    OperandFn any = [](const Arg&) -> std::optional<std::string> { return "x"; };
    if (auto e = pointwise_expr(node, any, "tl.float32"); e.expr.empty()) fail(e.why_not);
  }
  std::string binary(const std::string& target, const std::string& a, const std::string& b) {
    return pointwise(target, {ref_arg(a), ref_arg(b)}, broadcast_shape(shaped(a).shape, shaped(b).shape));
  }
  std::string scalar_op(const std::string& target, const std::string& a, double s) {
    return pointwise(target, {ref_arg(a), number_arg(s)}, shaped(a).shape);
  }
  std::string unary(const std::string& target, const std::string& a) {
    return pointwise(target, {ref_arg(a)}, shaped(a).shape);
  }

  static std::vector<std::int64_t> broadcast_shape(std::vector<std::int64_t> a, std::vector<std::int64_t> b) {
    if (a.size() < b.size()) std::swap(a, b);
    const std::size_t lead = a.size() - b.size();
    for (std::size_t i = 0; i < b.size(); ++i)
      if (a[lead + i] == 1) a[lead + i] = b[i];
    return a;
  }

  // ---- reductions --------------------------------------------------------------------------------------

  // The reduction of `input` over `dims` (of its shape). Returns the refs of its parts: {sum} for sum/max/
  // min, {mean, m2} for moments, {lse, its shift, log of its sum} for logsumexp; each of the shape `out_shape`.
  std::vector<std::string> reduce(ReduceOp op, const std::string& input, const std::vector<std::size_t>& dims,
                                  const std::vector<std::int64_t>& out_shape) {
    const auto& in_shape = shaped(input).shape;
    const Level in_level = level_hint(input);
    Level result_level = Level::row;
    if (in_level == Level::element) {
      if (!have_domain_) {
        p_.domain = in_shape;
        p_.reduced.assign(in_shape.size(), false);
        for (auto d : dims) p_.reduced[d] = true;
        have_domain_ = true;
        domain_value_ = input;
        for (const auto& pend : pending_) resolve_operand(pend);
      } else if (!same_axes(in_shape, dims, true)) {
        // Every axis of an element value reduced while the rows keep some: the rows' sums, then their total.
        if (dims.size() == in_shape.size() && numel_of(in_shape) == numel_of(p_.domain) &&
            (op == ReduceOp::sum || op == ReduceOp::max || op == ReduceOp::min)) {
          auto row = reduce(op, input, domain_reduced_axes_in(in_shape), kept_shape());
          return reduce(op, row.front(), all_axes(kept_shape()), out_shape);
        }
        fail(fmt::format("{} reduces axes {} of a [{}] value, while the problem's rows are over axes {} of [{}]: one set "
                         "of reduced axes per problem",
                         input, fmt::join(dims, ","), fmt::join(in_shape, ","), fmt::join(reduced_axes(), ","),
                         fmt::join(p_.domain, ",")));
      }
    } else {
      // A reduction of row values: over all of them, to one total.
      if (numel_of(out_shape) != 1)
        fail(fmt::format("{} reduces the rows' values over some of their axes only: only a total over all rows is "
                         "supported",
                         input));
      if (op == ReduceOp::moments || op == ReduceOp::logsumexp)
        fail("a variance or logsumexp over the rows' values is not supported");
      result_level = Level::total;
    }
    Reduction r;
    r.op = op;
    r.input = input;
    r.level = result_level;
    r.var = fmt::format("r{}", p_.reductions.size());
    const int index = static_cast<int>(p_.reductions.size());
    p_.reductions.push_back(r);
    std::vector<std::string> parts;
    auto part = [&](const std::string& name) {
      Value v;
      v.ref = fresh();
      v.kind = Value::Kind::reduced;
      v.reduction = index;
      v.part = name;
      v.level = result_level;
      add_value(v, out_shape);
      levels_[v.ref] = result_level;
      parts.push_back(v.ref);
    };
    if (op == ReduceOp::moments) {
      part("mean");
      part("m2");
    } else if (op == ReduceOp::logsumexp) {
      part("lse");
      part("sh");
      part("ls");
    } else {
      part("");
    }
    return parts;
  }

  // Whether a value of `shape` reduced over `dims` is the problem's reduction: the domain's shape and reduced
  // axes, or a value broadcast along kept axes only (a mask [B, L, 1] summed over L beside x [B, L, D]: the
  // count comes out once a row, the same for every D).
  bool same_axes(const std::vector<std::int64_t>& shape, const std::vector<std::size_t>& dims,
                 bool broadcast = false) const {
    if (shape.size() != p_.domain.size()) return false;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      if (p_.reduced[i] != (std::find(dims.begin(), dims.end(), i) != dims.end())) return false;
      if (shape[i] != p_.domain[i] && (!broadcast || shape[i] != 1 || p_.reduced[i])) return false;
    }
    return true;
  }
  std::vector<std::size_t> reduced_axes() const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < p_.reduced.size(); ++i)
      if (p_.reduced[i]) out.push_back(i);
    return out;
  }
  std::vector<std::size_t> domain_reduced_axes_in(const std::vector<std::int64_t>& shape) const {
    if (shape != p_.domain) fail("a total over a value laid out other than the problem's rows is not supported");
    return reduced_axes();
  }
  std::vector<std::int64_t> kept_shape() const {
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < p_.domain.size(); ++i)
      if (!p_.reduced[i]) out.push_back(p_.domain[i]);
    return out;
  }
  static std::vector<std::size_t> all_axes(const std::vector<std::int64_t>& shape) {
    std::vector<std::size_t> out(shape.size());
    std::iota(out.begin(), out.end(), 0);
    return out;
  }

  // Whether a value depends on element-level data: computed values before the domain is known are element
  // level unless they descend from reductions only.
  Level level_hint(const std::string& ref) const {
    if (auto it = levels_.find(ref); it != levels_.end()) return it->second;
    const Value& v = value(ref);
    if (v.kind == Value::Kind::literal) return Level::total;
    if (v.kind == Value::Kind::gathered) return Level::row;
    if (v.kind == Value::Kind::operand) return Level::element;  // resolved once the domain is known
    if (v.kind == Value::Kind::reduced) return v.level;
    Level l = Level::total;
    for (const auto& a : v.node.args)
      if (a.kind == Arg::Kind::ref) l = std::min(l, level_hint(a.ref));
    return l;
  }

  const Value& value(const std::string& ref) const {
    for (const auto& v : p_.values)
      if (v.ref == ref) return v;
    fail("internal: no value " + ref);
  }

  // ---- lowering of trace nodes -------------------------------------------------------------------------

  void lower(const Node& n) {
    const std::string& t = n.target;
    if (leaves_.read_in_place(n.name)) return;  // a layout op over an input or parameter: read through its view
    if (t == "aten.empty.memory_format" || t == "aten.empty.default") return;  // BatchNorm's unused reserve
    if (t == "getitem") return lower_getitem(n);
    if (t == "aten.repeat.default") {
      // Read only as an InstanceNorm's repeated weight or bias (lower_instance_norm); anything else that reads
      // it is refused with this.
      missing_[n.name] = fmt::format("{} (aten.repeat.default) is read other than as an InstanceNorm's parameter", n.name);
      return;
    }
    if (t == "aten.scalar_tensor.default" && !n.args.empty() && n.args[0].is_number()) {
      alias_[n.name] = literal(float_literal(n.args[0].number()));  // a 0-d constant (cosine_similarity's eps)
      return;
    }
    if (is_identity_view(t) || t == "aten.alias.default" || t == "aten.detach.default" || is_layout_op(t))
      return lower_view(n);
    if (is_slice_op(t))
      fail(fmt::format("{} ({}) takes a part of a computed value: the map-reduce family reads parts of inputs and "
                       "parameters only", n.name, t));
    if (t == "aten.add_.Tensor") return lower_counter(n);
    if (t == "aten.sum.dim_IntList" || t == "aten.sum.default") return lower_sum(n, false);
    if (t == "aten.mean.dim" || t == "aten.mean.default") return lower_sum(n, true);
    if (t == "aten.amax.default" || t == "aten.amin.default" || t == "aten.max.dim" || t == "aten.min.dim" ||
        t == "aten.max.default" || t == "aten.min.default")
      return lower_extreme(n);
    if (t == "aten.all.dim" || t == "aten.all.dims" || t == "aten.all.default" || t == "aten.any.dim" ||
        t == "aten.any.dims" || t == "aten.any.default")
      return lower_all_any(n);
    if (t == "aten.count_nonzero.dim_IntList" || t == "aten.count_nonzero.default") return lower_count_nonzero(n);
    if (t == "aten.logsumexp.default") return lower_logsumexp(n);
    if (t == "aten.var.correction" || t == "aten.std.correction" || t == "aten.var_mean.correction" ||
        t == "aten.std_mean.correction" || t == "aten.var.dim" || t == "aten.std.dim")
      return lower_variance(n);
    if (t == "aten.linalg_vector_norm.default" || t == "aten.norm.ScalarOpt_dim" || t == "aten.norm.Scalar")
      return lower_norm(n);
    if (t == "aten.native_layer_norm.default") return lower_layer_norm(n);
    // nn.RMSNorm and F.rms_norm: written out on a CPU, this fused op (output and rstd) where PyTorch has it.
    if (t == "aten._fused_rms_norm.default") return lower_rms_norm(n);
    if (t == "aten.native_group_norm.default") return lower_group_norm(n);
    // On a GPU PyTorch dispatches BatchNorm to cuDNN: the same arguments, and a reserve as a fourth result.
    if (t == "aten.native_batch_norm.default" || t == "aten._native_batch_norm_legit.default" ||
        t == "aten._native_batch_norm_legit.no_stats" || t == "aten._native_batch_norm_legit_functional.default" ||
        t == "aten.cudnn_batch_norm.default")
      return lower_batch_norm(n);
    if (t == "aten._log_softmax.default" || t == "aten._softmax.default") return lower_softmax(n);
    if (t == "aten.nll_loss_forward.default" || t == "aten.nll_loss2d_forward.default") return lower_nll(n);
    if (t == "aten.dot.default" || t == "aten.vdot.default") return lower_dot(n);
    if (t == "aten.smooth_l1_loss.default" || t == "aten.huber_loss.default" || t == "aten.mse_loss.default" ||
        t == "aten.l1_loss.default" || t == "aten.binary_cross_entropy.default" ||
        t == "aten.binary_cross_entropy_with_logits.default" || t == "aten.soft_margin_loss.default")
      return lower_loss(n);
    lower_pointwise(n);
  }

  void lower_pointwise(const Node& node) {
    // A pointwise node of several results (log_sigmoid_forward) records no meta of its own: its value is
    // its first result's, which a getitem records.
    Node n = node;
    if (n.meta.dtype.empty())
      for (const auto& m : g_.nodes)
        if (m.target == "getitem" && m.args.size() == 2 && m.args[0].kind == Arg::Kind::ref &&
            m.args[0].ref == n.name && m.args[1].is_number() && m.args[1].number() == 0)
          n.meta = m.meta;
    Value v;
    v.ref = n.name;
    v.kind = Value::Kind::pointwise;
    v.dtype = n.meta.dtype.empty() ? "float32" : n.meta.dtype;
    v.node = n;
    // Arguments become program refs, each leaf read in this node's frame.
    std::function<void(Arg&)> map = [&](Arg& a) {
      if (a.kind == Arg::Kind::ref) a.ref = use(a.ref, n.meta.shape);
      for (auto& item : a.items) map(item);
    };
    for (auto& a : v.node.args) map(a);
    for (auto& [k, kw] : v.node.kwargs.items())
      if (kw.is_object() && kw.contains("ref")) kw["ref"] = use(kw.at("ref").get<std::string>(), n.meta.shape);
    require_expression(v.node);
    add_value(v, n.meta.shape);
  }

  void lower_view(const Node& n) {
    if (n.args.empty() || n.args[0].kind != Arg::Kind::ref) fail(n.name + " (" + n.target + ") re-views a non-tensor");
    std::string src = n.args[0].ref;
    while (alias_.contains(src)) src = alias_.at(src);
    if (!shapes_.contains(src)) fail(fmt::format("{} ({}) re-views {}, which the family cannot follow", n.name, n.target, src));
    const auto& s = shaped(src).shape;
    if (numel_of(s) != n.meta.numel() && n.target != "aten.expand.default")
      fail(fmt::format("{} ({}) changes the element count of a computed value", n.name, n.target));
    if (n.target == "aten.permute.default" || n.target == "aten.transpose.int" || n.target == "aten.t.default") {
      bool trivial = true;  // a permutation that moves only dims of size 1 keeps the order of the elements
      std::vector<std::int64_t> a, b;
      for (auto d : s)
        if (d != 1) a.push_back(d);
      for (auto d : n.meta.shape)
        if (d != 1) b.push_back(d);
      trivial = a == b;
      if (!trivial) fail(fmt::format("{} ({}) transposes a computed value", n.name, n.target));
    }
    if (n.target == "aten.expand.default" && numel_of(s) != n.meta.numel()) {
      // Broadcasting a computed value is what a consumer does anyway: keep its own shape.
      alias_[n.name] = src;
      return;
    }
    if (s == n.meta.shape) {
      alias_[n.name] = src;
      return;
    }
    // A re-view of a computed value with the same elements in the same order: a new value of the new shape.
    Value v;
    v.ref = n.name;
    v.kind = Value::Kind::pointwise;
    v.dtype = shaped(src).dtype;
    v.node.name = n.name;
    v.node.target = "aten.alias.default";
    v.node.args = {ref_arg(src)};
    v.node.meta = n.meta;
    reshaped_[n.name] = src;
    add_value(v, n.meta.shape);
  }

  void lower_getitem(const Node& n) {
    auto src = n.arg(0, "");
    auto idx = number(n.arg(1, ""));
    if (!src || src->kind != Arg::Kind::ref || !idx) fail(n.name + " (getitem) of something other than a node's results");
    auto it = multi_.find(src->ref);
    // A pointwise node of several results (log_sigmoid_forward: the value and a buffer) is its first result.
    if (it == multi_.end() && shapes_.contains(src->ref)) {
      if (*idx == 0) alias_[n.name] = src->ref;
      else missing_[n.name] = fmt::format("{} takes result {} of {}, which the family does not compute", n.name, *idx, src->ref);
      return;
    }
    if (it == multi_.end()) fail(fmt::format("{} takes a result of {}, which the family cannot follow", n.name, src->ref));
    const auto i = static_cast<std::size_t>(*idx);
    // A result the family does not compute (BatchNorm's reserve, a max's indices) is refused only if read.
    if (i >= it->second.size() || it->second[i].empty()) {
      missing_[n.name] = fmt::format("{} takes result {} of {}, which the family does not compute", n.name, i, src->ref);
      return;
    }
    alias_[n.name] = it->second[i];
  }

  // num_batches_tracked += 1 of a training-mode BatchNorm: a counter the kernels update in place.
  void lower_counter(const Node& n) {
    auto target = n.arg(0, "self");
    auto by = number(n.arg(1, "other"));
    const Constant* c = target && target->kind == Arg::Kind::ref ? g_.find_constant(target->ref) : nullptr;
    if (!c || !c->owned() || c->kind != "buffer" || !by || numel_of(c->meta.shape) != 1)
      fail(fmt::format("{} ({}) updates something other than a buffer's counter in place", n.name, n.target));
    for (const auto& other : g_.nodes)
      for (const auto& a : other.args)
        if (a.kind == Arg::Kind::ref && a.ref == n.name) fail(n.name + " (an in-place update) is read by the graph");
    const std::string op = use(c->name, {});
    const std::string next = pointwise("aten.add.Tensor", {ref_arg(op), number_arg(*by)}, {}, c->meta.dtype);
    counters_.push_back({op, next});
  }

  // The tensor a reduction or composite op reads; integers and bools are refused (their sums and extremes
  // would be computed in fp32, exact only up to 2^24), except a count: the sum of a bool tensor of at most
  // 2^24 elements (the targets a loss does not ignore), read as fp32 ones and zeros.
  std::string input_of(const Node& n, bool counts = false) {
    auto x = n.arg(0, "self");
    if (!x || x->kind != Arg::Kind::ref) fail(n.name + " (" + n.target + ") reduces something that is not a tensor");
    const auto meta = g_.meta_of(x->ref);
    const std::string ref = use(x->ref, meta ? meta->shape : std::vector<std::int64_t>{});
    const Shaped in = shaped(ref);  // a copy: pointwise() adds to the map it lives in
    if (counts && in.dtype == "bool" && numel_of(in.shape) <= (std::int64_t{1} << 24))
      return pointwise("aten._to_copy.default", {ref_arg(ref)}, in.shape, "float32");
    if (!float_dtype(in.dtype))
      fail(fmt::format("{} ({}) reduces a {} tensor: the map-reduce family reduces floating-point values", n.name,
                       n.target, in.dtype));
    return ref;
  }

  std::vector<std::size_t> dims_or_fail(const Node& n, std::size_t i, const char* kw, std::size_t rank) {
    auto dims = dims_of(n.arg(i, kw), rank);
    if (!dims) fail(fmt::format("{} ({}) has dims the family cannot read", n.name, n.target));
    return *dims;
  }

  // torch.dot (and vdot, the same for real vectors): the sum of the two vectors' product, a total.
  void lower_dot(const Node& n) {
    const std::string a = input_of(n);
    auto b_arg = n.arg(1, n.target == "aten.vdot.default" ? "other" : "tensor");
    if (!b_arg || b_arg->kind != Arg::Kind::ref) fail(n.name + " (" + n.target + ") of something that is not a tensor");
    const auto shape = shaped(a).shape;
    if (shape.size() != 1) fail(n.name + " (" + n.target + ") of tensors that are not vectors");
    const std::string b = use(b_arg->ref, shape);
    alias_[n.name] = reduce(ReduceOp::sum, binary("aten.mul.Tensor", a, b), all_axes(shape), {}).front();
  }

  void lower_sum(const Node& n, bool mean) {
    const std::string x = input_of(n, !mean);
    const auto& shape = shaped(x).shape;
    const bool all = n.target.ends_with(".default");
    const auto dims = all ? all_axes(shape) : dims_or_fail(n, 1, "dim", shape.size());
    if (!is_none(n.arg(all ? 1 : 3, "dtype")) && n.meta.dtype != "float32")
      fail(n.name + " (" + n.target + ") accumulates in another dtype");
    const bool keep = !all && bool_arg(n.arg(2, "keepdim"), false);
    auto out_shape = reduced_shape(shape, dims, keep);
    auto r = reduce(ReduceOp::sum, x, dims, out_shape).front();
    if (mean) {
      std::int64_t count = 1;
      for (auto d : dims) count *= shape[d];
      r = scalar_op("aten.div.Scalar", r, static_cast<double>(count));
    }
    alias_[n.name] = r;
  }

  std::string cast(const std::string& x, const std::string& dtype) {
    return pointwise("aten._to_copy.default", {ref_arg(x)}, shaped(x).shape, dtype);
  }

  void lower_extreme(const Node& n) {
    const std::string x = input_of(n);
    const auto& shape = shaped(x).shape;
    const bool is_max = n.target.starts_with("aten.amax") || n.target.starts_with("aten.max");
    std::vector<std::size_t> dims;
    bool keep = false;
    if (n.target.ends_with(".default") && !n.target.starts_with("aten.am")) {
      dims = all_axes(shape);
    } else {
      dims = dims_or_fail(n, 1, "dim", shape.size());
      keep = bool_arg(n.arg(2, "keepdim"), false);
    }
    auto r = reduce(is_max ? ReduceOp::max : ReduceOp::min, x, dims, reduced_shape(shape, dims, keep)).front();
    if (n.target == "aten.max.dim" || n.target == "aten.min.dim")
      multi_[n.name] = {r, ""};  // the values; not the indices
    else
      alias_[n.name] = r;
  }

  // all / any over dims (of a mask such as x > 0, or of any tensor: its non-zeros): the least / greatest of
  // (x != 0) read as fp32 zeros and ones, exact at any count, then a bool again.
  void lower_all_any(const Node& n) {
    auto x = n.arg(0, "self");
    if (!x || x->kind != Arg::Kind::ref) fail(n.name + " (" + n.target + ") reduces something that is not a tensor");
    const auto meta = g_.meta_of(x->ref);
    const std::string in = use(x->ref, meta ? meta->shape : std::vector<std::int64_t>{});
    const auto shape = shaped(in).shape;
    const bool all = n.target.ends_with(".default");
    const auto dims = all ? all_axes(shape) : dims_or_fail(n, 1, "dim", shape.size());
    const bool keep = !all && bool_arg(n.arg(2, "keepdim"), false);
    const auto out_shape = reduced_shape(shape, dims, keep);
    const std::string nonzero = pointwise("aten.ne.Scalar", {ref_arg(in), number_arg(0)}, shape, "bool");
    const std::string ones = pointwise("aten._to_copy.default", {ref_arg(nonzero)}, shape, "float32");
    const bool is_all = n.target.starts_with("aten.all");
    const auto r = reduce(is_all ? ReduceOp::min : ReduceOp::max, ones, dims, out_shape).front();
    alias_[n.name] = pointwise("aten.gt.Scalar", {ref_arg(r), number_arg(0.5)}, out_shape, "bool");
  }

  // count_nonzero(x, dims): a sum of (x != 0) as 0 and 1 in fp32, exact up to 2^24 elements an output.
  void lower_count_nonzero(const Node& n) {
    auto x = n.arg(0, "self");
    if (!x || x->kind != Arg::Kind::ref) fail(n.name + " (" + n.target + ") counts something that is not a tensor");
    const auto meta = g_.meta_of(x->ref);
    const std::string in = use(x->ref, meta ? meta->shape : std::vector<std::int64_t>{});
    const auto shape = shaped(in).shape;
    const auto dims = is_none(n.arg(1, "dim")) ? all_axes(shape) : dims_or_fail(n, 1, "dim", shape.size());
    std::int64_t count = 1;
    for (auto d : dims) count *= shape[d];
    if (count > (std::int64_t{1} << 24))
      fail(fmt::format("{} ({}) counts over {} elements an output: more than fp32 sums exactly", n.name, n.target, count));
    const auto out_shape = reduced_shape(shape, dims, false);
    const std::string nonzero = pointwise("aten.ne.Scalar", {ref_arg(in), number_arg(0)}, shape, "bool");
    const std::string ones = pointwise("aten._to_copy.default", {ref_arg(nonzero)}, shape, "float32");
    const auto r = reduce(ReduceOp::sum, ones, dims, out_shape).front();
    alias_[n.name] = pointwise("aten._to_copy.default", {ref_arg(r)}, out_shape, n.meta.dtype.empty() ? "int64" : n.meta.dtype);
  }

  // logsumexp(x, dim, keepdim): the reduction log-softmax takes its shift from, as a result of its own.
  void lower_logsumexp(const Node& n) {
    const std::string x = input_of(n);
    const auto& shape = shaped(x).shape;
    const auto dims = dims_or_fail(n, 1, "dim", shape.size());
    const bool keep = bool_arg(n.arg(2, "keepdim"), false);
    alias_[n.name] = reduce(ReduceOp::logsumexp, x, dims, reduced_shape(shape, dims, keep)).front();
  }

  void lower_variance(const Node& n) {
    const std::string x = input_of(n);
    const auto& shape = shaped(x).shape;
    const auto dims = dims_or_fail(n, 1, "dim", shape.size());
    double correction = 1;
    if (n.target.ends_with(".correction")) {
      auto c = n.arg(2, "correction");
      if (c && c->is_number()) correction = c->number();
    } else if (!bool_arg(n.arg(2, "unbiased"), true)) {
      correction = 0;
    }
    const bool keep = bool_arg(n.arg(3, "keepdim"), false);
    const auto out_shape = reduced_shape(shape, dims, keep);
    std::int64_t count = 1;
    for (auto d : dims) count *= shape[d];
    auto parts = reduce(ReduceOp::moments, x, dims, out_shape);
    std::string var = scalar_op("aten.div.Scalar", parts[1], static_cast<double>(count) - correction);
    const bool std_dev = n.target.starts_with("aten.std");
    if (std_dev) var = unary("aten.sqrt.default", var);
    if (n.target.find("_mean") != std::string::npos) multi_[n.name] = {var, parts[0]};
    else alias_[n.name] = var;
  }

  void lower_norm(const Node& n) {
    const std::string x = input_of(n);
    const auto& shape = shaped(x).shape;
    auto ord = number(n.arg(1, n.target == "aten.linalg_vector_norm.default" ? "ord" : "p"));
    const double p = ord.value_or(2.0);
    std::vector<std::size_t> dims = n.target == "aten.norm.Scalar" ? all_axes(shape) : dims_or_fail(n, 2, "dim", shape.size());
    const bool keep = n.target != "aten.norm.Scalar" && bool_arg(n.arg(3, "keepdim"), false);
    const auto out_shape = reduced_shape(shape, dims, keep);
    const std::string a = unary("aten.abs.default", x);
    std::string r;
    if (std::isinf(p)) {
      r = reduce(p > 0 ? ReduceOp::max : ReduceOp::min, a, dims, out_shape).front();
    } else if (p == 0) {
      r = reduce(ReduceOp::sum, cast(scalar_op("aten.ne.Scalar", x, 0.0), "float32"), dims, out_shape).front();
    } else if (p == 1) {
      r = reduce(ReduceOp::sum, a, dims, out_shape).front();
    } else if (p == 2) {
      r = unary("aten.sqrt.default", reduce(ReduceOp::sum, binary("aten.mul.Tensor", x, x), dims, out_shape).front());
    } else {
      auto powered = pointwise("aten.pow.Tensor_Scalar", {ref_arg(a), number_arg(p)}, shape);
      r = pointwise("aten.pow.Tensor_Scalar", {ref_arg(reduce(ReduceOp::sum, powered, dims, out_shape).front()),
                                               number_arg(1.0 / p)},
                    out_shape);
    }
    alias_[n.name] = r;
  }

  // (x - mean) * rstd, then * weight + bias when given: the normalisation every norm ends with.
  std::string normalise(const std::string& x, const std::string& mean, const std::string& rstd,
                        const std::string& weight, const std::string& bias) {
    std::string y = binary("aten.mul.Tensor", binary("aten.sub.Tensor", x, mean), rstd);
    if (!weight.empty()) y = binary("aten.mul.Tensor", y, weight);
    if (!bias.empty()) y = binary("aten.add.Tensor", y, bias);
    return y;
  }

  // A weight or bias argument read as a leaf re-viewed in the domain's frame, or "" when it is None.
  std::string affine(const Node& n, std::size_t i, const char* kw, const std::vector<std::int64_t>& view_shape,
                     const std::vector<std::int64_t>& frame) {
    auto a = n.arg(i, kw);
    if (is_none(a)) return "";
    if (a->kind != Arg::Kind::ref) fail(n.name + " (" + n.target + ") has an affine argument that is not a tensor");
    return affine_leaf(n, a->ref, view_shape, frame);
  }
  std::string affine_leaf(const Node& n, const std::string& trace_ref, const std::vector<std::int64_t>& view_shape,
                          const std::vector<std::int64_t>& frame) {
    const Leaf* leaf = leaves_.find(trace_ref);
    if (!leaf) fail(n.name + " (" + n.target + ") has a computed weight or bias");
    auto strides = view_strides(leaf->view, view_shape);
    if (!strides) fail(n.name + " (" + n.target + ") has a weight or bias the family cannot re-view");
    // A leaf of its own: the parameter seen in the view shape, broadcast into the frame.
    const std::string ref = fmt::format("{}__{}", trace_ref, view_shape.size());
    leaves_.by_ref[ref] = {leaf->base, StridedView{view_shape, *strides, leaf->view.offset}};
    return use(ref, frame);
  }

  // InstanceNorm traces as BatchNorm over its input viewed [1, N*C, ...], with its weight and bias repeated N
  // times: normalised per (n, c) over the rest, the parameters per channel. Returns the input's leaf seen in
  // [N, C, ...], and the repeated parameters' leaves ("" where absent), or nothing where the graph is another.
  struct InstanceForm {
    std::string x, weight, bias;
    std::vector<std::int64_t> shape;
  };
  std::optional<InstanceForm> instance_norm_form(const Node& n, std::size_t training_at) {
    auto x = n.arg(0, "input");
    if (!x || x->kind != Arg::Kind::ref || !bool_arg(n.arg(training_at, "training"), true)) return std::nullopt;
    if (!is_none(n.arg(3, "running_mean")) || !is_none(n.arg(4, "running_var"))) return std::nullopt;
    const Leaf* leaf = leaves_.find(x->ref);
    const auto base = leaf ? g_.meta_of(leaf->base) : std::nullopt;
    if (!leaf || !base || base->shape.size() < 3 || leaf->view.shape.size() != base->shape.size() ||
        leaf->view.shape[0] != 1 || leaf->view.shape[1] != base->shape[0] * base->shape[1])
      return std::nullopt;
    auto strides = view_strides(leaf->view, base->shape);
    if (!strides) return std::nullopt;
    InstanceForm f;
    f.shape = base->shape;
    auto repeated = [&](std::size_t i, const char* kw, std::string& out) {
      auto a = n.arg(i, kw);
      if (is_none(a)) return true;
      const Node* rep = a->kind == Arg::Kind::ref ? g_.find_node(a->ref) : nullptr;
      if (!rep || rep->target != "aten.repeat.default" || rep->args.size() < 2 || rep->args[0].kind != Arg::Kind::ref)
        return false;
      const auto src = g_.meta_of(rep->args[0].ref);
      const auto& times = rep->args[1].items;
      if (!src || src->shape != std::vector<std::int64_t>{f.shape[1]} || times.size() != 1 || !times[0].is_number() ||
          times[0].number() != static_cast<double>(f.shape[0]) || !leaves_.find(rep->args[0].ref))
        return false;
      out = rep->args[0].ref;
      return true;
    };
    if (!repeated(1, "weight", f.weight) || !repeated(2, "bias", f.bias)) return std::nullopt;
    f.x = fmt::format("{}__instance", x->ref);
    leaves_.by_ref[f.x] = {leaf->base, StridedView{f.shape, *strides, leaf->view.offset}};
    return f;
  }

  void lower_instance_norm(const Node& n, const InstanceForm& f, double eps) {
    const std::string x = use(f.x, f.shape);
    std::vector<std::size_t> dims;
    std::int64_t count = 1;
    for (std::size_t d = 2; d < f.shape.size(); ++d) dims.push_back(d), count *= f.shape[d];
    auto parts = reduce(ReduceOp::moments, x, dims, reduced_shape(f.shape, dims, true));
    const std::string var = scalar_op("aten.div.Scalar", parts[1], static_cast<double>(count));
    const std::string rstd = unary("aten.rsqrt.default", scalar_op("aten.add.Scalar", var, eps));
    std::vector<std::int64_t> channel_view = {f.shape[1]};
    for (std::size_t d = 2; d < f.shape.size(); ++d) channel_view.push_back(1);
    const std::string w = f.weight.empty() ? "" : affine_leaf(n, f.weight, channel_view, f.shape);
    const std::string b = f.bias.empty() ? "" : affine_leaf(n, f.bias, channel_view, f.shape);
    // The statistics per (n, c) are laid out [N, C], not BatchNorm's [N * C]: not computed.
    multi_[n.name] = {normalise(x, parts[0], rstd, w, b), "", "", ""};
  }

  void lower_layer_norm(const Node& n) {
    const std::string x = input_of(n);
    const auto shape = shaped(x).shape;
    auto normalized = n.arg(1, "normalized_shape");
    const std::size_t k = normalized && normalized->kind == Arg::Kind::list ? normalized->items.size() : 0;
    if (k == 0 || k > shape.size()) fail(n.name + " (layer_norm) has a normalized shape the family cannot read");
    std::vector<std::size_t> dims;
    for (std::size_t d = shape.size() - k; d < shape.size(); ++d) dims.push_back(d);
    const double eps = number(n.arg(4, "eps")).value_or(1e-5);
    std::int64_t count = 1;
    for (auto d : dims) count *= shape[d];
    auto parts = reduce(ReduceOp::moments, x, dims, reduced_shape(shape, dims, true));
    const std::string var = scalar_op("aten.div.Scalar", parts[1], static_cast<double>(count));
    const std::string rstd = unary("aten.rsqrt.default", scalar_op("aten.add.Scalar", var, eps));
    const std::vector<std::int64_t> tail(shape.end() - static_cast<std::ptrdiff_t>(k), shape.end());
    const std::string y = normalise(x, parts[0], rstd, affine(n, 2, "weight", tail, shape), affine(n, 3, "bias", tail, shape));
    multi_[n.name] = {y, parts[0], rstd};
  }

  void lower_rms_norm(const Node& n) {
    // _fused_rms_norm(input, normalized_shape, weight, eps): x * rsqrt(mean(x^2) + eps) * weight over the
    // trailing normalized axes; an eps of None is fp32's machine epsilon (half types are computed in fp32), as PyTorch takes it.
    const std::string x = input_of(n);
    const auto shape = shaped(x).shape;
    auto normalized = n.arg(1, "normalized_shape");
    const std::size_t k = normalized && normalized->kind == Arg::Kind::list ? normalized->items.size() : 0;
    if (k == 0 || k > shape.size()) fail(n.name + " (rms_norm) has a normalized shape the family cannot read");
    const double eps = number(n.arg(3, "eps")).value_or(1.1920928955078125e-07);  // fp32's, half types upcast
    std::vector<std::size_t> dims;
    std::int64_t count = 1;
    for (std::size_t d = shape.size() - k; d < shape.size(); ++d) {
      dims.push_back(d);
      count *= shape[d];
    }
    const std::string squares = binary("aten.mul.Tensor", x, x);
    const std::string sum = reduce(ReduceOp::sum, squares, dims, reduced_shape(shape, dims, true)).front();
    const std::string mean = scalar_op("aten.div.Scalar", sum, static_cast<double>(count));
    const std::string rstd = unary("aten.rsqrt.default", scalar_op("aten.add.Scalar", mean, eps));
    std::string y = binary("aten.mul.Tensor", x, rstd);
    const std::vector<std::int64_t> tail(shape.end() - static_cast<std::ptrdiff_t>(k), shape.end());
    if (std::string w = affine(n, 2, "weight", tail, shape); !w.empty()) y = binary("aten.mul.Tensor", y, w);
    multi_[n.name] = {y, rstd};
  }

  void lower_group_norm(const Node& n) {
    auto x_arg = n.arg(0, "input");
    if (!x_arg || x_arg->kind != Arg::Kind::ref) fail(n.name + " (group_norm) of something other than a tensor");
    const auto meta = *g_.meta_of(x_arg->ref);
    const auto N = static_cast<std::int64_t>(number(n.arg(3, "N")).value_or(0));
    const auto C = static_cast<std::int64_t>(number(n.arg(4, "C")).value_or(0));
    const auto HW = static_cast<std::int64_t>(number(n.arg(5, "HxW")).value_or(0));
    const auto G = static_cast<std::int64_t>(number(n.arg(6, "group")).value_or(0));
    const double eps = number(n.arg(7, "eps")).value_or(1e-5);
    if (N <= 0 || C <= 0 || HW <= 0 || G <= 0 || C % G != 0 || N * C * HW != meta.numel())
      fail(n.name + " (group_norm) has sizes the family cannot read");
    // The domain [N, G, C/G, HxW]: a row per (sample, group), the group's channels and positions reduced.
    const std::vector<std::int64_t> domain = {N, G, C / G, HW};
    const Leaf* leaf = leaves_.find(x_arg->ref);
    std::string x;
    if (leaf) {
      auto strides = view_strides(leaf->view, domain);
      if (!strides) fail(n.name + " (group_norm) reads an input the family cannot re-view by groups");
      const std::string ref = x_arg->ref + "__groups";
      leaves_.by_ref[ref] = {leaf->base, StridedView{domain, *strides, leaf->view.offset}};
      x = use(ref, domain);
    } else {
      x = reshape_value(use(x_arg->ref, meta.shape), domain);
    }
    auto parts = reduce(ReduceOp::moments, x, {2, 3}, {N, G, 1, 1});
    const std::string var = scalar_op("aten.div.Scalar", parts[1], static_cast<double>((C / G) * HW));
    const std::string rstd = unary("aten.rsqrt.default", scalar_op("aten.add.Scalar", var, eps));
    const std::vector<std::int64_t> per_channel = {G, C / G, 1};
    const std::vector<std::int64_t> frame = domain;
    std::string y = normalise(x, parts[0], rstd, affine(n, 1, "weight", per_channel, frame),
                              affine(n, 2, "bias", per_channel, frame));
    y = reshape_value(y, meta.shape);
    multi_[n.name] = {y, reshape_value(parts[0], {N, G}), reshape_value(rstd, {N, G})};
  }

  std::string reshape_value(const std::string& src, const std::vector<std::int64_t>& shape) {
    if (shaped(src).shape == shape) return src;
    Value v;
    v.ref = fresh();
    v.kind = Value::Kind::pointwise;
    v.dtype = shaped(src).dtype;
    v.node.name = v.ref;
    v.node.target = "aten.alias.default";
    v.node.args = {ref_arg(src)};
    v.node.meta.shape = shape;
    v.node.meta.dtype = v.dtype;
    reshaped_[v.ref] = src;
    add_value(v, shape);
    return p_.values.back().ref;
  }

  void lower_batch_norm(const Node& n) {
    const bool legit_no_stats = n.target == "aten._native_batch_norm_legit.no_stats";
    const std::size_t training_at = legit_no_stats ? 3 : 5;
    const double momentum = number(n.arg(training_at + 1, "momentum")).value_or(0.1);
    const double eps = number(n.arg(training_at + 2, "eps")).value_or(1e-5);
    if (!legit_no_stats && !have_domain_)
      if (auto inst = instance_norm_form(n, training_at)) return lower_instance_norm(n, *inst, eps);
    const std::string x = input_of(n);
    const auto shape = shaped(x).shape;
    if (shape.size() < 2) fail(n.name + " (batch_norm) of an input without a channel axis");
    if (!bool_arg(n.arg(training_at, "training"), true))
      fail(n.name + " (batch_norm) in evaluation mode: the running statistics make it a pointwise op, not a reduction");
    std::vector<std::size_t> dims = {0};
    for (std::size_t d = 2; d < shape.size(); ++d) dims.push_back(d);
    std::int64_t count = 1;
    for (auto d : dims) count *= shape[d];
    auto parts = reduce(ReduceOp::moments, x, dims, reduced_shape(shape, dims, true));
    const std::string var = scalar_op("aten.div.Scalar", parts[1], static_cast<double>(count));
    const std::string rstd = unary("aten.rsqrt.default", scalar_op("aten.add.Scalar", var, eps));
    const std::vector<std::int64_t> per_channel = {shape[1]};
    std::vector<std::int64_t> channel_view = {shape[1]};
    for (std::size_t d = 2; d < shape.size(); ++d) channel_view.push_back(1);
    const std::string y = normalise(x, parts[0], rstd, affine(n, 1, "weight", channel_view, shape),
                                    affine(n, 2, "bias", channel_view, shape));
    multi_[n.name] = {y, reshape_value(parts[0], per_channel), reshape_value(rstd, per_channel), ""};
    if (legit_no_stats) return;
    // The running statistics, updated in place as PyTorch does: with the unbiased variance.
    const std::vector<std::int64_t> row = reduced_shape(shape, dims, true);
    for (std::size_t k = 0; k < 2; ++k) {
      auto buf = n.arg(3 + k, k == 0 ? "running_mean" : "running_var");
      if (is_none(buf)) continue;
      const Constant* c = buf->kind == Arg::Kind::ref ? g_.find_constant(buf->ref) : nullptr;
      if (!c || !c->owned()) fail(n.name + " (batch_norm) has running statistics that are not buffers of the module");
      const std::string old = affine(n, 3 + k, k == 0 ? "running_mean" : "running_var", channel_view, row);
      const std::string batch =
          k == 0 ? parts[0] : scalar_op("aten.div.Scalar", parts[1], static_cast<double>(std::max<std::int64_t>(count - 1, 1)));
      const std::string next = binary("aten.add.Tensor", scalar_op("aten.mul.Scalar", old, 1.0 - momentum),
                                      scalar_op("aten.mul.Scalar", batch, momentum));
      p_.updates.push_back({old, next, Level::row});
    }
  }

  void lower_softmax(const Node& n) {
    const std::string x = input_of(n);
    const auto& shape = shaped(x).shape;
    const auto dims = dims_or_fail(n, 1, "dim", shape.size());
    // (x - shift) - log sum, as torch computes it (the parts of the logsumexp): x - logsumexp would lose the
    // low bits of the log sum where x is far from zero.
    const auto lse = reduce(ReduceOp::logsumexp, x, dims, reduced_shape(shape, dims, true));
    const std::string shifted = binary("aten.sub.Tensor", binary("aten.sub.Tensor", x, lse.at(1)), lse.at(2));
    alias_[n.name] = n.target == "aten._softmax.default" ? unary("aten.exp.default", shifted) : shifted;
  }

  // nll_loss(log_probs [B, C] or [C], target [B] or [], weight None, reduction, ignore_index), and
  // nll_loss2d(log_probs [N, C, H, W], target [N, H, W], ...): the class axis is the reduced one.
  void lower_nll(const Node& n) {
    const bool planes = n.target == "aten.nll_loss2d_forward.default";
    std::string logp = input_of(n);
    std::vector<std::int64_t> shape = shaped(logp).shape;
    auto class_weight = n.arg(2, "weight");
    if (!is_none(class_weight) && class_weight->kind != Arg::Kind::ref)
      fail(n.name + " (nll_loss) has class weights that are not a tensor");
    const auto reduction = static_cast<int>(number(n.arg(3, "reduction")).value_or(1));
    const double ignore = number(n.arg(4, "ignore_index")).value_or(-100);
    auto target_arg = n.arg(1, "target");
    if (!target_arg || target_arg->kind != Arg::Kind::ref) fail(n.name + " (nll_loss) has a target that is not a tensor");
    if (planes ? shape.size() != 4 : shape.empty() || shape.size() > 2)
      fail(n.name + (planes ? " (nll_loss2d) of log-probabilities that are not [N, C, H, W]"
                            : " (nll_loss) of log-probabilities that are not [B, C] or [C]"));
    const std::size_t class_axis = shape.size() >= 2 ? 1 : 0;
    std::string target_ref = target_arg->ref;
    // cross_entropy over [N, C, d] views its log-probabilities as [N, C, 1, d] and its target as [N, 1, d] for
    // nll_loss2d: where the log-probabilities were computed in the problem's rows before that view (which only
    // adds axes of size 1), the loss is taken in those rows, and the target before its view.
    if (have_domain_ && shape != p_.domain) {
      auto squeezed = [](std::vector<std::int64_t> v) {
        std::erase(v, std::int64_t{1});
        return v;
      };
      const auto src = reshaped_.find(logp);
      const Leaf* target_leaf = leaves_.find(target_ref);
      if (src != reshaped_.end() && shaped(src->second).shape == p_.domain && squeezed(shape) == squeezed(p_.domain) &&
          p_.domain.size() > 1 && p_.domain[1] == shape[1] && reduced_axes() == std::vector<std::size_t>{1} &&
          target_leaf && target_leaf->view.offset == 0 && g_.meta_of(target_leaf->base) &&
          g_.meta_of(target_leaf->base)->shape == kept_shape()) {
        logp = src->second;
        shape = p_.domain;
        target_ref = target_leaf->base;
      }
    }
    std::vector<std::int64_t> rows = shape;
    rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(class_axis));
    // The row frame: the target indexes rows, the class axis is the reduced one.
    std::vector<std::int64_t> row_frame = rows;
    if (!have_domain_) {
      // The domain comes from the log-probabilities' producer (a log_softmax) or from here.
      p_.domain = shape;
      p_.reduced.assign(shape.size(), false);
      p_.reduced[class_axis] = true;
      have_domain_ = true;
      for (const auto& pend : pending_) resolve_operand(pend);
    } else if (!same_axes(shape, {class_axis})) {
      fail(n.name + " (nll_loss) picks along another axis than the problem's rows reduce");
    }
    const std::string target = use(target_ref, row_frame);
    const std::string valid = scalar_op("aten.ne.Scalar", target, ignore);
    // The position to gather from: the target, or 0 (an integer) for an ignored row.
    const std::string index = pointwise("aten.where.self", {ref_arg(valid), ref_arg(target), ref_arg(literal("0"))},
                                        row_frame, shaped(target).dtype);
    Value picked;
    picked.ref = fresh();
    picked.kind = Value::Kind::gathered;
    picked.gathered = logp;
    picked.index = index;
    picked.level = Level::row;
    add_value(picked, row_frame);
    levels_[picked.ref] = Level::row;
    // Each row counts with its target's class weight (1 without weights, 0 for an ignored row): the loss is
    // -w[t] logp[t], and the mean divides by the sum of the rows' weights, as PyTorch's does.
    std::string validf = cast(valid, "float32");
    if (!is_none(class_weight)) {
      Value w;
      w.ref = fresh();
      w.kind = Value::Kind::gathered;
      // [C] along the class axis (viewed [C, 1, 1] over [N, C, H, W]), picked at the target.
      std::vector<std::int64_t> along_classes = {shape[class_axis]};
      along_classes.resize(shape.size() - class_axis, 1);
      w.gathered = along_classes.size() == 1 ? use(class_weight->ref, shape)
                                             : affine_leaf(n, class_weight->ref, along_classes, shape);
      w.index = index;
      w.level = Level::row;
      add_value(w, row_frame);
      levels_[w.ref] = Level::row;
      validf = binary("aten.mul.Tensor", validf, w.ref);
    }
    const std::string loss = binary("aten.mul.Tensor", unary("aten.neg.default", picked.ref), validf);
    if (reduction == 0) {
      multi_[n.name] = {loss, ""};
      return;
    }
    const std::string sum = reduce(ReduceOp::sum, loss, all_axes(row_frame), {}).front();
    const std::string weight = reduce(ReduceOp::sum, validf, all_axes(row_frame), {}).front();
    multi_[n.name] = {reduction == 1 ? binary("aten.div.Tensor", sum, weight) : sum, weight};
  }

  void lower_loss(const Node& n) {
    const std::string a = input_of(n);
    auto b_arg = n.arg(1, "target");
    if (!b_arg || b_arg->kind != Arg::Kind::ref) fail(n.name + " (" + n.target + ") has a target that is not a tensor");
    const std::string b = use(b_arg->ref, n.arg(0, "self") ? shaped(a).shape : std::vector<std::int64_t>{});
    const bool bce = n.target == "aten.binary_cross_entropy.default";
    const bool bce_logits = n.target == "aten.binary_cross_entropy_with_logits.default";
    // binary_cross_entropy(self, target, weight, reduction); ..._with_logits(self, target, weight, pos_weight,
    // reduction); the other losses (self, target, reduction, ...).
    // The weights of the binary cross-entropies, tensors broadcast over the input: of each element's loss, and
    // (with logits) of the positive term.
    auto weight_of = [&](std::size_t i, const char* kw) -> std::string {
      auto w = n.arg(i, kw);
      if (is_none(w)) return "";
      if (w->kind != Arg::Kind::ref) fail(n.name + " (" + n.target + ") has a " + kw + " that is not a tensor");
      return use(w->ref, shaped(a).shape);
    };
    const std::string weight = bce || bce_logits ? weight_of(2, "weight") : "";
    const std::string pos_weight = bce_logits ? weight_of(3, "pos_weight") : "";
    const auto reduction =
        static_cast<int>(number(n.arg(bce ? 3 : bce_logits ? 4 : 2, "reduction")).value_or(1));
    std::string loss;
    if (bce) {
      // -(t log x + (1 - t) log(1 - x)), each log at least -100 as PyTorch clamps it.
      auto log_at_least = [&](const std::string& v) {
        return scalar_op("aten.clamp_min.default", unary("aten.log.default", v), -100.0);
      };
      const std::string one_minus_t = scalar_op("aten.rsub.Scalar", b, 1.0);
      const std::string one_minus_x = scalar_op("aten.rsub.Scalar", a, 1.0);
      loss = unary("aten.neg.default",
                   binary("aten.add.Tensor", binary("aten.mul.Tensor", b, log_at_least(a)),
                          binary("aten.mul.Tensor", one_minus_t, log_at_least(one_minus_x))));
    } else if (bce_logits) {
      // max(x, 0) - x t + log(1 + exp(-|x|)): no exp of a positive number.
      const std::string soft = unary("aten.log1p.default",
                                     unary("aten.exp.default", unary("aten.neg.default", unary("aten.abs.default", a))));
      if (pos_weight.empty()) {
        loss = binary("aten.add.Tensor",
                      binary("aten.sub.Tensor", unary("aten.relu.default", a), binary("aten.mul.Tensor", a, b)), soft);
      } else {
        // (1 - t) x + (1 + (p - 1) t) (log(1 + exp(-|x|)) + max(-x, 0)), as PyTorch computes it.
        const std::string log_weight =
            scalar_op("aten.add.Tensor", binary("aten.mul.Tensor", scalar_op("aten.sub.Tensor", pos_weight, 1.0), b), 1.0);
        loss = binary("aten.add.Tensor", binary("aten.mul.Tensor", scalar_op("aten.rsub.Scalar", b, 1.0), a),
                      binary("aten.mul.Tensor", log_weight,
                             binary("aten.add.Tensor", soft, unary("aten.relu.default", unary("aten.neg.default", a)))));
      }
    } else if (n.target == "aten.soft_margin_loss.default") {
      // log(1 + exp(z)), z = -t x, as max(z, 0) + log(1 + exp(-|z|)): no exp of a positive number.
      const std::string z = unary("aten.neg.default", binary("aten.mul.Tensor", a, b));
      loss = binary("aten.add.Tensor", unary("aten.relu.default", z),
                    unary("aten.log1p.default", unary("aten.exp.default", unary("aten.neg.default", unary("aten.abs.default", z)))));
    } else {
      loss = difference_loss(n, a, b);
    }
    if (!weight.empty()) loss = binary("aten.mul.Tensor", loss, weight);
    if (reduction == 0) {
      alias_[n.name] = loss;
      return;
    }
    const auto& shape = shaped(loss).shape;
    std::string r = reduce(ReduceOp::sum, loss, all_axes(shape), {}).front();
    if (reduction == 1) r = scalar_op("aten.div.Scalar", r, static_cast<double>(numel_of(shape)));
    alias_[n.name] = r;
  }

  // MSE, L1, Huber and smooth-L1 of a - b, element by element.
  std::string difference_loss(const Node& n, const std::string& a, const std::string& b) {
    const std::string d = binary("aten.sub.Tensor", a, b);
    std::string loss;
    if (n.target == "aten.mse_loss.default") {
      loss = binary("aten.mul.Tensor", d, d);
    } else {
      const std::string ad = unary("aten.abs.default", d);
      double beta = number(n.arg(3, n.target == "aten.huber_loss.default" ? "delta" : "beta")).value_or(1.0);
      if (n.target == "aten.l1_loss.default" || beta == 0) {
        loss = ad;
      } else {
        const std::string small = scalar_op("aten.lt.Scalar", ad, beta);
        const std::string quad = scalar_op("aten.mul.Scalar", binary("aten.mul.Tensor", d, d),
                                           n.target == "aten.huber_loss.default" ? 0.5 : 0.5 / beta);
        const std::string lin = n.target == "aten.huber_loss.default"
                                    ? scalar_op("aten.mul.Scalar", scalar_op("aten.sub.Scalar", ad, 0.5 * beta), beta)
                                    : scalar_op("aten.sub.Scalar", ad, 0.5 * beta);
        loss = pointwise("aten.where.self", {ref_arg(small), ref_arg(quad), ref_arg(lin)}, shaped(d).shape);
      }
    }
    return loss;
  }

  // ---- outputs and the final resolution ----------------------------------------------------------------

  void add_output(const std::string& trace_ref) {
    std::string ref = trace_ref;
    while (alias_.contains(ref)) ref = alias_.at(ref);
    if (auto it = missing_.find(ref); it != missing_.end()) fail(it->second);
    if (!shapes_.contains(ref) || value(ref).kind == Value::Kind::operand || value(ref).kind == Value::Kind::literal)
      fail(fmt::format("output {} is not computed by the graph", trace_ref));
    const auto meta = g_.meta_of(trace_ref);
    Output o;
    o.value = ref;
    o.shape = meta ? meta->shape : shaped(ref).shape;
    o.dtype = meta && !meta->dtype.empty() ? meta->dtype : shaped(ref).dtype;
    p_.outputs.push_back(o);
  }

  // Operands' strides over the domain, every value's level, and the checks that the frames agree.
  // An operand's strides over the domain and its level, once the domain is known.
  void resolve_operand(const PendingOperand& pend) {
    Operand& o = operand_ref(pend.var);
    o.strides = to_domain(pend.view, pend.frame, pend.var);
    bool along_reduced = false, along_kept = false;
    for (std::size_t i = 0; i < o.strides.size(); ++i) {
      if (o.strides[i] == 0) continue;
      (p_.reduced[i] ? along_reduced : along_kept) = true;
    }
    // Rows of one element (a reduction over size-1 axes, LayerNorm(1)): a value per row is a value per
    // element, and is read as one, so that the rows' reduction of it is the element itself.
    if (p_.row_length() == 1 && along_kept) along_reduced = true;
    o.level = along_reduced ? Level::element : along_kept ? Level::row : Level::total;
    levels_[o.var] = o.level;
  }

  void resolve() {
    for (const auto& pend : pending_) resolve_operand(pend);
    for (auto& v : p_.values) {
      if (v.kind == Value::Kind::operand) v.level = operand_ref(v.operand).level;
      else if (v.kind == Value::Kind::literal) v.level = Level::total;
      else if (v.kind == Value::Kind::pointwise) {
        Level l = Level::total;
        for (const auto& a : v.node.args) {
          if (a.kind == Arg::Kind::ref) l = std::min(l, value_level(a.ref));
          for (const auto& item : a.items)
            if (item.kind == Arg::Kind::ref) l = std::min(l, value_level(item.ref));
        }
        v.level = l;
      }
      levels_[v.ref] = v.level;
    }
    for (const auto& r : p_.reductions) {
      const Level in = value_level(r.input);
      if (r.level == Level::row && in != Level::element && p_.rows() > 1)
        fail("a reduction over the rows' axes of a value that does not vary along them");
      if (r.level == Level::total && in == Level::element)
        fail("internal: a total of element values without the rows' reduction");
    }
    for (const auto& v : p_.values) check_frame(v);
    for (const auto& u : p_.updates)
      if (value_level(u.value) == Level::element) fail("a running statistic that varies along the reduced axes");
    for (const auto& c : counters_) p_.updates.push_back({c.first, c.second, Level::total});
    for (auto& o : p_.outputs) {
      o.level = value_level(o.value);
      // The total is known only after every row's program: a per-row or per-element output computed from it
      // would need a pass after the total kernel, which no variant has.
      if (o.level != Level::total && reads_total(o.value))
        fail(fmt::format("output {} varies per {} and reads a total over all rows (a reduction over other axes "
                         "combined with one over all of them)",
                         o.value, o.level == Level::row ? "row" : "element"));
      if (o.level == Level::element && numel_of(o.shape) != numel_of(p_.domain))
        fail(fmt::format("output {} has {} elements, the domain {}", o.value, numel_of(o.shape), numel_of(p_.domain)));
      if (o.level == Level::row && numel_of(o.shape) != p_.rows())
        fail(fmt::format("output {} has {} elements, one per row would be {}", o.value, numel_of(o.shape), p_.rows()));
      if (o.level == Level::total && numel_of(o.shape) != 1) fail(fmt::format("output {} is one value broadcast", o.value));
    }
  }

  Level value_level(const std::string& ref) const { return levels_.at(ref); }

  bool reads_total(const std::string& ref) {
    if (auto it = reads_total_.find(ref); it != reads_total_.end()) return it->second;
    reads_total_[ref] = false;
    const Value& v = value(ref);
    bool reads = false;
    if (v.kind == Value::Kind::reduced)
      reads = p_.reductions.at(static_cast<std::size_t>(v.reduction)).level == Level::total;
    else if (v.kind == Value::Kind::gathered)
      reads = reads_total(v.gathered) || reads_total(v.index);
    else if (v.kind == Value::Kind::pointwise)
      for (const auto& a : v.node.args) {
        if (a.kind == Arg::Kind::ref) reads = reads || reads_total(a.ref);
        for (const auto& item : a.items)
          if (item.kind == Arg::Kind::ref) reads = reads || reads_total(item.ref);
      }
    return reads_total_[ref] = reads;
  }

  Operand& operand_ref(const std::string& var) {
    for (auto& o : p_.operands)
      if (o.var == var) return o;
    fail("internal: no operand " + var);
  }

  // An element-level value's frame must map onto the domain, and a row value must line up with the rows
  // wherever an element value reads it (PyTorch aligns shapes from the right).
  void check_frame(const Value& v) {
    if (v.kind != Value::Kind::pointwise || v.level != Level::element) return;
    const auto& frame = shaped(v.ref).shape;
    if (!maps_to_domain(frame))
      fail(fmt::format("{} ({}) of shape [{}] is computed over neither the domain [{}] nor its rows", v.ref,
                       v.node.target, fmt::join(frame, ","), fmt::join(p_.domain, ",")));
    for (const auto& a : v.node.args) {
      // Operands were mapped onto the domain by their strides; computed row values by their shapes.
      if (a.kind != Arg::Kind::ref || value_level(a.ref) != Level::row || value(a.ref).kind == Value::Kind::operand)
        continue;
      const auto& s = shaped(a.ref).shape;
      if (frame == p_.domain ? !row_aligned(s) : !row_aligned_in(s, frame))
        fail(fmt::format("{} ({}) broadcasts the per-row value {} of shape [{}] across the rows of [{}]", v.ref,
                         v.node.target, a.ref, fmt::join(s, ","), fmt::join(p_.domain, ",")));
    }
  }

  bool maps_to_domain(const std::vector<std::int64_t>& frame) const {
    return broadcast_strides(StridedView::contiguous(frame), p_.domain).has_value() ||
           numel_of(frame) == numel_of(p_.domain);
  }

  // A row value of shape `s` right-aligned into the domain covers only kept axes, each with its size.
  bool row_aligned(const std::vector<std::int64_t>& s) const {
    if (s.size() > p_.domain.size()) return false;
    const std::size_t lead = p_.domain.size() - s.size();
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == 1) continue;
      if (p_.reduced[lead + i] || s[i] != p_.domain[lead + i]) return false;
    }
    return true;
  }

  // A row value of shape `s` read in an element frame that re-views the domain (as many elements, axes split
  // or merged: `x.flatten(2).mean(-1)[:, :, None, None]` read in x's [N, C, H, W] over the domain [N, C, H*W]):
  // in every block of frame axes that re-views a block of domain axes, it is constant, or it spans the whole
  // block and the block's domain axes are all kept, so that its index there is the row's.
  bool row_aligned_in(const std::vector<std::int64_t>& s, const std::vector<std::int64_t>& frame) const {
    if (s.size() > frame.size() || numel_of(frame) != numel_of(p_.domain)) return false;
    const std::size_t lead = frame.size() - s.size();
    auto s_at = [&](std::size_t f) { return f < lead ? std::int64_t{1} : s[f - lead]; };
    std::size_t f = 0, d = 0;
    while (f < frame.size() || d < p_.domain.size()) {
      // The next block: the fewest axes of each whose products agree.
      const std::size_t f0 = f, d0 = d;
      std::int64_t pf = 1, pd = 1;
      do {
        if (pf <= pd && f < frame.size()) pf *= frame[f++];
        else if (d < p_.domain.size()) pd *= p_.domain[d++];
        else return false;
      } while (pf != pd);
      while (f < frame.size() && frame[f] == 1) ++f;  // axes of size 1 join the block before them
      while (d < p_.domain.size() && p_.domain[d] == 1) ++d;
      bool constant = true, whole = true, kept = true;
      for (std::size_t i = f0; i < f; ++i) {
        if (s_at(i) != 1) constant = false;
        if (s_at(i) != frame[i]) whole = false;
      }
      for (std::size_t i = d0; i < d; ++i)
        if (p_.reduced[i] && p_.domain[i] != 1) kept = false;
      if (!constant && !(whole && kept)) return false;
    }
    return true;
  }

  // A leaf read in `frame`: broadcast into the frame, then the frame onto the domain (right-aligned, or
  // re-viewed as the domain when it holds as many elements, or as the rows when it is a row frame).
  std::vector<std::int64_t> to_domain(const StridedView& view, const std::vector<std::int64_t>& frame,
                                      const std::string& what) {
    auto in_frame = broadcast_strides(view, frame);
    if (!in_frame)
      fail(fmt::format("{} of shape [{}] does not broadcast to [{}]", what, fmt::join(view.shape, ","), fmt::join(frame, ",")));
    const StridedView framed{frame, *in_frame};
    if (frame == p_.domain) return *in_frame;
    if (auto s = broadcast_strides(framed, p_.domain)) return *s;
    if (numel_of(frame) == numel_of(p_.domain))
      if (auto s = view_strides(framed, p_.domain)) return *s;
    // A row frame: the kept axes in order, without the reduced ones.
    if (frame == kept_shape()) {
      std::vector<std::int64_t> out(p_.domain.size(), 0);
      std::size_t k = 0;
      for (std::size_t i = 0; i < p_.domain.size(); ++i)
        if (!p_.reduced[i]) out[i] = (*in_frame)[k++];
      return out;
    }
    if (numel_of(frame) == 1) return std::vector<std::int64_t>(p_.domain.size(), 0);
    fail(fmt::format("{} is read in a frame [{}] that maps onto neither the domain [{}] nor its rows", what,
                     fmt::join(frame, ","), fmt::join(p_.domain, ",")));
  }

  const OpGraph& g_;
  Leaves leaves_;
  Program p_;
  int next_ = 0;
  bool have_domain_ = false;
  std::string domain_value_;
  std::map<std::string, std::string> alias_;                 // trace ref -> program ref
  std::map<std::string, std::vector<std::string>> multi_;   // composite node -> its results' refs
  std::map<std::string, Shaped> shapes_;                     // program ref -> its shape
  std::map<std::string, Level> levels_;
  std::map<std::string, bool> reads_total_;  // memo of reads_total
  std::map<std::string, std::string> operand_of_, literal_of_;
  std::map<std::string, std::string> reshaped_;
  std::map<std::string, std::string> missing_;  // getitems of results the family does not compute: why
  std::vector<PendingOperand> pending_;
  std::vector<std::pair<std::string, std::string>> counters_;  // operand var, its next value
};

}  // namespace

bool Operand::is_float() const { return float_dtype(dtype); }

std::int64_t Program::rows() const {
  std::int64_t n = 1;
  for (std::size_t i = 0; i < domain.size(); ++i)
    if (!reduced[i]) n *= domain[i];
  return n;
}

std::int64_t Program::row_length() const {
  std::int64_t n = 1;
  for (std::size_t i = 0; i < domain.size(); ++i)
    if (reduced[i]) n *= domain[i];
  return n;
}

const Value& Program::value(const std::string& ref) const {
  for (const auto& v : values)
    if (v.ref == ref) return v;
  throw std::runtime_error("map-reduce program has no value " + ref);
}

const Operand& Program::operand(const std::string& var) const {
  for (const auto& o : operands)
    if (o.var == var) return o;
  throw std::runtime_error("map-reduce program has no operand " + var);
}

int Program::stage_of(int reduction) const {
  // 1 + the latest stage among the row reductions the input reads.
  std::function<int(const std::string&)> depth = [&](const std::string& ref) -> int {
    const Value& v = value(ref);
    if (v.kind == Value::Kind::reduced) {
      const Reduction& r = reductions[static_cast<std::size_t>(v.reduction)];
      return r.level == Level::row ? stage_of(v.reduction) : 0;
    }
    int d = 0;
    if (v.kind == Value::Kind::pointwise)
      for (const auto& a : v.node.args)
        if (a.kind == Arg::Kind::ref) d = std::max(d, depth(a.ref));
    if (v.kind == Value::Kind::gathered) d = std::max(depth(v.gathered), depth(v.index));
    return d;
  };
  return 1 + depth(reductions[static_cast<std::size_t>(reduction)].input);
}

int Program::stages() const {
  int s = 0;
  for (std::size_t i = 0; i < reductions.size(); ++i)
    if (reductions[i].level == Level::row) s = std::max(s, stage_of(static_cast<int>(i)));
  return s;
}

bool Program::has(Level level, bool outputs_only) const {
  for (const auto& o : outputs)
    if (o.level == level) return true;
  if (outputs_only) return false;
  for (const auto& r : reductions)
    if (r.level == level) return true;
  return false;
}

std::variant<Program, std::string> lower(const TraceResult& trace) {
  if (trace.graph.outputs.empty()) return std::string("the problem has no outputs");
  return Lowering(trace).run();
}

}  // namespace kernelagent::mapreduce

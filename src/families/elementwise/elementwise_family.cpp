// The elementwise family's recogniser: a chain of pointwise ops fused into one memory-bound Triton kernel
// over the output's elements.
// Example: Model.forward(x) = x * torch.sigmoid(x) traces to aten.sigmoid + aten.mul; the kernel loads x
// once, computes `v_n1 = (v_in0 * tl.sigmoid(v_in0))` in registers, and stores it once. Operands of other
// shapes broadcast as PyTorch broadcasts them: A.unsqueeze(1) * B loads A at offsets // B's row length.

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "kernelagent/families/common/batch_norm_eval.hpp"
#include "kernelagent/families/common/broadcast.hpp"
#include "kernelagent/families/common/leaves.hpp"
#include "kernelagent/families/common/sink_views.hpp"
#include "kernelagent/families/common/pointwise_ops.hpp"
#include "kernelagent/families/model_wrapper.hpp"
#include "kernelagent/families/registry.hpp"

namespace kernelagent {

namespace {

// The dtypes a loaded operand is cast from to the compute dtype (float64 too, unlike float_dtype).
bool floating_point(const std::string& dt) { return float_dtype(dt) || dt == "float64"; }
bool mask_dtype(const std::string& dt) {
  return dt == "bool" || dt == "int8" || dt == "int16" || dt == "int32" || dt == "int64" || dt == "uint8";
}

std::string var_of(const std::string& ref) { return "v_" + ref; }

std::int64_t numel_of(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

// A tensor the kernel reads: its variable, what ModelNew passes, its offset strides over the domain, and the
// element it starts at (0 but for GLU's second half).
struct LoadedLeaf {
  std::string var, ptr, tensor_expr, dtype;
  std::vector<std::int64_t> strides;
  std::int64_t start = 0;
};

struct Output {
  std::string var, dtype;
  std::vector<std::int64_t> shape;
  std::string into;  // the input the reference writes this value into in place, which the kernel writes too
};

class ElementwiseProblem final : public FamilyProblem {
 public:
  ElementwiseProblem(const Family& f, const TraceResult& t) : FamilyProblem(f, t) {}

  std::vector<std::int64_t> domain;
  std::string compute;  // "tl.float32" or "tl.float64"
  std::vector<LoadedLeaf> leaves;
  std::string body;  // one line per computed node, 4 spaces in
  std::vector<Output> outputs;
  std::string device_of;  // a tensor expression to take the device from
  std::int64_t widest = 0;  // the most elements a read reaches into a tensor (past 2^31: 64-bit offsets)

  static std::int64_t block_of(const Config& c) {
    return 32 * c.at("num_warps").get<std::int64_t>() * c.at("elems_per_thread").get<std::int64_t>();
  }

 protected:
  bool valid_config(const Config& c, const GpuSpec*, Precision) const override {
    const std::int64_t block = block_of(c);
    if (block > 65536) return false;
    // A program far larger than the problem is mostly mask; keep the smallest block that covers it.
    return block <= std::max<std::int64_t>(pow2_at_least(numel_of(domain)), 32 * c.at("num_warps").get<std::int64_t>() * 4);
  }

  // How many consecutive output elements read one value of an operand: the product of the innermost axes
  // along which it is broadcast (stride 0); 1 where it varies along the innermost axis.
  std::int64_t block_period(const std::vector<std::int64_t>& strides) const {
    std::int64_t period = 1;
    for (std::size_t a = domain.size(); a-- > 0;) {
      if (domain[a] == 1) continue;
      if (strides[a] != 0) break;
      period *= domain[a];
    }
    return period;
  }

  Emission emission(const Config& c) const override {
    const std::int64_t n = numel_of(domain), block = block_of(c);
    const bool evict_first = c.at("eviction").get<std::string>() == "evict_first";
    std::string params, args, loads, stores, allocs, rets;
    // Offsets past 2^31 need 64-bit arithmetic; below that 32-bit is cheaper.
    const bool wide = std::max(n, widest) + block >= (std::int64_t{1} << 31);
    const std::string program_start = wide ? "pid.to(tl.int64) * BLOCK" : "pid * BLOCK";
    bool start_defined = false;
    for (const auto& l : leaves) {
      params += l.ptr + ", ";
      args += l.tensor_expr + ", ";
      const std::string ptr = l.start == 0 ? l.ptr : fmt::format("{} + {}", l.ptr, l.start);
      const std::string offset = flat_offset(domain, l.strides, "offsets");
      const std::string cast = floating_point(l.dtype) ? ".to(" + compute + ")" : "";
      if (offset == "0") {  // one value broadcast everywhere
        loads += fmt::format("    {} = tl.load({}){}\n", l.var, ptr, cast);
      } else if (block_period(l.strides) % block == 0) {
        // Broadcast along the innermost axes over whole programs (diag(a) @ b reads a[i] for a row of b): one
        // value a program, loaded once, where a load per element would issue as many load instructions as
        // the streamed operand's, all of one address.
        if (!start_defined) loads += fmt::format("    ka_start = {}\n", program_start);
        start_defined = true;
        loads += fmt::format("    {} = tl.load({} + {}){}\n", l.var, ptr, flat_offset(domain, l.strides, "ka_start"),
                             cast);
      } else
        loads += fmt::format("    {} = tl.load({} + {}, mask=mask{}){}\n", l.var, ptr, offset,
                             evict_first ? ", eviction_policy=\"evict_first\"" : "", cast);
    }
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      const Output& o = outputs[i];
      const std::string out = fmt::format("out{}", i);
      params += out + "_ptr, ";
      args += out + ", ";
      stores += fmt::format("    tl.store({0}_ptr + offsets, {1}.to({0}_ptr.dtype.element_ty), mask=mask)\n", out, o.var);
      if (!o.into.empty())
        allocs += fmt::format("        {} = {}  # the reference writes this value into {} in place\n", out, o.into, o.into);
      else
        allocs += fmt::format("        {} = torch.empty({}, dtype=torch.{}, device={}.device)\n", out, py_tuple(o.shape),
                              o.dtype, device_of);
      rets += (rets.empty() ? "" : ", ") + out;
    }
    return {"kernel",
            {{"KERNEL_PARAMS", params},
             {"PROGRAM_START", program_start},
             {"LOADS", strip_final_newlines(loads)},
             {"BODY", strip_final_newlines(body)},
             {"STORES", strip_final_newlines(stores)},
             {"ALLOCS", strip_final_newlines(allocs)},
             {"NUMEL", std::to_string(n)},
             {"BLOCK", std::to_string(block)},
             {"LAUNCH_ARGS", args},
             {"NUM_WARPS", std::to_string(c.at("num_warps").get<int>())},
             {"RETURN", outputs.size() == 1 ? rets : "(" + rets + ")"}}};
  }
};

Recognition fail(std::string why) { return {nullptr, std::move(why)}; }

Recognition recognise_elementwise(const Family& family, const TraceResult& trace) {
  // Parts and re-orderings of computed values (relu(x)[:, :10], relu(x).t()) as the same ops of parts of the
  // inputs: every value is then computed over the output's shape.
  const OpGraph sunk = sink_views(trace.graph);
  const OpGraph& g = sunk;
  if (g.outputs.empty()) return fail("the problem has no outputs");
  if (g.nodes.empty()) return fail("the reference computes nothing (it returns its inputs)");
  auto p = std::make_shared<ElementwiseProblem>(family, trace);
  const auto out_meta = g.meta_of(g.outputs.front());
  if (!out_meta) return fail("the output is not computed by the graph");
  p->domain = out_meta->shape;
  const std::int64_t n = numel_of(p->domain);
  p->compute = "tl.float32";
  for (const auto& in : g.inputs)
    if (in.is_tensor && in.meta.dtype == "float64") p->compute = "tl.float64";

  // Slices and pieces of splits of an input or parameter are leaves too (x[:, :n], x.chunk(2, -1)): views
  // of its storage that start further in.
  const Leaves leaves = find_leaves(g, /*slices=*/true);
  std::map<std::string, std::string> alias;  // identity views of computed values: node -> the ref it re-views
  std::set<std::string> computed;
  std::map<std::string, std::size_t> leaf_index;  // ref -> index in p->leaves
  auto resolve = [&](std::string ref) {
    while (alias.contains(ref)) ref = alias.at(ref);
    return ref;
  };
  std::string leaf_error;
  // Reads a view of an input or parameter (a leaf, a slice of one, a half of GLU's) as the kernel variable
  // `var`, once per key; nullopt, with leaf_error set, when it cannot be read over the output.
  auto read_view = [&](const std::string& key, const std::string& var, const std::string& ptr, const Leaf& v,
                       const std::string& kind) -> std::optional<std::string> {
    if (leaf_index.contains(key)) return var;
    const auto meta = *g.meta_of(v.base);
    auto strides = broadcast_strides(v.view, p->domain);
    if (!strides) {
      const std::string shape = fmt::format("[{}]", fmt::join(v.view.shape, ","));
      leaf_error = fmt::format("{} does not broadcast to the output's shape [{}]",
                               kind.empty() ? fmt::format("{} of shape {}", key, shape)
                                            : fmt::format("{}, {} of shape {},", key, kind, shape),
                               fmt::join(p->domain, ","));
      return std::nullopt;
    }
    if (!floating_point(meta.dtype) && !mask_dtype(meta.dtype)) {
      leaf_error = fmt::format("{} has dtype {}: only floating-point, integer and bool tensors are read", key, meta.dtype);
      return std::nullopt;
    }
    leaf_index[key] = p->leaves.size();
    p->leaves.push_back({var, ptr, *owned_tensor_expr(g, v.base), meta.dtype, *strides, v.view.offset});
    p->widest = std::max(p->widest, meta.numel());
    return var;
  };
  OperandFn operand = [&](const Arg& a) -> std::optional<std::string> {
    if (a.kind != Arg::Kind::ref) return std::nullopt;
    const std::string ref = resolve(a.ref);
    if (computed.contains(ref)) return var_of(ref);
    if (const Leaf* leaf = leaves.find(ref)) {
      const Node* node = g.find_node(ref);
      const bool part = node && (is_slice_op(node->target) || node->target == "getitem");
      return read_view(ref, var_of(ref), ref + "_ptr", *leaf, part ? "a slice" : "");
    }
    if (const auto* c = g.find_constant(ref); c && c->value) return float_literal(*c->value);
    if (const auto* c = g.find_constant(ref))
      leaf_error = fmt::format("the model holds a tensor constant {} of shape [{}] that is not a parameter or buffer",
                               c->name, fmt::join(c->meta.shape, ","));
    return std::nullopt;
  };

  // A [C] parameter or buffer read along the output's axis 1 (a BatchNorm's channel): its own leaf, since
  // the same tensor may broadcast the usual way elsewhere.
  auto channel_operand = [&](std::optional<Arg> a) -> std::optional<std::string> {
    if (!a || a->kind != Arg::Kind::ref || p->domain.size() < 2) return std::nullopt;
    const Leaf* leaf = leaves.find(a->ref);
    if (!leaf || leaf->view.shape.size() != 1 || leaf->view.shape[0] != p->domain[1]) return std::nullopt;
    const std::string key = a->ref + "#channel";
    const std::string var = var_of(a->ref) + "_channel";
    if (!leaf_index.contains(key)) {
      const auto meta = *g.meta_of(leaf->base);
      if (!floating_point(meta.dtype)) return std::nullopt;
      std::vector<std::int64_t> strides(p->domain.size(), 0);
      strides[1] = leaf->view.stride.empty() ? 1 : leaf->view.stride[0];
      leaf_index[key] = p->leaves.size();
      p->leaves.push_back({var, a->ref + "_channel_ptr", *owned_tensor_expr(g, leaf->base), meta.dtype, strides, 0});
    }
    return var;
  };

  // A node whose value reaches no output (the unused buffer of log_sigmoid_forward) is not computed.
  const std::set<std::string> live = g.ancestors(g.outputs);
  for (const auto& node : g.nodes) {
    if (!live.contains(node.name)) continue;
    // A layout op, slice or split over an input or parameter: read through its view.
    if (leaves.read_in_place(node.name)) continue;
    if (auto it = leaves.why.find(node.name); it != leaves.why.end()) return fail(it->second);
    if (is_slice_op(node.target) || is_split_op(node.target))
      return fail(fmt::format("{} ({}) takes a part of a computed value: only inputs and parameters are sliced",
                              node.name, node.target));
    if (!broadcast_strides(StridedView::contiguous(node.meta.shape), p->domain))
      return fail(fmt::format("{} ({}) of shape [{}] is not computed over the output's shape [{}]", node.name,
                              node.target, fmt::join(node.meta.shape, ","), fmt::join(p->domain, ",")));
    if (is_identity_view(node.target) && !node.args.empty() && node.args[0].kind == Arg::Kind::ref &&
        computed.contains(resolve(node.args[0].ref))) {
      const auto src = g.meta_of(resolve(node.args[0].ref));
      if (!src || numel_of(src->shape) != n || node.meta.numel() != n)
        return fail(fmt::format("{} ({}) re-views a computed value that does not cover the output", node.name, node.target));
      alias[node.name] = node.args[0].ref;
      continue;
    }
    if (is_layout_op(node.target))
      return fail(fmt::format("{} ({}) re-shapes a computed value: only inputs and parameters are re-viewed", node.name,
                              node.target));
    leaf_error.clear();
    if (node.target == "aten.glu.default") {
      // GLU: the first half along dim times the sigmoid of the second, read as two views of one input or
      // parameter, the second starting half the dimension's stride further. Example: nn.GLU(dim=1) over
      // [4, 6, 9, 10] reads in0[:, :3] and in0[:, 3:] for an output of [4, 3, 9, 10].
      auto x = node.arg(0, "self");
      const Leaf* leaf = x && x->kind == Arg::Kind::ref ? leaves.find(x->ref) : nullptr;
      if (!leaf)
        return fail(fmt::format("{} ({}) halves a computed value: only an input or a parameter is halved", node.name,
                                node.target));
      const auto rank = static_cast<std::int64_t>(leaf->view.shape.size());
      std::int64_t dim = node.arg(1, "dim") && node.arg(1, "dim")->is_number()
                             ? static_cast<std::int64_t>(node.arg(1, "dim")->number()) : -1;
      if (dim < 0) dim += rank;
      const auto meta = *g.meta_of(leaf->base);
      if (dim < 0 || dim >= rank || leaf->view.shape[static_cast<std::size_t>(dim)] % 2 != 0 ||
          !floating_point(meta.dtype))
        return fail(fmt::format("{} ({}) over a dimension it cannot halve", node.name, node.target));
      Leaf half = *leaf;
      half.view.shape[static_cast<std::size_t>(dim)] /= 2;
      Leaf second = half;
      second.view.offset += half.view.shape[static_cast<std::size_t>(dim)] * half.view.stride[static_cast<std::size_t>(dim)];
      const std::string a = var_of(node.name) + "_a", b = var_of(node.name) + "_b";
      if (!read_view(node.name + "#a", a, a + "_ptr", half, "a half") ||
          !read_view(node.name + "#b", b, b + "_ptr", second, "a half"))
        return fail(leaf_error);
      p->body += fmt::format("    {} = {} * tl.sigmoid({})  # {}\n", var_of(node.name), a, b, node.target);
      computed.insert(node.name);
      continue;
    }
    if (is_batch_norm_eval(node)) {
      auto x = node.arg(0, "input");
      auto xe = x ? operand(*x) : std::nullopt;
      if (!xe) return fail(leaf_error.empty() ? node.name + " (batch_norm) normalises something it cannot read" : leaf_error);
      auto channel = [&](std::size_t i, std::string_view kw) { return channel_operand(node.arg(i, kw)); };
      auto e = batch_norm_eval_expr(node, *xe, channel);
      if (e.expr.empty()) return fail(e.why_not);
      p->body += fmt::format("    {} = {}  # {}\n", var_of(node.name), e.expr, node.target);
      computed.insert(node.name);
      continue;
    }
    // PyTorch computes a floating-point result of integer operands in floating point (sqrt of an int64
    // tensor): those operands are converted first. Bool operands stay bool (where's and masked_fill's masks).
    OperandFn promoted = [&](const Arg& a) -> std::optional<std::string> {
      auto v = operand(a);
      if (!v || a.kind != Arg::Kind::ref || !floating_point(node.meta.dtype)) return v;
      const auto m = g.meta_of(resolve(a.ref));
      if (!m || m->dtype.empty() || floating_point(m->dtype) || m->dtype == "bool" || g.find_constant(resolve(a.ref))) return v;
      return fmt::format("{}.to({})", *v, p->compute);
    };
    auto e = pointwise_expr(node, promoted, p->compute);
    if (!leaf_error.empty()) return fail(leaf_error);
    if (e.expr.empty()) return fail(e.why_not);
    p->body += fmt::format("    {} = {}  # {}\n", var_of(node.name), e.expr, node.target);
    computed.insert(node.name);
  }
  for (const auto& out : g.outputs) {
    const std::string ref = resolve(out);
    if (!computed.contains(ref)) {
      // A copy of an input or parameter through layout ops (x.clone(), x.t().contiguous(), a permute made
      // contiguous): read over the output's shape and stored, a kernel that only moves the elements.
      Arg a;
      a.kind = Arg::Kind::ref;
      a.ref = ref;
      leaf_error.clear();
      if (!leaves.find(ref) || !operand(a))
        return fail(leaf_error.empty() ? fmt::format("output {} is not computed by the graph (it is a constant)", out)
                                       : leaf_error);
      computed.insert(ref);
    }
    const auto meta = *g.meta_of(out);
    if (numel_of(meta.shape) != n)
      return fail(fmt::format("output {} has {} elements and the first output {}", out, numel_of(meta.shape), n));
    p->outputs.push_back({var_of(ref), meta.dtype, meta.shape, ""});
  }
  // An input the reference changes in place (x.relu_() returned) is the output's storage: each element is read
  // and then written by the same thread, so the kernel may write where it reads, as the reference does. It
  // must be the whole output, read element for element (contiguous, no other view of it).
  for (const auto& [input, value] : trace.graph.written_inputs) {
    const auto at = std::find_if(g.outputs.begin(), g.outputs.end(), [&](const std::string& o) { return resolve(o) == value; });
    const GraphInput* in = g.find_input(input);
    if (at == g.outputs.end() || !in)
      return fail(fmt::format("the problem changes its input {} in place and returns something else", input));
    Output& o = p->outputs[static_cast<std::size_t>(at - g.outputs.begin())];
    if (!in->meta.contiguous() || in->meta.shape != p->domain || in->meta.dtype != o.dtype || !o.into.empty())
      return fail(fmt::format("the problem changes its input {} in place where the kernel cannot write it "
                              "(not contiguous, or not of the output's shape and dtype)", input));
    const std::vector<std::int64_t> identity = StridedView::contiguous(p->domain).stride;
    for (const auto& l : p->leaves)
      if (l.tensor_expr == *owned_tensor_expr(g, input) && (l.strides != identity || l.start != 0))
        return fail(fmt::format("the problem changes its input {} in place and also reads it through another view",
                                input));
    o.into = *owned_tensor_expr(g, input);
  }
  if (p->leaves.empty()) return fail("the graph reads no tensor");
  p->device_of = p->leaves.front().tensor_expr;
  return {p, ""};
}

}  // namespace

KA_REGISTER_FAMILY(elementwise, recognise_elementwise);

}  // namespace kernelagent

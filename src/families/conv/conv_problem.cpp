// The conv family's recognition: aten.convolution nodes (forward or transposed), each reading a graph input
// (through layout ops) or the previous convolution, with weights and biases the model owns.
// Example: nn.Conv1d(64, 128, 3, stride=3, dilation=4) on x [64, 64, 524280] traces to
//   n0 = aten.convolution.default(in0, c0, None, [3], [0], [4], False, [0], 1)
// and is one stage with in {1, 1, 524280}, out {1, 1, 174760}, kernel {1, 1, 3}, stride {1, 1, 3}.

#include "kernelagent/families/conv/conv_problem.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>

#include "kernelagent/families/common/batch_norm_eval.hpp"
#include "kernelagent/families/common/broadcast.hpp"
#include "kernelagent/families/common/leaves.hpp"
#include "kernelagent/families/common/pointwise_ops.hpp"
#include "kernelagent/families/model_wrapper.hpp"

namespace kernelagent {

bool ConvStage::spatial_contiguous() const {
  return (in[1] == 1 || xs[1] == in[2] * xs[2]) && (in[0] == 1 || xs[0] == in[1] * in[2] * xs[2]);
}

bool ConvStage::rows_apply() const {
  return !transposed && !direct() && groups == 1 && cg() < 8 && kernel[2] > 1 && dilation[2] == 1 &&
         spatial_contiguous();
}

bool ConvStage::outer_applies() const {
  return !transposed && groups == 1 && cg() >= 2 && cg() <= 8 && gemm_k() <= 512;
}

std::int64_t ConvStage::rows_channels() const {
  std::int64_t p = 1;
  while (p < cg()) p *= 2;
  return p;
}

std::vector<std::int64_t> InputPad::padded_shape() const {
  std::vector<std::int64_t> out = shape;
  const std::size_t s = before.size();
  for (std::size_t k = 0; k < s; ++k) out[out.size() - s + k] += before[k] + after[k];
  return out;
}

std::int64_t ConvStage::max_offset() const {
  std::int64_t reach = (batch - 1) * xs_n + (cin - 1) * xs_c;
  for (int i = 0; i < 3; ++i) reach += (in[i] - 1) * xs[i];
  // The padded channels-last copy of the window-rows order is larger than the input.
  const std::int64_t padded = rows_apply() ? batch * in_positions() * rows_channels() : 0;
  return std::max({reach, padded, batch * cout * out_positions(), cin * cout * window()});
}

namespace {

// An int-list argument (stride, padding, dilation) for `s` spatial axes, right-aligned into three.
std::optional<std::array<std::int64_t, 3>> axes(const Node& n, std::size_t i, std::size_t s, std::int64_t fill) {
  auto a = n.arg(i, "");
  std::vector<std::int64_t> v;
  if (a && a->kind == Arg::Kind::list) {
    for (const auto& item : a->items) {
      if (!item.is_number()) return std::nullopt;
      v.push_back(static_cast<std::int64_t>(item.number()));
    }
  } else if (a && a->is_number()) {
    v.push_back(static_cast<std::int64_t>(a->number()));
  } else {
    return std::nullopt;
  }
  if (v.size() == 1) v.assign(s, v[0]);
  if (v.size() != s) return std::nullopt;
  std::array<std::int64_t, 3> out{fill, fill, fill};
  for (std::size_t k = 0; k < s; ++k) out[3 - s + k] = v[k];
  return out;
}

bool flag(const Node& n, std::size_t i) {
  auto a = n.arg(i, "");
  return a && a->kind == Arg::Kind::value && a->value.is_boolean() && a->value.get<bool>();
}

struct Reader {
  const OpGraph& g;
  const Leaves leaves;

  // The expression of a tensor read whole: a parameter the model owns (ModelNew creates it contiguous) or a
  // forward input seen as it is (ModelNew's guard requires it contiguous: F.conv2d(x, w) with w an input);
  // nullopt for anything else.
  std::optional<std::string> whole(const std::string& ref) const {
    const Leaf* leaf = leaves.find(ref);
    if (!leaf) return std::nullopt;
    if (const Constant* c = g.find_constant(leaf->base); c && c->owned() && leaf->view.shape == c->meta.shape)
      return owned_tensor_expr(g, c->name);
    const GraphInput* in = g.find_input(leaf->base);
    if (in && in->is_tensor && leaf->view.shape == in->meta.shape &&
        leaf->view.stride == StridedView::contiguous(in->meta.shape).stride)
      return owned_tensor_expr(g, in->name);
    return std::nullopt;
  }
};

// The padding mode of a pad op in front of a convolution, or "" for another op.
std::string pad_mode(const std::string& target) {
  for (const char* d : {"1d", "2d", "3d"}) {
    if (target == fmt::format("aten.reflection_pad{}.default", d)) return "reflect";
    if (target == fmt::format("aten.replication_pad{}.default", d)) return "replicate";
  }
  if (target == "aten.constant_pad_nd.default") return "constant";
  return "";
}

// A pad op over a graph input (through layout ops): its mode, amounts (the op's list runs from the last axis
// backwards, before and after for each) and fill, or why not.
std::variant<InputPad, std::string> input_pad(const OpGraph& g, const Leaves& leaves, const Node& n) {
  InputPad pad;
  pad.mode = pad_mode(n.target);
  auto x = n.arg(0, "self");
  const Leaf* leaf = x && x->kind == Arg::Kind::ref ? leaves.find(x->ref) : nullptr;
  if (!leaf || !g.find_input(leaf->base)) return fmt::format("{} ({}) pads something other than a graph input", n.name, n.target);
  pad.source = *owned_tensor_expr(g, leaf->base);
  pad.shape = leaf->view.shape;
  pad.strides = leaf->view.stride;
  auto amounts = n.arg(1, pad.mode == "constant" ? "pad" : "padding");
  std::vector<std::int64_t> v;
  if (amounts && amounts->kind == Arg::Kind::list)
    for (const auto& item : amounts->items) {
      if (!item.is_number()) return fmt::format("{} ({}) has padding that is not constant", n.name, n.target);
      v.push_back(static_cast<std::int64_t>(item.number()));
    }
  if (v.empty() || v.size() % 2 != 0 || v.size() / 2 + 2 > pad.shape.size())
    return fmt::format("{} ({}) pads the batch or channel axis, or its padding cannot be read", n.name, n.target);
  const std::size_t s = pad.shape.size() - 2;  // the spatial axes
  pad.before.assign(s, 0);
  pad.after.assign(s, 0);
  for (std::size_t i = 0; i < v.size() / 2; ++i) {
    pad.before[s - 1 - i] = v[2 * i];
    pad.after[s - 1 - i] = v[2 * i + 1];
  }
  for (std::size_t k = 0; k < s; ++k) {
    const std::int64_t len = pad.shape[2 + k];
    if (pad.before[k] < 0 || pad.after[k] < 0) return fmt::format("{} ({}) crops (negative padding)", n.name, n.target);
    if (pad.mode == "reflect" && (pad.before[k] >= len || pad.after[k] >= len))
      return fmt::format("{} ({}) reflects further than the axis is long", n.name, n.target);
  }
  if (pad.mode == "constant") {
    auto value = n.arg(2, "value");
    if (value && value->is_number()) pad.value = value->number();
    else if (!is_none(value))
      return fmt::format("{} ({}) pads with a value that is not constant", n.name, n.target);
  }
  return pad;
}

// Ops that re-shape a contiguous tensor without moving its elements.
bool keeps_element_order(std::string_view t) {
  return is_identity_view(t) || t == "aten.squeeze.dim" || t == "aten.squeeze.dims" || t == "aten.squeeze.default" ||
         t == "aten.unsqueeze.default" || t == "aten.flatten.using_ints";
}

}  // namespace

std::variant<ConvChain, std::string> recognise_conv_chain(const TraceResult& trace) {
  const OpGraph& g = trace.graph;
  if (g.outputs.size() != 1) return "the conv family computes one output";
  Reader rd{g, find_leaves(g)};
  ConvChain chain;
  std::string previous;  // the node name of the previous convolution
  std::string padded;  // the node name of the pad op in front of the first convolution
  std::map<std::string, std::string> epilogue_vars;  // pointwise nodes after the last convolution -> variable
  const std::set<std::string> live = g.ancestors(g.outputs);  // a node no output needs is not computed
  // A per-channel tensor the epilogue reads, loaded once a channel (o) through its stride along the channels.
  auto epilogue_channel = [&](const std::string& expr, std::int64_t stride) {
    for (std::size_t i = 0; i < chain.epilogue_channels.size(); ++i)
      if (chain.epilogue_channels[i].first == expr && chain.epilogue_channels[i].second == stride)
        return fmt::format("ch{}", i);
    chain.epilogue_channels.emplace_back(expr, stride);
    return fmt::format("ch{}", chain.epilogue_channels.size() - 1);
  };
  auto epilogue_input = [&](const std::string& ref) -> std::optional<std::string> {
    if (ref == previous) return std::string("acc");
    if (auto v = epilogue_vars.find(ref); v != epilogue_vars.end()) return v->second;
    return std::nullopt;
  };
  for (const auto& n : g.nodes) {
    if (!live.contains(n.name)) continue;
    if (is_layout_op(n.target) && rd.leaves.find(n.name)) continue;  // a re-view of an input or weight
    if (!pad_mode(n.target).empty() && chain.stages.empty() && !chain.pad) {
      auto pad = input_pad(g, rd.leaves, n);
      if (auto* why = std::get_if<std::string>(&pad)) return *why;
      chain.pad = std::get<InputPad>(pad);
      padded = n.name;
      continue;
    }
    if (!chain.stages.empty() && keeps_element_order(n.target) && !n.args.empty() && n.args[0].kind == Arg::Kind::ref &&
        (n.args[0].ref == previous || epilogue_vars.contains(n.args[0].ref)) &&
        n.meta.numel() == TensorMeta{chain.stages.back().out_shape, "", {}}.numel()) {
      // A copy or alias of the output (detach, clone), or a re-shape that keeps its elements in order (an unbatched
      // input is convolved as a batch of one, then squeezed): the same values, returned in that shape.
      if (n.meta.shape != chain.stages.back().out_shape) chain.output_shape = n.meta.shape;
      const std::string from = n.args[0].ref == previous ? "acc" : epilogue_vars.at(n.args[0].ref);
      const std::string var = "e_" + n.name;
      chain.epilogue.push_back(fmt::format("{} = {}  # {}", var, from, n.target));
      chain.epilogue_result = var;
      epilogue_vars[n.name] = var;
      continue;
    }
    if (!chain.stages.empty() && chain.output_shape.empty() && is_batch_norm_eval(n)) {
      // BatchNorm in evaluation mode after the last convolution: its [C] statistics and parameters are read
      // along the output's channels, in the epilogue (its getitem 0 is a pointwise op after it).
      auto x = n.arg(0, "input");
      auto xe = x && x->kind == Arg::Kind::ref ? epilogue_input(x->ref) : std::nullopt;
      if (!xe) return fmt::format("{} ({}) normalises something other than the convolution's output", n.name, n.target);
      const std::int64_t channels = chain.stages.back().out_shape.at(1);
      auto channel = [&](std::size_t i, std::string_view kw) -> std::optional<std::string> {
        auto a = n.arg(i, kw);
        const Leaf* leaf = a && a->kind == Arg::Kind::ref ? rd.leaves.find(a->ref) : nullptr;
        if (!leaf || leaf->view.shape != std::vector<std::int64_t>{channels}) return std::nullopt;
        const auto meta = g.meta_of(leaf->base);
        if (!meta || !float_dtype(meta->dtype)) return std::nullopt;
        return epilogue_channel(*owned_tensor_expr(g, leaf->base), leaf->view.stride.empty() ? 1 : leaf->view.stride[0]);
      };
      auto e = batch_norm_eval_expr(n, *xe, channel);
      if (e.expr.empty()) return e.why_not;
      const std::string var = "e_" + n.name;
      chain.epilogue.push_back(fmt::format("{} = {}  # {}", var, e.expr, n.target));
      chain.epilogue_result = var;
      epilogue_vars[n.name] = var;
      continue;
    }
    if (n.target != "aten.convolution.default" && !chain.stages.empty()) {
      // A pointwise op on the last convolution's output (or on the ops after it): one more line of its epilogue.
      std::string why;
      OperandFn fn = [&](const Arg& a) -> std::optional<std::string> {
        if (a.kind != Arg::Kind::ref) return std::nullopt;
        if (auto v = epilogue_input(a.ref)) return v;
        if (const auto* c = g.find_constant(a.ref); c && c->value && !c->owned()) return float_literal(*c->value);
        // A tensor of one value a channel (a [C, 1, 1] parameter), read once a channel.
        // (Not after a re-shape of the output: its channels may no longer be the second axis.)
        const Leaf* leaf = chain.output_shape.empty() ? rd.leaves.find(a.ref) : nullptr;
        const auto& out_shape = chain.stages.back().out_shape;
        auto strides = leaf ? broadcast_strides(leaf->view, out_shape) : std::nullopt;
        bool per_channel = strides.has_value();
        if (strides)
          for (std::size_t k = 0; k < strides->size(); ++k)
            if (k != 1 && (*strides)[k] != 0) per_channel = false;
        const auto meta = leaf ? g.meta_of(leaf->base) : std::nullopt;
        if (per_channel && meta && float_dtype(meta->dtype)) {
          return epilogue_channel(*owned_tensor_expr(g, leaf->base), (*strides)[1]);
        }
        why = fmt::format("{} ({}) after the convolution reads {}, a tensor that is neither a scalar nor one value a "
                          "channel: only those join its epilogue",
                          n.name, n.target, a.ref);
        return std::nullopt;
      };
      auto e = pointwise_expr(n, fn, "tl.float32");
      if (!why.empty()) return why;
      if (e.expr.empty())
        return fmt::format("{} ({}) is neither a convolution nor a pointwise op after one ({})", n.name, n.target,
                           e.why_not);
      const auto meta = g.meta_of(n.name);
      if (meta && !meta->shape.empty() &&
          meta->shape != (chain.output_shape.empty() ? chain.stages.back().out_shape : chain.output_shape))
        return fmt::format("{} ({}) changes the convolution's output shape", n.name, n.target);
      const std::string var = "e_" + n.name;
      chain.epilogue.push_back(fmt::format("{} = {}  # {}", var, e.expr, n.target));
      chain.epilogue_result = var;
      epilogue_vars[n.name] = var;
      continue;
    }
    if (n.target == "aten.new_empty.default" && chain.stages.empty())
      return fmt::format("{} ({}) builds a padded copy of the input piece by piece, as padding_mode='circular' "
                         "does: the conv family reads zero, reflect and replicate padding",
                         n.name, n.target);
    if (n.target != "aten.convolution.default")
      return fmt::format("{} ({}) is not a convolution: the conv family computes convolutions and nothing else", n.name,
                         n.target);
    if (!chain.epilogue.empty()) return fmt::format("{} convolves the output of pointwise ops after a convolution", n.name);
    auto x = n.arg(0, "input"), w = n.arg(1, "weight"), b = n.arg(2, "bias");
    if (!x || x->kind != Arg::Kind::ref || !w || w->kind != Arg::Kind::ref)
      return "a convolution whose input or weight is not a tensor";
    ConvStage st;
    st.transposed = flag(n, 6);
    st.out_name = fmt::format("y{}", chain.stages.size());
    const auto wmeta = g.meta_of(w->ref);
    if (!wmeta || wmeta->shape.size() < 3 || wmeta->shape.size() > 5) return "a convolution of 1 to 3 spatial axes";
    const std::size_t s = wmeta->shape.size() - 2;
    auto weight = rd.whole(w->ref);
    if (!weight) return "the convolution's weight is neither a parameter the model owns nor a forward input";
    st.weight_expr = *weight;
    if (b && b->kind == Arg::Kind::ref) {
      auto bias = rd.whole(b->ref);
      if (!bias) return "the convolution's bias is neither a parameter the model owns nor a forward input";
      st.bias_expr = *bias;
    }
    // The input: a graph input (through layout ops) for the first stage, the previous output after it.
    std::vector<std::int64_t> xshape, xstride;
    if (!previous.empty()) {
      if (x->ref != previous) return fmt::format("{} does not read the previous convolution's output", n.name);
      const auto& prev = chain.stages.back();
      st.input_expr = prev.out_name;
      xshape = prev.out_shape;
      xstride = StridedView::contiguous(xshape).stride;
    } else if (chain.pad) {
      // The padded copy, made contiguous before the first convolution.
      if (x->ref != padded) return fmt::format("{} does not read the padded input", n.name);
      st.input_expr = "xp";
      xshape = chain.pad->padded_shape();
      xstride = StridedView::contiguous(xshape).stride;
    } else {
      const Leaf* leaf = rd.leaves.find(x->ref);
      if (!leaf || !g.find_input(leaf->base)) return "the first convolution does not read a graph input";
      st.input_expr = *owned_tensor_expr(g, leaf->base);
      xshape = leaf->view.shape;
      xstride = leaf->view.stride;
    }
    if (xshape.size() != s + 2) return "the convolution's input and weight ranks disagree";
    const auto xmeta = g.meta_of(x->ref);
    if (!xmeta || !float_dtype(xmeta->dtype)) return "a convolution of values that are not floating point";
    if (wmeta->dtype != xmeta->dtype || n.meta.dtype != xmeta->dtype)
      return "the convolution's input, weight and output dtypes differ";
    st.dtype = xmeta->dtype;
    st.batch = xshape[0];
    st.cin = xshape[1];
    st.xs_n = xstride[0];
    st.xs_c = xstride[1];
    // A forward weight is [cout, cin / groups, window], a transposed one [cin, cout / groups, window].
    st.cout = st.transposed ? wmeta->shape[1] : wmeta->shape[0];
    for (std::size_t k = 0; k < s; ++k) {
      st.in[3 - s + k] = xshape[2 + k];
      st.xs[3 - s + k] = xstride[2 + k];
      st.kernel[3 - s + k] = wmeta->shape[2 + k];
    }
    auto stride = axes(n, 3, s, 1), padding = axes(n, 4, s, 0), dilation = axes(n, 5, s, 1);
    if (!stride || !padding || !dilation) return "the convolution's stride, padding or dilation cannot be read";
    st.stride = *stride;
    st.padding = *padding;
    st.dilation = *dilation;
    auto groups = n.arg(8, "groups");
    st.groups = groups && groups->is_number() ? static_cast<std::int64_t>(groups->number()) : 1;
    if (st.groups < 1 || st.cin % st.groups != 0) return "the convolution's groups do not divide its channels";
    if (st.transposed) st.cout *= st.groups;
    const bool weight_fits = st.transposed ? wmeta->shape[0] == st.cin : wmeta->shape[1] == st.cg();
    if (st.cout % st.groups != 0 || !weight_fits) return "the convolution's weight does not fit its channels and groups";
    if (n.meta.shape.size() != s + 2) return "the convolution's output shape is not recorded";
    st.out_shape = n.meta.shape;
    for (std::size_t k = 0; k < s; ++k) st.out[3 - s + k] = n.meta.shape[2 + k];
    for (int k = 0; k < 3; ++k)
      if (st.stride[k] < 1 || st.dilation[k] < 1 || st.padding[k] < 0 || st.out[k] < 1)
        return "a convolution with a stride or dilation below 1, negative padding or an empty output";
    if (st.batch < 1 || st.cin < 1 || st.cout < 1) return "a convolution with an empty batch or no channels";
    chain.stages.push_back(std::move(st));
    previous = n.name;
  }
  if (chain.stages.empty()) return "the graph has no convolution";
  const std::string last = chain.epilogue.empty() ? previous : chain.epilogue_result.substr(2);
  if (g.outputs.front() != last) return "the output is not the last convolution's (or the last pointwise op's after it)";
  return chain;
}

}  // namespace kernelagent

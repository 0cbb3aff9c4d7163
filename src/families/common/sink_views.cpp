#include "kernelagent/families/common/sink_views.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kernelagent/families/common/pointwise_ops.hpp"

namespace kernelagent {

namespace {

// The views that commute with a pointwise op: they pick, repeat or re-order elements and never merge dims.
bool sinkable_view(std::string_view t) {
  return t == "aten.transpose.int" || t == "aten.permute.default" || t == "aten.t.default" ||
         t == "aten.slice.Tensor" || t == "aten.select.int" || t == "aten.expand.default";
}

// Whether a keyword argument passes a tensor (which the rewrite would have to view too).
bool tensor_kwarg(const nlohmann::json& kwargs) {
  if (!kwargs.is_object()) return false;
  return std::any_of(kwargs.begin(), kwargs.end(), [](const auto& kw) { return kw.is_object() && kw.contains("ref"); });
}

Arg ref_arg(const std::string& ref) {
  Arg a;
  a.kind = Arg::Kind::ref;
  a.ref = ref;
  return a;
}

Arg ints_arg(const std::vector<std::int64_t>& v) {
  Arg a;
  a.kind = Arg::Kind::list;
  for (auto x : v) {
    Arg item;
    item.value = x;
    a.items.push_back(item);
  }
  return a;
}

}  // namespace

OpGraph sink_views(const OpGraph& graph) {
  OpGraph g = graph;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node view = g.nodes[i];
    if (!sinkable_view(view.target) || view.args.empty() || view.args[0].kind != Arg::Kind::ref) continue;
    const Node* source = g.find_node(view.args[0].ref);
    if (!source || !is_pointwise_op(source->target) || source->meta.dtype.empty()) continue;
    const Node pointwise = *source;
    const auto& full = pointwise.meta.shape;
    // Each tensor operand of the pointwise op, expanded to its value's shape where it broadcasts, then viewed
    // as `view` views the value: new nodes in front of the view, which the loop reaches next (a view of a
    // computed operand sinks in its turn).
    std::vector<Node> before;
    Node result = pointwise;
    result.name = view.name;
    result.meta.shape = view.meta.shape;
    result.meta.stride.clear();
    bool ok = true;
    for (std::size_t k = 0; k < result.args.size() && ok; ++k) {
      Arg& a = result.args[k];
      if (a.kind != Arg::Kind::ref) continue;
      const auto meta = g.meta_of(a.ref);
      if (!meta) {
        ok = false;
        break;
      }
      if (meta->shape.empty()) continue;  // a 0-d operand broadcasts to any part
      std::string operand = a.ref;
      if (meta->shape != full) {
        Node expand;
        expand.name = fmt::format("{}_e{}", view.name, k);
        expand.target = "aten.expand.default";
        expand.args = {ref_arg(operand), ints_arg(full)};
        expand.meta = TensorMeta{full, meta->dtype, {}};
        before.push_back(expand);
        operand = expand.name;
      }
      Node part = view;
      part.name = fmt::format("{}_v{}", view.name, k);
      part.args[0] = ref_arg(operand);
      part.meta = TensorMeta{view.meta.shape, meta->dtype, {}};
      before.push_back(part);
      a = ref_arg(part.name);
    }
    if (!ok || tensor_kwarg(result.kwargs)) continue;  // a tensor passed by keyword is left as it is
    before.push_back(result);
    g.nodes.erase(g.nodes.begin() + static_cast<std::ptrdiff_t>(i));
    g.nodes.insert(g.nodes.begin() + static_cast<std::ptrdiff_t>(i), before.begin(), before.end());
    --i;  // the first new node is at i: look at it (and the rest) in turn
  }
  return g;
}

}  // namespace kernelagent

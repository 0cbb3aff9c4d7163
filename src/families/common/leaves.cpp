#include "kernelagent/families/common/leaves.hpp"

namespace kernelagent {

const Leaf* Leaves::find(const std::string& ref) const {
  auto it = by_ref.find(ref);
  return it == by_ref.end() ? nullptr : &it->second;
}

Leaves find_leaves(const OpGraph& g) {
  Leaves out;
  for (const auto& in : g.inputs) {
    if (!in.is_tensor) continue;
    StridedView v = StridedView::contiguous(in.meta.shape);
    if (in.meta.stride.size() == in.meta.shape.size()) v.stride = in.meta.stride;
    out.by_ref[in.name] = {in.name, v};
  }
  for (const auto& c : g.constants)
    if (c.owned()) out.by_ref[c.name] = {c.name, StridedView::contiguous(c.meta.shape)};
  for (const auto& n : g.nodes) {
    if (!is_layout_op(n.target) || n.args.empty() || n.args[0].kind != Arg::Kind::ref) continue;
    const Leaf* src = out.find(n.args[0].ref);
    if (!src) continue;
    LayoutResult r = apply_layout_op(n, src->view);
    if (r.view) out.by_ref[n.name] = {src->base, *r.view};
    else out.why[n.name] = r.why_not;
  }
  return out;
}

}  // namespace kernelagent

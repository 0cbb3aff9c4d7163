#include "kernelagent/families/common/leaves.hpp"

#include <fmt/format.h>

namespace kernelagent {

const Leaf* Leaves::find(const std::string& ref) const {
  auto it = by_ref.find(ref);
  return it == by_ref.end() ? nullptr : &it->second;
}

Leaves find_leaves(const OpGraph& g, bool slices) {
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
    if (!(is_layout_op(n.target) || (slices && is_slice_op(n.target))) || n.args.empty() ||
        n.args[0].kind != Arg::Kind::ref)
      continue;
    const Leaf* src = out.find(n.args[0].ref);
    if (!src) continue;
    LayoutResult r = apply_layout_op(n, src->view);
    if (r.view) out.by_ref[n.name] = {src->base, *r.view};
    else out.why[n.name] = r.why_not;
  }
  return out;
}

std::string leaf_tensor_expr(const std::string& tensor_expr, const StridedView& view) {
  if (view.offset == 0) return tensor_expr;
  return fmt::format("{0}.as_strided((1,), (1,), {0}.storage_offset() + {1})", tensor_expr, view.offset);
}

}  // namespace kernelagent

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
  std::map<std::string, std::pair<std::string, std::vector<StridedView>>> pieces;  // split node -> base, views
  for (const auto& n : g.nodes) {
    if (n.args.empty() || n.args[0].kind != Arg::Kind::ref) continue;
    if (slices && is_split_op(n.target)) {
      if (const Leaf* src = out.find(n.args[0].ref)) {
        SplitResult r = split_views(n, src->view);
        if (r.pieces.empty()) out.why[n.name] = r.why_not;
        else {
          pieces[n.name] = {src->base, std::move(r.pieces)};
          out.splits.insert(n.name);
        }
      }
      continue;
    }
    if (slices && n.target == "getitem" && n.args.size() == 2 && pieces.contains(n.args[0].ref)) {
      const auto& [base, views] = pieces.at(n.args[0].ref);
      const auto i = n.args[1].is_number() ? static_cast<std::int64_t>(n.args[1].number()) : -1;
      if (i >= 0 && i < static_cast<std::int64_t>(views.size())) out.by_ref[n.name] = {base, views[static_cast<std::size_t>(i)]};
      else out.why[n.name] = fmt::format("{} ({}) takes a piece of a split it cannot name", n.name, n.target);
      continue;
    }
    if (!is_layout_op(n.target) && !(slices && is_slice_op(n.target))) continue;
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

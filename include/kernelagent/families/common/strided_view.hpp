#pragma once
// Layout ops as stride arithmetic. A matmul operand that the reference reaches through transposes,
// permutes, views and unsqueezes is still the graph input's storage read with other strides; the kernel
// takes those strides and never copies. Example: A of shape [80, 64], stride [64, 1], after
// aten.permute.default(A, [1, 0]) is the view shape [64, 80], stride [1, 64] of the same storage.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernelagent/core/op_graph.hpp"

namespace kernelagent {

struct StridedView {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> stride;  // in elements; 0 along broadcast (expanded) dims
  std::int64_t offset = 0;           // elements from the storage's first to the view's first (a slice's start)

  static StridedView contiguous(std::vector<std::int64_t> shape);
  bool row_major() const;  // the same element order as a contiguous tensor of this shape
};

// True for the aten ops that only re-view their first argument's data (no arithmetic).
bool is_layout_op(std::string_view target);

// True for the ops that view a part of their first argument (x[:, a:b:s], x[:, i], narrow): views with an
// offset, which apply_layout_op computes but only the families that read `offset` ask for.
bool is_slice_op(std::string_view target);

// True for the ops that cut their first argument into pieces along a dim (x.split(n, d), x.chunk(k, d),
// x.split([a, b], d), x.unbind(d)); their pieces are read through getitem.
bool is_split_op(std::string_view target);

struct LayoutResult {
  std::optional<StridedView> view;  // nullopt when the op cannot be expressed as a view
  std::string why_not;              // set with nullopt
};

// `node` (a layout op) applied to its first argument seen as `in`. Clones and copies keep the values,
// so for reading they are the identity.
LayoutResult apply_layout_op(const Node& node, const StridedView& in);

// The pieces a split op (is_split_op) cuts `in` into, each a view with its own offset, or why none.
struct SplitResult {
  std::vector<StridedView> pieces;
  std::string why_not;  // set when pieces is empty
};
SplitResult split_views(const Node& node, const StridedView& in);

// The strides of `in` re-viewed as `shape` without a copy (PyTorch's rule for Tensor.view), or nullopt
// where only a copy could produce that shape.
std::optional<std::vector<std::int64_t>> view_strides(const StridedView& in, const std::vector<std::int64_t>& shape);

}  // namespace kernelagent

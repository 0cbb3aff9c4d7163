#pragma once
// BatchNorm in evaluation mode (aten.native_batch_norm with training false, or its no-training form) is
// pointwise: each channel (axis 1) normalised by its running mean and variance, then scaled and shifted by
// its weight and bias where the module has them. The elementwise family fuses it with the ops around it; the
// conv family runs it in a convolution's epilogue.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "kernelagent/core/op_graph.hpp"
#include "kernelagent/families/common/pointwise_ops.hpp"

namespace kernelagent {

bool is_batch_norm_eval(const Node& n);

// The expression of the normalised `x`; `channel(i, kw)` gives the node's [C] argument i (keyword kw) as read
// along axis 1, or nullopt where it is not a [C] tensor of the module.
PointwiseExpr batch_norm_eval_expr(const Node& n, const std::string& x,
                                   const std::function<std::optional<std::string>(std::size_t, std::string_view)>& channel);

}  // namespace kernelagent

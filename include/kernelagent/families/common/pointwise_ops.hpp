#pragma once
// The aten pointwise ops the elementwise family can fuse, each as a Triton expression over its operands.
// Example: aten.leaky_relu.default(x, 0.2) with x bound to "v0" becomes "tl.where(v0 > 0, v0, v0 * 0.2)".

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "kernelagent/core/op_graph.hpp"

namespace kernelagent {

// Turns an argument into a Triton expression: a tensor's variable name or a literal.
// nullopt when the argument cannot be used (e.g. a tensor that is not a loaded input).
using OperandFn = std::function<std::optional<std::string>(const Arg&)>;

struct PointwiseExpr {
  std::string expr;     // empty when unsupported
  std::string why_not;  // set when unsupported
};

// True for ops that only re-view their first argument without moving data (clone, view, detach, ...):
// over a flat contiguous index space they are the identity.
bool is_identity_view(std::string_view target);

// True for the ops pointwise_expr knows (getitem aside): each output element a function of the same element
// of its operands, broadcast.
bool is_pointwise_op(std::string_view target);

// The Triton expression for one node. Computation is in the kernel's compute dtype (fp32 for
// fp32/fp16/bf16 inputs); `compute_dtype` is the tl dtype name used for casts ("tl.float32").
PointwiseExpr pointwise_expr(const Node& node, const OperandFn& operand, std::string_view compute_dtype);

// float32, float16 or bfloat16: the dtypes the families' kernels compute in fp32 and store back.
bool float_dtype(const std::string& dt);

// A Python float literal that round-trips the double exactly, e.g. 0.5 -> "0.5", 3 -> "3.0".
std::string float_literal(double v);

}  // namespace kernelagent

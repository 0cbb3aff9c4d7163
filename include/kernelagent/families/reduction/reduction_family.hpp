#pragma once
// The reduction family: one reduction or softmax over one dimension of a contiguous input (and for
// max / min over a dimension, its values and indices together).
// Example: torch.sum(x, dim=1, keepdim=True) on x of shape [128, 4096, 4095] traces to
// aten.sum.dim_IntList(in0, [1], True); the input is viewed as [OUTER=128, R=4096, INNER=4095] and each
// program sums R for one outer index and a block of inner columns.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernelagent/core/op_graph.hpp"

namespace kernelagent {

// What the recognised graph computes, in the kernel's terms: the family's named parameters.
struct ReductionShape {
  std::string op;         // sum, mean, max, min, argmax, argmin, prod, softmax, log_softmax
  std::string input;      // the graph input reduced
  std::int64_t outer = 1, r = 1, inner = 1;
  std::vector<std::int64_t> out_shape;
  std::string out_dtype;
  // torch.max(x, dim) / torch.min(x, dim) returned whole: the values (input dtype) beside the indices (op is
  // argmax / argmin), in the order the graph returns them.
  bool values_too = false;
  bool values_first = false;
  std::string values_dtype;
};

// The shape of the reduction, or the reason the graph is not one (in *why_not).
std::optional<ReductionShape> recognise_reduction_shape(const TraceResult& trace, std::string* why_not);

}  // namespace kernelagent

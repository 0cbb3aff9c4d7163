// The pieces of a product kernel file that the matmul and matvec families share: the returned view and
// the choice of 32- or 64-bit offsets.
#include "kernelagent/families/matmul/matmul_emit.hpp"

#include <fmt/format.h>

#include "kernelagent/families/model_wrapper.hpp"

namespace kernelagent::matmul_emit {

// The returned tensor as a view of the contiguous buffer `c` the kernel wrote.
std::string return_expr(const MatmulProblem& p, const std::vector<std::int64_t>& buffer_shape) {
  if (p.output.shape == buffer_shape) return "c";
  if (p.row_major_output()) return fmt::format("c.view({})", py_tuple(p.output.shape));
  return fmt::format("c.as_strided({}, {})", py_tuple(p.output.shape), py_tuple(p.output.stride));
}

// 32-bit offsets are cheaper; past 2^31 elements of any tensor the kernel needs 64-bit ones.
bool needs_wide_offsets(const MatmulProblem& p, std::int64_t split_k) {
  const std::int64_t limit = std::int64_t{1} << 30;  // headroom for the masked lanes past the edges
  return p.max_offset() >= limit || split_k * p.batch * p.m * p.n >= limit;
}

}  // namespace kernelagent::matmul_emit

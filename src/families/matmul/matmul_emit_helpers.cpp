// The pieces of a product kernel file that the matmul and matvec families share: the forward's signature
// and shape checks, the returned view, and the choice of 32- or 64-bit offsets.
#include "kernelagent/families/matmul/matmul_emit.hpp"

#include <fmt/format.h>

namespace kernelagent::matmul_emit {

// A Python tuple literal: (3,) for one element.
std::string py_tuple(const std::vector<std::int64_t>& v) {
  return fmt::format("({}{})", fmt::join(v, ", "), v.size() == 1 ? "," : "");
}

std::string strip(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// The forward's parameters, and checks that each tensor input has the shape and strides the kernel's
// sizes and strides were derived from (the reference's layout ops were resolved at trace time).
void forward_signature(const TraceResult& trace, std::string& params, std::string& checks) {
  for (const auto& in : trace.graph.inputs) {
    params += (params.empty() ? "" : ", ") + in.name;
    if (!in.is_tensor) continue;
    const auto stride = in.meta.stride.empty() ? StridedView::contiguous(in.meta.shape).stride : in.meta.stride;
    checks += fmt::format(
        "        assert tuple({0}.shape) == {1} and {0}.stride() == {2}, "
        "\"this kernel was specialised for {0} of shape {1} and stride {2}\"\n",
        in.name, py_tuple(in.meta.shape), py_tuple(stride));
  }
}

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

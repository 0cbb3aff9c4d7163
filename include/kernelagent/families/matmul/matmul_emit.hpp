#pragma once
// The pieces of a product kernel file that the matmul and matvec families share.

#include <cstdint>
#include <string>
#include <vector>

#include "kernelagent/core/op_graph.hpp"
#include "kernelagent/families/matmul/matmul_problem.hpp"

namespace kernelagent::matmul_emit {

// The returned tensor as a view of the contiguous buffer `c` the kernel wrote.
std::string return_expr(const MatmulProblem& p, const std::vector<std::int64_t>& buffer_shape);

// 32-bit offsets are cheaper; past 2^31 elements of any tensor the kernel needs 64-bit ones.
bool needs_wide_offsets(const MatmulProblem& p, std::int64_t split_k);

}  // namespace kernelagent::matmul_emit

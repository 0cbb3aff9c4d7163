#pragma once
// The pieces of a product kernel file that the matmul and matvec families share.

#include <cstdint>
#include <string>
#include <vector>

#include "kernelagent/core/op_graph.hpp"
#include "kernelagent/families/matmul/matmul_problem.hpp"

namespace kernelagent::matmul_emit {

// A Python tuple literal: (3,) for one element.
std::string py_tuple(const std::vector<std::int64_t>& v);

// `s` without its trailing newlines.
std::string strip(std::string s);

// The forward's parameters, and checks that each tensor input has the shape and strides the kernel's
// sizes and strides were derived from (the reference's layout ops were resolved at trace time).
void forward_signature(const TraceResult& trace, std::string& params, std::string& checks);

// The returned tensor as a view of the contiguous buffer `c` the kernel wrote.
std::string return_expr(const MatmulProblem& p, const std::vector<std::int64_t>& buffer_shape);

// 32-bit offsets are cheaper; past 2^31 elements of any tensor the kernel needs 64-bit ones.
bool needs_wide_offsets(const MatmulProblem& p, std::int64_t split_k);

}  // namespace kernelagent::matmul_emit

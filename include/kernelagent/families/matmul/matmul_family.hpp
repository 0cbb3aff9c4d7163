#pragma once
// The matmul family: one matrix product (mm, bmm, mv, matmul; 3-D x 2-D and einsum forms that trace to
// one product; transposed operands; tril/triu of the product; diag(d) @ X) as a grouped, tiled Triton
// tl.dot kernel. Example: torch.matmul(A.T, B) with A stored [K, M] runs with A's strides swapped, no copy;
// torch.tril(A @ B) zeroes the upper triangle in the epilogue and skips tiles that are all zero.

#include <cstdint>
#include <string>

#include "kernelagent/families/family.hpp"
#include "kernelagent/families/matmul/matmul_problem.hpp"

namespace kernelagent {

// Shared memory one program of the product kernel needs: its pipelined A and B tiles.
std::int64_t matmul_smem_bytes(const Config& config, const std::string& dtype);

// The kernel file for one configuration of a recognised product (matmul_emit.cpp).
// `helpers`: the shared pointwise helpers an epilogue may call (empty without one).
Emission matmul_emission(const MatmulProblem& p, const Config& config, const std::string& helpers);

}  // namespace kernelagent

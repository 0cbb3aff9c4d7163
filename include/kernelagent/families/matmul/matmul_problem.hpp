#pragma once
// What the matmul family recognises in a trace: one matrix product C[b] = A[b] @ B[b] whose operands are
// graph inputs seen through layout ops (read by strides, never copied), optionally masked by tril/triu,
// and returned through layout ops. Example: torch.matmul(A.T, B) traces to
//   n0 = aten.permute.default(in0, [1, 0]); n1 = aten.mm.default(n0, in1)
// and is the product with A = in0 read with strides (1, 64) (row, column) and B = in1 as it is.
// The diagonal form torch.diag(a) @ B (aten.diag_embed then aten.mm) is recognised as a row scaling.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "kernelagent/core/op_graph.hpp"
#include "kernelagent/families/common/strided_view.hpp"

namespace kernelagent {

// One operand: a graph input's storage read as [batch, rows, cols] with these strides (in elements).
struct MatmulOperand {
  std::string input;  // graph input or owned constant name, e.g. "in0", "c0"
  std::int64_t stride_batch = 0, stride_row = 0, stride_col = 0;
  std::string expr;   // how ModelNew.forward names it: "in0", or self.get_parameter(...) for a weight
  // A batch of two dims broadcast apart (torch.matmul of [2, 1, M, K] by [1, 3, K, N] expands both to a batch
  // of 2 x 3 that no single stride steps through): batch b reads (b / batch_inner) * stride_batch +
  // (b % batch_inner) * stride_batch_inner. 0: one dim, stride_batch alone.
  std::int64_t batch_inner = 0, stride_batch_inner = 0;
  // The offset of batch `b` (a Triton expression) with `stride` the kernel's batch-stride argument.
  std::string batch_offset(const std::string& b, const std::string& stride) const;
};

// A tensor a product's epilogue reads besides the product (nn.Linear's bias, a scale), as [batch, rows, cols]
// strides over the output (0 where broadcast).
struct EpilogueOperand {
  std::string var, expr;
  std::int64_t stride_batch = 0, stride_row = 0, stride_col = 0;
};

enum class TriangleMask { none, tril, triu };

struct MatmulProblem {
  // product: C[b, m, n] = sum_k A[b, m, k] * B[b, k, n].
  // diag_rows: C[m, n] = d[m] * X[m, n] (diag(d) @ X); diag_cols: C[m, n] = X[m, n] * d[n] (X @ diag(d)).
  enum class Kind { product, diag_rows, diag_cols };
  Kind kind = Kind::product;
  std::int64_t batch = 1, m = 0, n = 0, k = 0;
  std::string dtype;   // of the operands and the output: float32, float16 or bfloat16
  MatmulOperand a, b;  // diag kinds: a is the vector d (stride_row is its stride), b the matrix X
  TriangleMask mask = TriangleMask::none;
  std::int64_t diagonal = 0;  // tril/triu's diagonal argument
  // The returned tensor as a view of the contiguous product buffer [batch, m, n].
  StridedView output;
  // Pointwise ops on the product's tile before it is stored (addmm's bias and scales, an activation after the
  // product): Python lines, each assigning one variable from `acc`, earlier lines and the operands' tiles; the
  // last one's variable is what is stored. Empty: the product itself.
  std::vector<std::string> epilogue;
  std::vector<EpilogueOperand> epilogue_operands;
  std::string epilogue_result;

  bool row_major_output() const { return output.row_major(); }
  // The largest element offset any operand or output reaches, for choosing 32- or 64-bit offsets.
  std::int64_t max_offset() const;
};

// True when a stride the operand is read with (batch, row or column, other than 1) is not a multiple of 16
// elements: its rows do not start on 64-byte boundaries, and a product cannot load whole aligned vectors.
bool misaligned(const MatmulOperand& op);

// The recognised problem, or why the trace is not one matrix product, in one sentence.
std::variant<MatmulProblem, std::string> recognise_matmul(const TraceResult& trace);

}  // namespace kernelagent

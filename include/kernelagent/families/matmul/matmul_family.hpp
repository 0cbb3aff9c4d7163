#pragma once
// The matmul family: one matrix product (mm, bmm, mv, matmul; 3-D x 2-D and einsum forms that trace to
// one product; transposed operands; tril/triu of the product; diag(d) @ X) as a grouped, tiled Triton
// tl.dot kernel. Example: torch.matmul(A.T, B) with A stored [K, M] runs with A's strides swapped, no copy;
// torch.tril(A @ B) zeroes the upper triangle in the epilogue and skips tiles that are all zero.

#include <filesystem>

#include "kernelagent/families/family.hpp"
#include "kernelagent/families/matmul/matmul_problem.hpp"

namespace kernelagent {

class MatmulFamily : public Family {
 public:
  explicit MatmulFamily(const std::filesystem::path& dir);

  std::string name() const override { return "matmul"; }
  std::optional<std::string> why_not(const TraceResult& trace) const override;
  const KnobSpace& knob_space() const override { return space_; }
  bool valid(const Config& config, const TraceResult& trace, const GpuSpec* gpu, Precision precision) const override;
  std::string emit(const TraceResult& trace, const Config& config, const EmitContext& ctx) const override;
  std::string source_hash() const override { return hash_; }

  // Shared memory one program of the product kernel needs: its pipelined A and B tiles.
  static std::int64_t smem_bytes(const Config& config, const std::string& dtype);

 private:
  std::string emit_product(const TraceResult& trace, const MatmulProblem& p, const Config& config,
                           const EmitContext& ctx) const;
  std::string emit_diag(const TraceResult& trace, const MatmulProblem& p, const Config& config,
                        const EmitContext& ctx) const;

  KnobSpace space_;
  std::string product_template_;
  std::string diag_template_;
  std::string hash_;
};

}  // namespace kernelagent

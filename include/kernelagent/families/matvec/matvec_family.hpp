#pragma once
// The matvec family: a matrix-vector product (the matmul family's problems with one output column) as a
// stream over A with fp32 multiply-adds on the CUDA cores. A tl.dot kernel pads the single column to a
// 16-wide tile and spends its time on tensor-core shapes the problem does not have; reading A once at the
// DRAM rate is the floor. Example: A [2048, 1048576] @ x [1048576, 1] (KernelBench 4): 8.6 GB of A,
// 1.8 ms at 4.8 TB/s; 512 programs of 4 rows each, every program walking K in steps of 1024.

#include <filesystem>

#include "kernelagent/families/family.hpp"
#include "kernelagent/families/matmul/matmul_problem.hpp"

namespace kernelagent {

class MatvecFamily : public Family {
 public:
  explicit MatvecFamily(const std::filesystem::path& dir);

  std::string name() const override { return "matvec"; }
  std::optional<std::string> why_not(const TraceResult& trace) const override;
  const KnobSpace& knob_space() const override { return space_; }
  bool valid(const Config& config, const TraceResult& trace, const GpuSpec* gpu, Precision precision) const override;
  std::string emit(const TraceResult& trace, const Config& config, const EmitContext& ctx) const override;
  std::string source_hash() const override { return hash_; }

 private:
  KnobSpace space_;
  std::string template_;
  std::string hash_;
};

}  // namespace kernelagent

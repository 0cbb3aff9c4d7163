#pragma once
// The reduction family: one reduction or softmax over one dimension of a contiguous input.
// Example: torch.sum(x, dim=1, keepdim=True) on x of shape [128, 4096, 4095] traces to
// aten.sum.dim_IntList(in0, [1], True); the input is viewed as [OUTER=128, R=4096, INNER=4095] and each
// program sums R for one outer index and a block of inner columns.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "kernelagent/families/family.hpp"

namespace kernelagent {

// What the recognised graph computes, in the kernel's terms.
struct ReductionShape {
  std::string op;         // sum, mean, max, min, argmax, argmin, softmax, log_softmax
  std::string input;      // the graph input reduced
  std::int64_t outer = 1, r = 1, inner = 1;
  std::vector<std::int64_t> out_shape;
  std::string out_dtype;
};

class ReductionFamily : public Family {
 public:
  explicit ReductionFamily(const std::filesystem::path& dir);

  std::string name() const override { return "reduction"; }
  std::optional<std::string> why_not(const TraceResult& trace) const override;
  const KnobSpace& knob_space() const override { return space_; }
  bool valid(const Config& config, const TraceResult& trace, const GpuSpec* gpu, Precision precision) const override;
  std::string emit(const TraceResult& trace, const Config& config, const EmitContext& ctx) const override;
  std::string source_hash() const override { return hash_; }

  // The shape of the reduction, or the reason the graph is not one.
  static std::optional<ReductionShape> recognise(const TraceResult& trace, std::string* why_not);

 private:
  KnobSpace space_;
  std::string template_;
  std::string hash_;
};

}  // namespace kernelagent

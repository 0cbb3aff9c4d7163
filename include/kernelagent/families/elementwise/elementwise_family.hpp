#pragma once
// The elementwise family: a chain of pointwise ops fused into one memory-bound Triton kernel.
// Example: Model.forward(x) = x * torch.sigmoid(x) traces to aten.sigmoid + aten.mul; the kernel loads x
// once, computes `v1 = (x0 * tl.sigmoid(x0))` in registers, and stores v1 once.

#include <filesystem>

#include "kernelagent/families/family.hpp"

namespace kernelagent {

class ElementwiseFamily : public Family {
 public:
  explicit ElementwiseFamily(const std::filesystem::path& dir);

  std::string name() const override { return "elementwise"; }
  std::optional<std::string> why_not(const TraceResult& trace) const override;
  const KnobSpace& knob_space() const override { return space_; }
  bool valid(const Config& config, const TraceResult& trace, const GpuSpec* gpu, Precision precision) const override;
  std::string emit(const TraceResult& trace, const Config& config, const EmitContext& ctx) const override;
  std::string source_hash() const override { return hash_; }

  // Elements one program handles for a configuration.
  static std::int64_t block_of(const Config& config);

 private:
  KnobSpace space_;
  std::string template_;
  std::string hash_;
};

}  // namespace kernelagent

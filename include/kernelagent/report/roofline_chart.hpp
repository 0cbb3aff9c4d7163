#pragma once
// The roofline of one problem: the GPU's DRAM roof and the compute roof of the unit the kernel runs its
// products on (result.json's roofline.compute_unit, the peak from its gpu object), the problem's arithmetic
// intensity (its FLOPs over its compulsory bytes), and eager, torch.compile and the kernel as the FLOP/s
// they reach at that intensity. A problem with no counted FLOPs (its work is moving data) has the DRAM roof
// alone: the chart then shows the compulsory bytes per second each reaches against it.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace kernelagent::report {

struct Roofs {
  double bytes_per_s = 0;  // the DRAM roof (0: unknown)
  double flops_per_s = 0;  // the compute roof of the unit used, in the problem's FLOPs (0: unknown)
  std::string unit;        // "CUDA cores", "TF32 tensor cores", "3xTF32 tensor cores"
  std::string peak_note;   // where the compute roof comes from, e.g. "TF32 peak 495 TFLOP/s / 3"
};

// The roofs of a result on its GPU; zeros where the GPU or the unit's peak is unknown.
Roofs roofs_of(const nlohmann::json& result);

// A <figure> with the chart and a caption of its figures, or a paragraph that says why there is none (no
// GPU, an unknown GPU, nothing timed).
std::string roofline_figure(const nlohmann::json& result);

}  // namespace kernelagent::report

#pragma once
// The fp32 settings PyTorch's baselines run under, per precision policy, and whether PyTorch's own defaults
// differ from them for a problem's ops. PyTorch runs fp32 convolutions on TF32 tensor cores by default
// (cudnn.allow_tf32) but fp32 products in IEEE fp32 (float32_matmul_precision "highest"): under strict the
// accuracy-matched baselines turn TF32 off, under tf32 they allow it everywhere, and where that changes what
// the problem's ops do, PyTorch's defaults are timed beside them (docs/result.md, "pytorch_default").

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "kernelagent/core/op_graph.hpp"
#include "kernelagent/core/precision.hpp"

namespace kernelagent {

// {"fp32_matmul": "highest"|"high", "cudnn_allow_tf32": bool}: the worker's fp32 mode for the policy.
nlohmann::json baseline_settings(Precision policy);

// Why PyTorch's defaults (`defaults` as the worker's hello reports them, reference_precision) run this
// problem's ops differently from the policy's baselines, in words; nullopt when they run them alike (no
// convolution or product, a dtype TF32 does not touch, or defaults that already match).
std::optional<std::string> pytorch_default_differs(Precision policy, const nlohmann::json& defaults,
                                                   const OpGraph& graph, const std::string& dtype);

}  // namespace kernelagent

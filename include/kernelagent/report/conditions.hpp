#pragma once
// The conditions a result was measured under, as a table: the problem, the GPU and its peaks, the dtype,
// the precision policy and PyTorch's own, the tolerance and seeds, the versions, how times were taken, and
// how the search went and stopped. A speedup means nothing without them.

#include <nlohmann/json.hpp>
#include <string>

namespace kernelagent::report {

std::string conditions_table(const nlohmann::json& result);

// What a speedup of an fp32 problem is measured against, said beside it as the terminal says it: "a TF32-allowed
// kernel against PyTorch's fp32 matmul precision 'highest' (IEEE fp32)"; "" for another dtype or an older
// result without reference_precision.
std::string precision_against(const nlohmann::json& result);

}  // namespace kernelagent::report

#pragma once
// The diagnoses of the candidates the search profiled with Nsight Compute (result.json's `profiles`, or
// the `diagnosis` of its trials): per candidate, its configuration and search time, the cause and category
// named, the one-line summary, whether it is at its roofline, and the evidence rows it rests on (the
// speed-of-light figures, the duration under the profiler, and each bottleneck's metric, value, threshold
// and reading when the diagnosis carries them). A profile that failed says why.

#include <nlohmann/json.hpp>
#include <string>

namespace kernelagent::report {

// "" when nothing was profiled.
std::string diagnoses_section(const nlohmann::json& result);

}  // namespace kernelagent::report

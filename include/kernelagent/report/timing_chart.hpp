#pragma once
// Eager, torch.compile and the kernel side by side: each one's median of the final interleaved measurement
// as a bar, its 10th to 90th percentile as a whisker, and the roofline floor as a line no bar can cross.

#include <nlohmann/json.hpp>
#include <string>

namespace kernelagent::report {

// A <figure>, or "" when nothing was timed.
std::string timing_figure(const nlohmann::json& result);

}  // namespace kernelagent::report

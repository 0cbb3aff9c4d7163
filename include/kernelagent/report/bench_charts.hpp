#pragma once
// A bench's two pictures, one bar per timed problem, each bar a link to the problem's section: the
// kernel's speedup over the faster of eager and torch.compile (sorted, on a log scale, the 1.0 line
// drawn: a bar to the right of it is a win), and the fraction of its roofline floor each kernel reaches.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace kernelagent::report {

// A bench row's speedup over the faster baseline: the smaller of vs_eager and vs_compile (the one timed
// when only one was); nullopt for a row without a kernel time.
std::optional<double> speedup_vs_faster(const nlohmann::json& row);

// <figure>s, or "" when no row was timed.
std::string speedup_figure(const nlohmann::json& rows);
std::string floor_fraction_figure(const nlohmann::json& rows);

}  // namespace kernelagent::report

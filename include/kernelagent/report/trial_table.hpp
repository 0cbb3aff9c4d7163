#pragma once
// Every trial of the search as a table row, in the order the search made them: its number (as the
// trajectory chart numbers it), candidate, status, search-time median, the reason the strategy chose it,
// its configuration, the slot that measured it, and what else is known (resumed, diagnosed, its failure).

#include <nlohmann/json.hpp>
#include <string>

namespace kernelagent::report {

// "" when the result lists no trials.
std::string trial_table(const nlohmann::json& result);
// A trial's `kernels` (what the compile said each takes) in a few words; "" for none.
std::string resources_text(const nlohmann::json& kernels);

// A status as a coloured badge.
std::string status_badge(const std::string& status);

}  // namespace kernelagent::report

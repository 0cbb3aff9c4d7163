#pragma once
// The search as it went: each trial's search-time median by trial number, coloured by its status (a trial
// that failed has no time and is drawn as a cross in a band above the plot), the best-so-far line, and the
// final eager and torch.compile medians and the floor for reference. Each point's tooltip gives the trial's
// candidate, status, time, reason and configuration.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace kernelagent::report {

// The colour a trial's status is drawn in: passed, wrong, cheated, failed to build or run, killed.
std::string status_colour(std::string_view status);

// A <figure>, or "" when no trial has a time (the CPU, or no trial).
std::string trajectory_figure(const nlohmann::json& result);

}  // namespace kernelagent::report

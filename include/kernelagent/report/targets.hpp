#pragma once
// The three things every measurement compares, read from a result.json: PyTorch eager, torch.compile of
// the reference and the kernel, each with its final interleaved median and spread when it was timed. Every
// chart draws them in the same colours.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kernelagent::report {

struct Target {
  std::string name;    // "eager", "torch.compile", "kernel"
  std::string colour;  // the same in every chart
  std::string status;  // "ok", or why it has no time (a baseline's failure; "not timed")
  std::optional<double> median_us, p10_us, p90_us;
  std::optional<int> reps;
  std::string method;  // "events" or "cuda_graph"
};

// eager, torch.compile and the kernel, in that order; a target without a time has no median.
std::vector<Target> targets_of(const nlohmann::json& result);

}  // namespace kernelagent::report

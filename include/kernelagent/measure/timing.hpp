#pragma once
// One target's figures out of a worker's `time` reply (docs/protocol.md). The baselines, the search and
// the final interleaved measurement of an optimize all read their numbers through this.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "kernelagent/measure/worker_client.hpp"

namespace kernelagent {

struct Timing {
  std::string status = "not_run";
  std::string message;
  std::optional<double> median_us, p10_us, p90_us;
  int reps = 0;
  std::string method;  // "events" or "cuda_graph"

  // As result.json's baselines write it: the status, and the figures when there are any.
  nlohmann::json to_json() const;
};

// The timing of `target` in a `time` reply; a failed request gives every target the request's status.
Timing timing_of(const Reply& reply, const std::string& target);

}  // namespace kernelagent

#pragma once
// Where candidates are measured. The search asks an executor for the outcome of one configuration and
// does not know whether a worker on a GPU, a recorded sweep, or (later) a pool of GPUs or a Ray cluster
// answers: more machines plug in behind this interface with the orchestrator unchanged.

#include <optional>
#include <string>

#include "kernelagent/families/family.hpp"

namespace kernelagent {

struct Measurement {
  std::string status = "not_run";  // "ok" or a failure status (core/status.hpp)
  std::optional<double> median_us;
  // Passed its check and was timed: a result the search can rank.
  bool ok() const { return status == "ok" && median_us.has_value(); }
  // Passed its check, timed or not. Nothing is timed on the CPU (Triton's interpreter), where a passed
  // candidate is still a kernel the run can return, only not one it can rank.
  bool passed() const { return status == "ok"; }
};

class MeasureExecutor {
 public:
  virtual ~MeasureExecutor() = default;
  // `reason` is why the search chose the configuration: an executor that keeps a record of what it
  // measured (the history) stores it as the decision; one that answers from a record ignores it.
  virtual Measurement measure(const Config& config, const std::string& reason) = 0;
};

}  // namespace kernelagent

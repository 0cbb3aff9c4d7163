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
  bool ok() const { return status == "ok" && median_us.has_value(); }
};

class MeasureExecutor {
 public:
  virtual ~MeasureExecutor() = default;
  virtual Measurement measure(const Config& config) = 0;
};

}  // namespace kernelagent

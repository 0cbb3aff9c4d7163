#pragma once
// Where candidates are measured. The search asks an executor for the outcome of configurations and does
// not know whether a worker on a GPU, a pool of GPUs, a Ray cluster or a recorded sweep answers: more
// machines plug in behind this interface with the orchestrator unchanged.

#include <optional>
#include <string>
#include <utility>
#include <vector>

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

// A configuration the search chose, with the reason it chose it.
using Proposal = std::pair<Config, std::string>;

class MeasureExecutor {
 public:
  virtual ~MeasureExecutor() = default;
  // `reason` is why the search chose the configuration: an executor that keeps a record of what it
  // measured (the history) stores it as the decision; one that answers from a record ignores it.
  virtual Measurement measure(const Config& config, const std::string& reason) = 0;

  // How many configurations it measures at once now (its live worker slots, one per GPU); the search
  // proposes at most this many at a time. 1 for one GPU or a record.
  virtual int capacity() const { return 1; }
  // The outcomes of a batch (at most capacity() proposals), in the batch's order. An executor with several
  // slots measures them at once; this default measures them one after another.
  virtual std::vector<Measurement> measure_batch(const std::vector<Proposal>& batch) {
    std::vector<Measurement> out;
    for (const auto& [config, reason] : batch) out.push_back(measure(config, reason));
    return out;
  }
};

}  // namespace kernelagent

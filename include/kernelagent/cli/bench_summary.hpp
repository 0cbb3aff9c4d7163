#pragma once
// Who won a bench, from its rows (bench.json's `rows`): how many problems ran, how many got a kernel that
// passed the checks, how many of those kernels beat the faster of eager and torch.compile in the final
// interleaved measurement, the geometric-mean speedups over that faster baseline and over torch.compile,
// and the median fraction of the roofline floor the kernels reach. Without a GPU nothing is timed, and the
// summary says only what was checked.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace kernelagent::cli {

struct BenchSummary {
  int problems = 0;  // every problem of the folder
  int run = 0;       // optimize ran on it (not one left when every worker slot was out of the pool)
  int correct = 0;   // its kernel passed the checks against the reference (status ok)
  int timed = 0;     // correct, and its kernel has a final time (a GPU)
  int wins = 0;      // timed, and faster than the faster of the baselines that were timed
  std::optional<double> geomean_vs_faster_baseline;  // over the timed problems with a baseline time
  std::optional<double> geomean_vs_compile;          // over the timed problems with a torch.compile time
  std::optional<double> median_roofline_fraction;    // over the timed problems with a floor (a known GPU)

  // As bench.json's `summary` holds it (README, docs/result.md).
  nlohmann::json to_json() const;
};

BenchSummary summarize_bench(const nlohmann::json& rows);

// The line printed after the bench's table (after its label, `summary`).
std::string summary_line(const BenchSummary& summary);

}  // namespace kernelagent::cli

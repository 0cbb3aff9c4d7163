#pragma once
// Where a subcommand's parsed flags become the OptimizeOptions of its runs: optimize, sweep and bench each
// have their overload here and build their options nowhere else. What needs the started session (the
// compile pool, the profiler, the progress line) the command adds after opening it (session.hpp).

#include <filesystem>

#include "kernelagent/cli/commands.hpp"
#include "kernelagent/orchestrate/optimize_run.hpp"

namespace kernelagent::cli {

// One optimize as its flags ask; its output under --out, else kernelagent-out/NAME.
OptimizeOptions optimize_options(const CommonOptions& common, const OptimizeArgs& args);
// A sweep: every configuration of the family's space (or of the part --where keeps), measured now, never
// resumed; the candidates and result.json under --work, else beside S.json in S.json.d/.
OptimizeOptions optimize_options(const CommonOptions& common, const SweepArgs& args);
// One problem of a bench's folder; its output under the bench's folder (bench_out_dir), in NAME/.
OptimizeOptions optimize_options(const CommonOptions& common, const BenchArgs& args,
                                 const std::filesystem::path& problem);

// A bench's output folder: --out, else kernelagent-bench.
std::filesystem::path bench_out_dir(const BenchArgs& args);

}  // namespace kernelagent::cli

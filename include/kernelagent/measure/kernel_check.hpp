#pragma once
// `kernelagent check PROBLEM.py KERNEL.py`: an honest evaluation of a kernel someone wrote, through the same
// worker requests as an optimize (load, trace, compile, check, time; docs/protocol.md), in this order:
//
//   1. load and trace the problem: its inputs and outputs, compulsory bytes and FLOPs (a problem that does
//      not load is bad input; one that cannot be traced is checked without a roofline);
//   2. compile the kernel: import KERNEL.py, build ModelNew(*get_init_inputs()) with Model's state_dict, call
//      it once (a file that does not import, has no ModelNew or whose ModelNew cannot be built is bad input);
//   3. check it on fresh seeds against the reference with the dtype's tolerance, every cheat check included
//      (docs/check.md);
//   4. on a GPU, time eager, torch.compile and the kernel interleaved with the one harness, then check the
//      kernel once more on a seed of its own, so that one that changes after many calls is caught;
//   5. speedups and the fraction of the roofline floor of the fastest unit the precision policy allows.
//
// The document it returns is docs/check.md's `kernelagent.check/1`.

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernelagent/core/error.hpp"
#include "kernelagent/core/op_graph.hpp"
#include "kernelagent/core/precision.hpp"
#include "kernelagent/gpu/gpu_spec.hpp"
#include "kernelagent/measure/roofline.hpp"
#include "kernelagent/measure/worker_client.hpp"

namespace kernelagent {

struct KernelCheckOptions {
  std::filesystem::path problem;
  std::filesystem::path kernel;
  Precision precision = Precision::strict;
  std::vector<int> seeds;     // the check's seeds: fresh ones unless the user repeats a check
  int seed_after_timing = 0;  // the seed of the check after the timing (GPU only)
  double graph_below_us = 50;
  double min_ms = 400;                               // samples per target, as optimize's final measurement
  int rounds = 5;                                    // interleaved rounds, as optimize's final measurement
  std::function<void(const std::string&)> on_phase;  // "loading the problem", "checking", ...
};

struct KernelCheckOutcome {
  ExitCode code = ExitCode::ok;  // ok: passed; no_valid_kernel (1): the kernel failed
  nlohmann::json result;         // kernelagent.check/1
};

// Throws UserError(bad_input) for a problem or kernel file that cannot be loaded or built.
KernelCheckOutcome check_kernel(const KernelCheckOptions& options, WorkerClient& worker);

// `count` distinct seeds drawn from the system's random source (never 0..15, the seeds other tools fix).
std::vector<int> fresh_seeds(int count);

// The floor of the fastest unit the precision policy allows a kernel of this dtype: for fp32 under `strict`
// the faster of the FP32 pipe and 3xTF32 on the tensor cores, under `tf32` TF32; half types on the tensor
// cores. `unit` names it.
Roofline allowed_floor(std::int64_t bytes, double flops, const std::string& dtype, Precision precision,
                       const GpuSpec& gpu, std::string* unit);

}  // namespace kernelagent

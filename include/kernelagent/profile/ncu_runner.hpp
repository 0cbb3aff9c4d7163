#pragma once
// Runs Nsight Compute on exactly one marked call of a candidate (DESIGN.md section 5): the process is
// `python -m kernelagent_worker.profile_target PROBLEM KERNEL`, which warms the kernel up and then makes
// one call inside the NVTX range "kernelagent_profile"; ncu profiles only the kernels of that range and
// writes its raw page as CSV.

#include <filesystem>
#include <string>
#include <vector>

namespace kernelagent {

struct NcuOptions {
  std::string ncu;                  // path or name of ncu; "" = found on PATH or in the usual CUDA places
  std::string clock_control = "none";  // the GPU machine used here reads counters only with "none"
  bool full_set = false;            // --set full instead of the sections the diagnosis needs
  int warmup = 3;                   // calls before the profiled one
};

struct NcuRun {
  std::vector<std::string> argv;    // the command that ran, for the report
  std::filesystem::path csv;        // ncu's stdout (the raw page)
  std::filesystem::path log;        // ncu's stderr and the program's
  int exit_code = 0;
};

// The ncu executable, or throws UserError(environment) naming what to install or pass.
std::string locate_ncu(const std::string& flag);

// The ncu command line for one profile (exposed for tests).
std::vector<std::string> ncu_command(const NcuOptions& options, const std::string& ncu, const std::string& python,
                                     const std::filesystem::path& problem, const std::filesystem::path& kernel);

// Runs it with PYTHONPATH set to the worker's folder. Throws UserError with ncu's own reason when it fails
// (no permission to read counters, the program failed, no kernel in the range).
NcuRun run_ncu(const NcuOptions& options, const std::string& python, const std::filesystem::path& python_dir,
               const std::filesystem::path& problem, const std::filesystem::path& kernel,
               const std::filesystem::path& out_dir);

}  // namespace kernelagent

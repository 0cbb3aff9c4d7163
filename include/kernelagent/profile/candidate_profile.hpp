#pragma once
// Profile and Diagnose inside a search: Nsight Compute on one call of a candidate, and the diagnosis of
// its main kernel reduced to what the search acts on (the cause the prescription answers) and what the
// record keeps (speed of light, the summary). The guided search profiles its beam parents this way, and a
// sweep with --profile every configuration that passed, so a replay prescribes from real diagnoses.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kernelagent/diagnose/diagnosis.hpp"
#include "kernelagent/profile/ncu_report.hpp"
#include "kernelagent/profile/ncu_runner.hpp"

namespace kernelagent {

struct CandidateDiagnosis {
  std::string kernel;        // the main kernel's name
  double duration_us = 0;    // its duration under the profiler
  int kernels = 0;           // the candidate's own kernels in the profiled call
  std::string cause;         // the first bottleneck's cause; "" when none stands out
  std::string category;      // and its category
  std::string summary;       // its one line
  bool at_roofline = false;
  SpeedOfLight sol;

  nlohmann::json to_json() const;
  // Throws UserError(bad_input) for an object without a cause field.
  static CandidateDiagnosis from_json(const nlohmann::json& j);
};

// The diagnosis of the candidate's main kernel: the longest of its own kernels (a split reduction's fold
// and a K-major copy run beside the kernel that does the work; library kernels such as torch's fills are
// left out). Throws UserError(bad_input) when the report holds none of the candidate's kernels.
CandidateDiagnosis diagnose_candidate(const NcuReport& report, const GpuSpec& gpu, const ProblemFacts& facts);

// Profiles one candidate (its name, its kernel file); nullopt with `error` set when ncu or the program
// failed, which the search takes as "no diagnosis" and goes on.
using CandidateProfiler =
    std::function<std::optional<CandidateDiagnosis>(const std::string& name, const std::filesystem::path& kernel,
                                                    std::string* error)>;

struct NcuProfilerSettings {
  NcuOptions ncu;
  std::string python;                 // the interpreter with torch and triton
  std::filesystem::path python_dir;   // the worker's folder (PYTHONPATH)
  std::filesystem::path problem;
  std::filesystem::path out_dir;      // one folder per candidate below it, with ncu's CSV and log
  GpuSpec gpu;
  ProblemFacts facts;
};

// Failures in a row after which an ncu profiler stops trying (and says why with each later call).
inline constexpr int kProfileFailuresBeforeGivingUp = 2;

CandidateProfiler make_ncu_profiler(NcuProfilerSettings settings);

}  // namespace kernelagent

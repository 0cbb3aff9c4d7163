#pragma once
// Labeled profiles (tests/data/ncu/labels.json): the cases the diagnosis must get right, shared by the unit
// tests and the accuracy benchmark.

#include <filesystem>
#include <string>
#include <vector>

#include "kernelagent/diagnose/diagnosis.hpp"
#include "kernelagent/diagnose/thresholds.hpp"
#include "kernelagent/profile/ncu_report.hpp"

namespace kernelagent {

struct LabeledCase {
  std::string file;           // relative to the labels file's folder
  std::string kernel;         // regex selecting the kernel
  ProblemFacts facts;
  std::string category, cause;
  // Where the kernel came from: "designed" (written to show its cause) or what produced it (a family's
  // sweep, torch.compile, PyTorch), so that accuracy on kernels nobody designed is reported apart.
  std::string source = "designed";
  std::string family;         // the kernel family of a family case ("matmul"), or "own kernel"
  bool at_roofline = false;
};

struct CaseResult {
  LabeledCase label;
  KernelDiagnosis diagnosis;
  std::string top1, top2;     // causes found, "" when fewer
  bool right() const { return (top1 == label.cause || top2 == label.cause) && diagnosis.at_roofline == label.at_roofline; }
};

// A case with its kernel's profile read and the GPU it names: diagnosed again and again while thresholds are
// fitted, without reading the profile each time.
struct LoadedCase {
  LabeledCase label;
  KernelProfile kernel;
  GpuSpec gpu;
};

std::vector<LabeledCase> load_labeled_cases(const std::filesystem::path& labels_json);
// Every case with its profile; a profile whose regex does not select exactly one kernel throws.
std::vector<LoadedCase> load_case_profiles(const std::filesystem::path& labels_json);
CaseResult diagnose_case(const LoadedCase& c, const DiagnosisThresholds& thresholds = DiagnosisThresholds::built_in());
// Diagnoses every case (on the GPU each profile names) and returns what was found.
std::vector<CaseResult> run_labeled_cases(const std::filesystem::path& labels_json);

}  // namespace kernelagent

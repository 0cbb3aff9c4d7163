#pragma once
// Labeled profiles (tests/data/ncu/labels.json): the cases the diagnosis must get right, shared by the unit
// tests and the accuracy benchmark.

#include <filesystem>
#include <string>
#include <vector>

#include "kernelagent/diagnose/diagnosis.hpp"

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

std::vector<LabeledCase> load_labeled_cases(const std::filesystem::path& labels_json);
// Diagnoses every case (on the GPU each profile names) and returns what was found.
std::vector<CaseResult> run_labeled_cases(const std::filesystem::path& labels_json);

}  // namespace kernelagent

// The diagnosis over every labeled Nsight Compute profile: each case's expected cause against the top-1 and
// top-2 causes found, the tallies per cause, per source (designed kernels apart from the rest), per kernel
// family (labels.json `family`) and per GPU (the fixture's folder), a confusion table and the at_roofline
// verdicts. The rules' thresholds are constants, not fitted to these cases: the per-family rows are the
// leave-one-family-out view (a family's cases judged by rules that do not depend on them).
// Usage: diagnosis_accuracy [labels.json]

#include <iostream>
#include <map>

#include <fmt/format.h>

#include "kernelagent/diagnose/labeled_cases.hpp"

namespace {

// The kernel family a case's kernel came from (labels.json `family`), "designed" for a kernel written to
// show its cause.
std::string family_of(const kernelagent::LabeledCase& c) {
  if (c.source == "designed") return "designed";
  return c.family.empty() ? c.source : c.family;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kernelagent;
  const std::filesystem::path labels = argc > 1 ? argv[1] : KA_TEST_DATA "/ncu/labels.json";
  std::vector<CaseResult> results;
  try {
    results = run_labeled_cases(labels);
  } catch (const std::exception& e) {
    std::cerr << "diagnosis_accuracy: " << e.what() << "\n";
    return 2;
  }
  fmt::print("{:<40} {:<28} {:<28} {:<28} {:>9} {:>6}\n", "case", "expected", "top-1", "top-2", "roofline", "right");
  int top1 = 0, top2 = 0, roof = 0, right = 0;
  std::map<std::string, std::map<std::string, int>> confusion;  // expected -> top-1 -> count
  for (const auto& r : results) {
    const bool in1 = r.top1 == r.label.cause, in2 = in1 || r.top2 == r.label.cause;
    const bool roof_ok = r.diagnosis.at_roofline == r.label.at_roofline;
    top1 += in1, top2 += in2, roof += roof_ok, right += r.right();
    confusion[r.label.cause][r.top1.empty() ? "(none)" : r.top1]++;
    fmt::print("{:<40} {:<28} {:<28} {:<28} {:>9} {:>6}\n", r.label.file, r.label.cause, r.top1, r.top2,
               fmt::format("{}/{}", r.diagnosis.at_roofline ? "yes" : "no", r.label.at_roofline ? "yes" : "no"),
               r.right() ? "yes" : "NO");
  }
  // Per expected cause and per source: how many cases, how many right at top-1 and at top-2.
  struct Tally {
    int n = 0, top1 = 0, top2 = 0;
  };
  std::map<std::string, Tally> by_cause, by_source, by_family, by_gpu;
  for (const auto& r : results) {
    const bool in1 = r.top1 == r.label.cause, in2 = in1 || r.top2 == r.label.cause;
    for (auto* t : {&by_cause[r.label.cause], &by_source[r.label.source], &by_family[family_of(r.label)],
                    &by_gpu[r.label.file.substr(0, r.label.file.find('/'))]})
      t->n++, t->top1 += in1, t->top2 += in2;
  }
  for (const auto& [title, table] : {std::pair{"cause", &by_cause}, std::pair{"source", &by_source},
                                     std::pair{"kernel family", &by_family}, std::pair{"GPU", &by_gpu}}) {
    fmt::print("\n{:<32} {:>5} {:>7} {:>7}\n", title, "cases", "top-1", "top-2");
    for (const auto& [key, t] : *table) fmt::print("{:<32} {:>5} {:>7} {:>7}\n", key, t.n, t.top1, t.top2);
  }
  fmt::print("\nconfusion (expected -> top-1 found):\n");
  for (const auto& [expected, found] : confusion)
    for (const auto& [cause, n] : found) fmt::print("  {:<28} -> {:<28} {}\n", expected, cause, n);
  const auto n = results.size();
  fmt::print("\n{} cases: top-1 {}/{}, top-2 {}/{}, at_roofline {}/{}, right {}/{}\n", n, top1, n, top2, n, roof, n,
             right, n);
  return right == static_cast<int>(n) ? 0 : 1;
}

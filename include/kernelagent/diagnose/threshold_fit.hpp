#pragma once
// Fitting the diagnosis thresholds to labelled profiles, and the leave-one-family-out accuracy that says how
// far the rules hold on kernels whose labels did not shape them: for each kernel family, the thresholds are
// fitted to every other case (the other families' kernels and the designed ones) and judged on the family's.

#include <map>
#include <string>
#include <vector>

#include "kernelagent/diagnose/labeled_cases.hpp"
#include "kernelagent/diagnose/thresholds.hpp"

namespace kernelagent {

struct CaseScore {
  int cases = 0, top1 = 0, top2 = 0;  // cases whose expected cause is found first, or first or second
  bool operator<(const CaseScore& o) const { return top1 != o.top1 ? top1 < o.top1 : top2 < o.top2; }
};

CaseScore score_cases(const std::vector<const LoadedCase*>& cases, const DiagnosisThresholds& thresholds);

// The values a fit chooses among: each threshold's built-in value times one of these.
inline constexpr double kThresholdFactors[] = {0.5, 0.625, 0.8, 1.0, 1.25, 1.6, 2.0};

// Coordinate descent from `start`: each threshold in turn takes the value among its built-in value times
// kThresholdFactors that diagnoses the most cases right at top-1, then at top-2; a tie keeps the value it
// has, then the one nearest its value in `start`. Sweeps until nothing moves (at most `sweeps`).
DiagnosisThresholds fit_thresholds(const std::vector<const LoadedCase*>& cases, const DiagnosisThresholds& start,
                                   int sweeps = 4);

// A start away from the built-in values: every threshold at its built-in value times a factor drawn from
// kThresholdFactors (deterministic for a seed). A fit from here keeps what the cases do not decide where
// the draw put it, so the cases it is judged on must not depend on it.
DiagnosisThresholds drawn_thresholds(unsigned seed);

// The group a case is left out with: its kernel family (labels.json `family`), or "designed" for the kernels
// written to show one cause.
std::string case_group(const LabeledCase& c);

struct HeldOutGroup {
  std::string group;
  CaseScore built_in;  // the group's cases under the built-in thresholds
  CaseScore held_out;  // under thresholds fitted without them from the built-in values
  std::vector<std::string> moved;  // the thresholds that fit moved, "name built-in -> fitted"
  // Under thresholds fitted without them from each drawn start (drawn_thresholds(1..starts)), and those
  // thresholds.
  std::vector<CaseScore> from_drawn;
  std::vector<DiagnosisThresholds> drawn_fits;
};

// Per group, fits without the group's cases: one from the built-in values, one from each of `starts` drawn
// starts.
std::vector<HeldOutGroup> leave_one_group_out(const std::vector<LoadedCase>& cases, int starts = 0, int sweeps = 4);

}  // namespace kernelagent

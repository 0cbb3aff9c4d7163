#include "kernelagent/diagnose/threshold_fit.hpp"

#include <cmath>
#include <random>

#include <fmt/format.h>

namespace kernelagent {

CaseScore score_cases(const std::vector<const LoadedCase*>& cases, const DiagnosisThresholds& thresholds) {
  CaseScore s;
  for (const LoadedCase* c : cases) {
    const CaseResult r = diagnose_case(*c, thresholds);
    const bool first = r.top1 == c->label.cause;
    s.cases++;
    s.top1 += first;
    s.top2 += first || r.top2 == c->label.cause;
  }
  return s;
}

DiagnosisThresholds fit_thresholds(const std::vector<const LoadedCase*>& cases, const DiagnosisThresholds& start,
                                   int sweeps) {
  const DiagnosisThresholds& built_in = DiagnosisThresholds::built_in();
  DiagnosisThresholds t = start;
  CaseScore best = score_cases(cases, t);
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    bool moved = false;
    for (const ThresholdSpec& spec : built_in.specs()) {
      const double current = t[spec.name];
      auto distance = [&](double v) { return std::abs(std::log(v / start[spec.name])); };
      double chosen = current;
      for (double factor : kThresholdFactors) {
        const double v = spec.value * factor;
        if (v == current) continue;
        t.set(spec.name, v);
        const CaseScore s = score_cases(cases, t);
        const bool better = best < s, as_good = !(s < best) && !(best < s);
        if (better || (as_good && chosen != current && distance(v) < distance(chosen))) {
          if (better) best = s;
          chosen = v;
        }
      }
      t.set(spec.name, chosen);
      moved = moved || chosen != current;
    }
    if (!moved) break;
  }
  return t;
}

DiagnosisThresholds drawn_thresholds(unsigned seed) {
  std::mt19937 draw(seed);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(kThresholdFactors) - 1);
  DiagnosisThresholds t = DiagnosisThresholds::built_in();
  for (const auto& spec : DiagnosisThresholds::built_in().specs()) t.set(spec.name, spec.value * kThresholdFactors[pick(draw)]);
  return t;
}

std::string case_group(const LabeledCase& c) {
  if (c.source == "designed") return "designed";
  return c.family.empty() ? c.source : c.family;
}

std::vector<HeldOutGroup> leave_one_group_out(const std::vector<LoadedCase>& cases, int starts, int sweeps) {
  std::map<std::string, std::vector<const LoadedCase*>> groups;
  for (const auto& c : cases) groups[case_group(c.label)].push_back(&c);
  const DiagnosisThresholds& built_in = DiagnosisThresholds::built_in();
  std::vector<HeldOutGroup> out;
  for (const auto& [group, held] : groups) {
    std::vector<const LoadedCase*> rest;
    for (const auto& c : cases)
      if (case_group(c.label) != group) rest.push_back(&c);
    const DiagnosisThresholds fitted = fit_thresholds(rest, built_in, sweeps);
    HeldOutGroup g{group, score_cases(held, built_in), score_cases(held, fitted), {}, {}, {}};
    for (const auto& spec : built_in.specs())
      if (fitted[spec.name] != spec.value)
        g.moved.push_back(fmt::format("{} {:g} -> {:g}", spec.name, spec.value, fitted[spec.name]));
    for (int s = 1; s <= starts; ++s) {
      g.drawn_fits.push_back(fit_thresholds(rest, drawn_thresholds(static_cast<unsigned>(s)), sweeps));
      g.from_drawn.push_back(score_cases(held, g.drawn_fits.back()));
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace kernelagent

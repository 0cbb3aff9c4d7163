// The diagnosis over every labeled Nsight Compute profile: each case's expected cause against the top-1 and
// top-2 causes found, the tallies per cause, per source (designed kernels apart from the rest), per kernel
// family (labels.json `family`) and per GPU (the fixture's folder), a confusion table and the at_roofline
// verdicts; then leave-one-family-out: for each kernel family (and the designed kernels as one more group) the
// rules' thresholds are fitted to every other case and the family's cases judged with them.
// Usage: diagnosis_accuracy [labels.json]

#include <algorithm>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "kernelagent/diagnose/labeled_cases.hpp"
#include "kernelagent/diagnose/threshold_fit.hpp"

namespace {

}  // namespace

int main(int argc, char** argv) {
  using namespace kernelagent;
  const std::filesystem::path labels = argc > 1 ? argv[1] : KA_TEST_DATA "/ncu/labels.json";
  std::vector<LoadedCase> cases;
  std::vector<CaseResult> results;
  try {
    cases = load_case_profiles(labels);
    for (const auto& c : cases) results.push_back(diagnose_case(c));
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
    for (auto* t : {&by_cause[r.label.cause], &by_source[r.label.source], &by_family[case_group(r.label)],
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

  // Each group judged by thresholds fitted without it: from the built-in values, and from drawn starts, where a
  // threshold the other cases do not decide stays where the draw put it.
  constexpr int kStarts = 5;
  const auto groups = leave_one_group_out(cases, kStarts);
  fmt::print("\nleave one family out: thresholds fitted to the other cases, from the built-in values and from {} drawn "
             "starts\n{:<14} {:>5} {:>10} {:>10} {:>22}  {}\n",
             kStarts, "left out", "cases", "built-in", "held out", "drawn: median (worst)", "thresholds the fit moved");
  auto pair = [](const CaseScore& c) { return fmt::format("{}/{}", c.top1, c.top2); };
  // Totals over the groups, for the fit from the built-in values (index 0) and each drawn start.
  std::vector<CaseScore> all(kStarts + 1), families(kStarts + 1);
  for (const auto& g : groups) {
    std::vector<CaseScore> drawn = g.from_drawn;
    std::sort(drawn.begin(), drawn.end());
    std::string moved;
    for (const auto& m : g.moved) moved += (moved.empty() ? "" : ", ") + m;
    fmt::print("{:<14} {:>5} {:>10} {:>10} {:>22}  {}\n", g.group, g.held_out.cases, pair(g.built_in), pair(g.held_out),
               fmt::format("{} ({})", pair(drawn[drawn.size() / 2]), pair(drawn.front())), moved.empty() ? "none" : moved);
    for (int i = 0; i <= kStarts; ++i) {
      const CaseScore& c = i == 0 ? g.held_out : g.from_drawn[static_cast<std::size_t>(i - 1)];
      for (auto* t : {&all[static_cast<std::size_t>(i)], &families[static_cast<std::size_t>(i)]}) {
        if (t == &families[static_cast<std::size_t>(i)] && g.group == "designed") continue;
        t->cases += c.cases, t->top1 += c.top1, t->top2 += c.top2;
      }
    }
  }
  // What a fit from a drawn start got wrong, case by case: the thresholds only the left-out cases decide.
  fmt::print("\nmissed at top-2 under a fit from a drawn start (starts that missed it: causes found first):\n");
  for (const auto& g : groups) {
    std::map<std::string, std::map<std::string, int>> missed;  // case -> found -> starts
    for (const auto& fit : g.drawn_fits)
      for (const auto& c : cases) {
        if (case_group(c.label) != g.group) continue;
        const CaseResult r = diagnose_case(c, fit);
        if (r.top1 != c.label.cause && r.top2 != c.label.cause)
          missed[c.label.file + " (" + c.label.cause + ")"][r.top1.empty() ? "nothing" : r.top1]++;
      }
    for (const auto& [file, found] : missed) {
      std::string what;
      for (const auto& [cause, k] : found) what += fmt::format("{}{} {}", what.empty() ? "" : ", ", k, cause);
      fmt::print("  {:<14} {}: {}\n", g.group, file, what);
    }
  }
  auto pct = [](int k, int of) { return of ? 100.0 * k / of : 0.0; };
  for (auto [title, totals] : {std::pair{"all cases", &all}, std::pair{"family kernels", &families}}) {
    const CaseScore from_built_in = totals->front();
    std::vector<CaseScore> drawn(totals->begin() + 1, totals->end());
    std::sort(drawn.begin(), drawn.end());
    const CaseScore& median = drawn[drawn.size() / 2];
    const int of = from_built_in.cases;
    fmt::print("held out, {} ({}): from the built-in values top-1 {:.0f}%, top-2 {:.0f}%; from drawn starts top-1 "
               "{:.0f}% (worst {:.0f}%), top-2 {:.0f}% (worst {:.0f}%)\n",
               title, of, pct(from_built_in.top1, of), pct(from_built_in.top2, of), pct(median.top1, of),
               pct(drawn.front().top1, of), pct(median.top2, of), pct(drawn.front().top2, of));
  }
  return right == static_cast<int>(n) ? 0 : 1;
}

#include "kernelagent/diagnose/threshold_fit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "test_data.hpp"

using namespace kernelagent;

namespace {

const std::vector<LoadedCase>& labelled() {
  static const std::vector<LoadedCase> cases = load_case_profiles(test::data_dir() / "ncu" / "labels.json");
  return cases;
}

std::vector<const LoadedCase*> of_causes(const std::set<std::string>& causes) {
  std::vector<const LoadedCase*> out;
  for (const auto& c : labelled())
    if (causes.contains(c.label.cause)) out.push_back(&c);
  return out;
}

}  // namespace

TEST(ThresholdFit, TheRulesReadTheirThresholdsFromTheTable) {
  // A launch-overhead case is one because it is shorter than launch_bound_ns: at a hundredth of the value no
  // case is short enough, and the launch cases are found again once the value is back.
  const auto cases = of_causes({"launch_overhead"});
  ASSERT_GE(cases.size(), 3u);
  DiagnosisThresholds t = DiagnosisThresholds::built_in();
  EXPECT_EQ(score_cases(cases, t).top1, static_cast<int>(cases.size()));
  t.set("launch_bound_ns", t["launch_bound_ns"] / 100);
  EXPECT_EQ(score_cases(cases, t).top1, 0);
  EXPECT_THROW(t["no_such_threshold"], std::out_of_range);
}

TEST(ThresholdFit, AFitMovesAThresholdTheCasesDecideBackWhereTheyAreRight) {
  // From a start where DRAM counts as saturated only at 1.2 of its nominal bandwidth, the streaming kernels
  // are missed; fitted to them, the threshold comes down to a value that finds them.
  const auto cases = of_causes({"dram_bandwidth_saturated", "launch_overhead"});
  DiagnosisThresholds start = DiagnosisThresholds::built_in();
  start.set("dram_saturated_fraction", 1.2);
  const CaseScore before = score_cases(cases, start);
  const CaseScore right = score_cases(cases, DiagnosisThresholds::built_in());
  ASSERT_LT(before.top1, right.top1);
  const DiagnosisThresholds fitted = fit_thresholds(cases, start, 2);
  EXPECT_EQ(score_cases(cases, fitted).top1, right.top1);
  EXPECT_LE(fitted["dram_saturated_fraction"], 0.75);
  // What the cases do not decide stays where the start put it.
  EXPECT_EQ(fitted["divergent_lanes"], start["divergent_lanes"]);
}

TEST(ThresholdFit, DrawnStartsAreTheBuiltInValuesScaledByTheFitsFactors) {
  const DiagnosisThresholds a = drawn_thresholds(7), b = drawn_thresholds(7), c = drawn_thresholds(8);
  int differ = 0;
  for (const auto& spec : DiagnosisThresholds::built_in().specs()) {
    EXPECT_EQ(a[spec.name], b[spec.name]) << spec.name;
    differ += a[spec.name] != c[spec.name];
    const double factor = a[spec.name] / spec.value;
    EXPECT_TRUE(std::any_of(std::begin(kThresholdFactors), std::end(kThresholdFactors),
                            [&](double f) { return std::abs(f - factor) < 1e-12; }))
        << spec.name << " at " << factor << " times its built-in value";
  }
  EXPECT_GT(differ, 0);
}

TEST(ThresholdFit, LeavingEachGroupOutJudgesEveryCaseOnce) {
  // The few-case groups keep this quick: the fit runs once per group on the rest.
  std::vector<LoadedCase> some;
  for (const auto& c : labelled())
    if (c.label.cause == "launch_overhead" || c.label.cause == "dram_bandwidth_saturated") some.push_back(c);
  const auto groups = leave_one_group_out(some, 1, 1);
  int judged = 0;
  std::set<std::string> names;
  for (const auto& g : groups) {
    judged += g.held_out.cases;
    names.insert(g.group);
    ASSERT_EQ(g.from_drawn.size(), 1u);
    EXPECT_EQ(g.from_drawn[0].cases, g.held_out.cases);
    EXPECT_LE(g.held_out.top1, g.held_out.top2);
  }
  EXPECT_EQ(judged, static_cast<int>(some.size()));
  EXPECT_TRUE(names.contains("designed"));
  EXPECT_GE(names.size(), 2u);
}

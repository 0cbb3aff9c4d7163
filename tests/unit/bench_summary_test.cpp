// Who won a bench: each case of tests/data/bench_summary/cases.json is a bench's rows, the summary
// bench.json holds for them and the line printed after the table.

#include "kernelagent/cli/bench_summary.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "test_data.hpp"

using namespace kernelagent;
using nlohmann::json;

namespace {

// Equal, numbers to within rounding (a geometric mean goes through logarithms).
void expect_same(const json& got, const json& want, const std::string& where) {
  ASSERT_EQ(got.size(), want.size()) << where << ": " << got.dump();
  for (const auto& [key, value] : want.items()) {
    ASSERT_TRUE(got.contains(key)) << where << ": no " << key;
    if (value.is_number_float() && got.at(key).is_number())
      EXPECT_NEAR(got.at(key).get<double>(), value.get<double>(), 1e-12) << where << ": " << key;
    else
      EXPECT_EQ(got.at(key), value) << where << ": " << key;
  }
}

}  // namespace

TEST(BenchSummary, EachCaseGivesItsSummaryAndLine) {
  const json cases = test::read_json(test::data_dir() / "bench_summary" / "cases.json");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const std::string name = c.at("name");
    const cli::BenchSummary summary = cli::summarize_bench(c.at("rows"));
    expect_same(summary.to_json(), c.at("summary"), name);
    EXPECT_EQ(cli::summary_line(summary), c.at("line").get<std::string>()) << name;
  }
}

TEST(BenchSummary, NoRowsIsNothingRun) {
  const cli::BenchSummary summary = cli::summarize_bench(json::array());
  EXPECT_EQ(summary.problems, 0);
  EXPECT_EQ(summary.run, 0);
  EXPECT_FALSE(summary.geomean_vs_faster_baseline.has_value());
}

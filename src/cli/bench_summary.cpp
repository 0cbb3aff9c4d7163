#include "kernelagent/cli/bench_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace kernelagent::cli {

using nlohmann::json;

namespace {

std::optional<double> median_us(const json& row, const char* target) {
  if (!row.contains(target)) return std::nullopt;
  const json& t = row.at(target);
  if (!t.is_object() || !t.contains("median_us") || !t.at("median_us").is_number()) return std::nullopt;
  return t.at("median_us").get<double>();
}

// A geometric mean, since speedups are ratios: a 2x and a 0.5x cancel out.
std::optional<double> geomean(const std::vector<double>& ratios) {
  if (ratios.empty()) return std::nullopt;
  double log_sum = 0;
  for (double r : ratios) log_sum += std::log(r);
  return std::exp(log_sum / static_cast<double>(ratios.size()));
}

std::optional<double> median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

json opt_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

BenchSummary summarize_bench(const json& rows) {
  BenchSummary s;
  std::vector<double> vs_faster, vs_compile, fractions;
  for (const auto& row : rows) {
    ++s.problems;
    const std::string status = row.value("status", "");
    if (status == "not_run") continue;
    ++s.run;
    if (status != "ok") continue;
    ++s.correct;
    const auto kernel = median_us(row, "kernelagent");
    const auto eager = median_us(row, "eager");
    const auto compiled = median_us(row, "compile");
    if (!kernel || *kernel <= 0) continue;
    ++s.timed;
    const json roof = row.value("roofline", json::object());
    if (roof.is_object() && roof.contains("fraction") && roof.at("fraction").is_number())
      fractions.push_back(roof.at("fraction").get<double>());
    // The bar is the faster of the baselines that were timed: a failed torch.compile leaves eager's, and a
    // kernel with neither has nothing to beat (no win, no speedup).
    std::optional<double> faster = eager;
    if (compiled && (!faster || *compiled < *faster)) faster = compiled;
    if (!faster) continue;
    if (*kernel < *faster) ++s.wins;
    vs_faster.push_back(*faster / *kernel);
    if (compiled) vs_compile.push_back(*compiled / *kernel);
  }
  s.geomean_vs_faster_baseline = geomean(vs_faster);
  s.geomean_vs_compile = geomean(vs_compile);
  s.median_roofline_fraction = median(fractions);
  return s;
}

json BenchSummary::to_json() const {
  return {{"problems", problems},
          {"run", run},
          {"correct", correct},
          {"timed", timed},
          {"wins", wins},
          {"geomean_speedup_vs_faster_baseline", opt_json(geomean_vs_faster_baseline)},
          {"geomean_speedup_vs_compile", opt_json(geomean_vs_compile)},
          {"median_roofline_fraction", opt_json(median_roofline_fraction)}};
}

std::string summary_line(const BenchSummary& s) {
  const char* plural = s.problems == 1 ? "" : "s";
  std::string line = s.run == s.problems
                         ? fmt::format("{} problem{} run, {} correct", s.run, plural, s.correct)
                         : fmt::format("{} of {} problem{} run, {} correct", s.run, s.problems, plural, s.correct);
  if (s.timed == 0)
    return line + " (a kernel passed the checks against the reference); nothing was timed, so no wins or speedups";
  line += fmt::format(", {} of {} timed faster than the faster of eager and torch.compile", s.wins, s.timed);
  if (s.geomean_vs_faster_baseline) {
    line += fmt::format("; geomean {:.2f}x vs the faster baseline", *s.geomean_vs_faster_baseline);
    if (s.geomean_vs_compile) line += fmt::format(", {:.2f}x vs torch.compile", *s.geomean_vs_compile);
  }
  if (s.median_roofline_fraction)
    line += fmt::format("; median {:.1f}% of the roofline floor", 100 * *s.median_roofline_fraction);
  return line;
}

}  // namespace kernelagent::cli

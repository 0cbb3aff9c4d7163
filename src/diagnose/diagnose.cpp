#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "kernelagent/diagnose/diagnosis.hpp"
#include "kernelagent/diagnose/rule.hpp"

namespace kernelagent {

using nlohmann::json;

namespace {

// The first of several metric names that is present: ncu versions and GPUs name some counters differently.
std::optional<double> first_of(const KernelProfile& k, std::initializer_list<std::string_view> names) {
  for (auto n : names)
    if (auto v = k.get(n)) return v;
  return std::nullopt;
}

// A memory-bound kernel at 80 % of the nominal DRAM bandwidth is at its roofline: the best copy measured
// on an H200 reaches about 89 %. A compute-bound kernel whose busiest pipe is active 80 % of the time is at
// the roofline of that pipe (pipe utilisation is relative to the clock the kernel ran at).
constexpr double kMemoryRoofline = 0.80;
constexpr double kPipeRoofline = 80.0;

}  // namespace

Bottleneck make_bottleneck(std::string category, std::string cause, double confidence, std::string summary) {
  Bottleneck b;
  b.category = std::move(category);
  b.cause = std::move(cause);
  b.confidence = std::clamp(confidence, 0.0, 1.0);
  b.summary = std::move(summary);
  return b;
}

KernelFacts derive_facts(const KernelProfile& k, const GpuSpec& gpu, const ProblemFacts& problem) {
  KernelFacts f{k, gpu, problem};
  f.duration_ns = k.duration_ns().value_or(0);
  f.sm_count = static_cast<int>(k.get("device__attribute_multiprocessor_count").value_or(gpu.sm_count));
  auto rd = k.get("dram__bytes_read.sum"), wr = k.get("dram__bytes_write.sum");
  if (rd || wr) f.dram_bytes = rd.value_or(0) + wr.value_or(0);
  const double seconds = f.duration_ns * 1e-9;
  if (f.dram_bytes && seconds > 0 && gpu.dram_bytes_per_s > 0)
    f.dram_fraction = *f.dram_bytes / seconds / gpu.dram_bytes_per_s;
  else if (auto pct = first_of(k, {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                                   "dram__throughput.avg.pct_of_peak_sustained_elapsed"}))
    f.dram_fraction = *pct / 100;
  if (problem.compulsory_bytes && seconds > 0 && gpu.dram_bytes_per_s > 0)
    f.useful_fraction = *problem.compulsory_bytes / seconds / gpu.dram_bytes_per_s;
  f.compute_pct = k.get("sm__throughput.avg.pct_of_peak_sustained_elapsed");
  f.memory_pct = k.get("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed");
  f.fma_pct = first_of(k, {"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
                           "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active"});
  f.alu_pct = first_of(k, {"sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active",
                           "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active"});
  f.tensor_pct = first_of(k, {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
                              "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
                              "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active"});
  f.grid = k.get("launch__grid_size");
  f.block = k.get("launch__block_size");
  f.waves = k.get("launch__waves_per_multiprocessor");
  f.achieved_occupancy = k.get("sm__warps_active.avg.pct_of_peak_sustained_active");
  f.theoretical_occupancy = k.get("sm__maximum_warps_per_active_cycle_pct");
  f.issue_active_pct = k.get("smsp__issue_active.avg.pct_of_peak_sustained_active");
  return f;
}

const std::vector<std::string>& diagnosis_categories() {
  static const std::vector<std::string> c = {"memory_bound",  "compute_bound", "latency_bound",
                                             "underutilized", "launch_bound",  "occupancy_limited"};
  return c;
}

namespace {

std::vector<Rule> all_rules() {
  std::vector<Rule> rules;
  for (auto group : {memory_rules, compute_rules, occupancy_rules, latency_rules, utilization_rules}) {
    auto g = group();
    rules.insert(rules.end(), g.begin(), g.end());
  }
  return rules;
}

}  // namespace

const std::vector<std::string>& diagnosis_causes() {
  static const std::vector<std::string> causes = [] {
    std::vector<std::string> v;
    for (const auto& r : all_rules()) v.push_back(r.cause);
    return v;
  }();
  return causes;
}

KernelDiagnosis diagnose_kernel(const KernelProfile& kernel, const GpuSpec& gpu, const ProblemFacts& problem) {
  static const std::vector<Rule> rules = all_rules();
  const KernelFacts f = derive_facts(kernel, gpu, problem);
  KernelDiagnosis d;
  d.name = kernel.name;
  d.duration_us = f.duration_ns / 1000;
  d.sol.compute_pct = f.compute_pct.value_or(0);
  d.sol.memory_pct = f.memory_pct.value_or(0);
  d.sol.dram_pct = 100 * f.dram_fraction.value_or(0);

  for (const auto& rule : rules)
    if (auto b = rule.check(f)) d.bottlenecks.push_back(std::move(*b));
  std::stable_sort(d.bottlenecks.begin(), d.bottlenecks.end(),
                   [](const Bottleneck& a, const Bottleneck& b) { return a.confidence > b.confidence; });

  // At the roofline only when near the limit that binds it, judged by useful work over time, not by the
  // busiest unit's percentage: a strided kernel can keep L1/L2 busy at 95 % while moving little that counts.
  const bool launch_or_grid = !d.bottlenecks.empty() && (d.bottlenecks.front().category == "launch_bound" ||
                                                         d.bottlenecks.front().category == "underutilized");
  const double pipe = std::max(f.fma_pct.value_or(0), f.tensor_pct.value_or(0));
  const std::optional<double> useful = f.useful_fraction ? f.useful_fraction : f.dram_fraction;
  if (launch_or_grid) {
    d.roofline_reading = "the launch or the grid, not a hardware unit, limits this kernel";
  } else if (useful && *useful >= kMemoryRoofline) {
    d.at_roofline = true;
    d.roofline_reading = fmt::format("{} bytes move at {:.0f}% of the DRAM bandwidth",
                                     f.useful_fraction ? "the problem's compulsory" : "DRAM", 100 * *useful);
  } else if (pipe >= kPipeRoofline) {
    d.at_roofline = true;
    d.roofline_reading = fmt::format("the {} pipe is active {:.0f}% of the time",
                                     f.tensor_pct.value_or(0) >= f.fma_pct.value_or(0) ? "tensor" : "FP32 (FMA)", pipe);
  } else {
    d.roofline_reading = fmt::format("useful DRAM traffic at {:.0f}% of the bandwidth and the busiest pipe at {:.0f}%",
                                     100 * useful.value_or(0), pipe);
  }
  return d;
}

json KernelDiagnosis::to_json() const {
  json bs = json::array();
  for (const auto& b : bottlenecks) {
    json ev = json::array();
    for (const auto& e : b.evidence)
      ev.push_back({{"metric", e.metric}, {"value", e.value}, {"threshold", e.threshold}, {"reading", e.reading}});
    bs.push_back({{"category", b.category}, {"cause", b.cause}, {"confidence", b.confidence},
                  {"summary", b.summary}, {"evidence", ev}});
  }
  return {{"name", name},
          {"duration_us", duration_us},
          {"at_roofline", at_roofline},
          {"roofline_reading", roofline_reading},
          {"sol", {{"compute_pct", sol.compute_pct}, {"memory_pct", sol.memory_pct}, {"dram_pct", sol.dram_pct}}},
          {"bottlenecks", bs}};
}

}  // namespace kernelagent

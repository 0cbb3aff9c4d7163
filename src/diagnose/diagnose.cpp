#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "kernelagent/diagnose/diagnosis.hpp"
#include "kernelagent/diagnose/rule.hpp"

namespace kernelagent {

using nlohmann::json;

namespace {

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// No counter, size, rate or duration of one launch is negative; a percentage of a peak beyond a few hundred,
// a launch longer than 1000 s, more than a petabyte moved or a count past 1e18 is not a measurement either.
// Such a value in a saved profile is an edit or a corruption: the diagnosis does not reason from it.
constexpr double kMostPercent = 400;     // pct_of_peak can pass 100 a little; never by 4x
constexpr double kMostNs = 1e12;         // 1000 s in one launch
constexpr double kMostBytes = 1e15;      // a petabyte in one launch: 200 s at an H200's bandwidth
constexpr double kMostCount = 1e18;
constexpr double kMostSms = 10'000;

std::optional<std::string> implausible(std::string_view name, const Metric& m) {
  const double v = m.value;
  if (v < 0) return "negative, which no count, size, rate or duration can be";
  const bool percent = m.unit == "%" || contains(name, "pct");
  if (percent && v > kMostPercent) return fmt::format("over {:.0f}% of a peak", kMostPercent);
  if (name == "gpu__time_duration.sum") {
    if (v == 0) return std::string("a launch cannot take no time");
    if (v > kMostNs) return std::string("over 1000 s for one launch");
  }
  if (name == "device__attribute_multiprocessor_count" && (v < 1 || v > kMostSms))
    return std::string("not the SM count of a GPU");
  if (contains(name, "bytes") && !contains(name, "per_second") && !percent && v > kMostBytes)
    return std::string("over a petabyte in one launch");
  if (!contains(name, "per_second") && v > kMostCount) return std::string("beyond any count one launch reaches");
  return std::nullopt;
}

// A DRAM rate more than this many times the GPU's nominal bandwidth means the bytes or the duration are wrong.
constexpr double kMostDramFraction = 2.0;

// The first of several metric names that is present and plausible: ncu versions and GPUs name some counters
// differently. The unreadable ones are named only when no name gave a value.
std::optional<double> first_of(const KernelFacts& f, std::initializer_list<std::string_view> names) {
  for (auto n : names)
    if (auto it = f.kernel.metrics.find(n); it != f.kernel.metrics.end() && !implausible(n, it->second))
      return it->second.value;
  for (auto n : names) f.metric(n);  // notes the unreadable ones
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

std::optional<double> KernelFacts::metric(std::string_view name) const {
  if (auto text = kernel.unreadable_text(name)) {
    note_unreadable(std::string(name), *text, "not a finite number");
    return std::nullopt;
  }
  auto it = kernel.metrics.find(name);
  if (it == kernel.metrics.end()) return std::nullopt;
  if (auto why = implausible(name, it->second)) {
    note_unreadable(std::string(name), fmt::format("{:.6g}", it->second.value), *why);
    return std::nullopt;
  }
  return it->second.value;
}

void KernelFacts::note_unreadable(std::string metric, std::string value, std::string why) const {
  UnreadableMetric u{metric, std::move(value), std::move(why)};
  unreadable.emplace(std::move(metric), std::move(u));
}

KernelFacts derive_facts(const KernelProfile& k, const GpuSpec& gpu, const ProblemFacts& problem,
                         const DiagnosisThresholds& thresholds) {
  KernelFacts f{k, gpu, problem, &thresholds};
  f.duration_ns = f.metric("gpu__time_duration.sum").value_or(0);
  f.sm_count = static_cast<int>(f.metric("device__attribute_multiprocessor_count").value_or(gpu.sm_count));
  const std::size_t unreadable_before = f.unreadable.size();
  auto rd = f.metric("dram__bytes_read.sum"), wr = f.metric("dram__bytes_write.sum");
  // One direction alone is no total: with the other unreadable, the DRAM figures come from the percentage.
  if ((rd || wr) && f.unreadable.size() == unreadable_before) f.dram_bytes = rd.value_or(0) + wr.value_or(0);
  if (rd && f.unreadable.size() == unreadable_before) f.dram_read_bytes = rd;
  const double seconds = f.duration_ns * 1e-9;
  if (f.dram_bytes && seconds > 0 && gpu.dram_bytes_per_s > 0) {
    const double fraction = *f.dram_bytes / seconds / gpu.dram_bytes_per_s;
    if (fraction <= kMostDramFraction) {
      f.dram_fraction = fraction;
    } else {  // the bytes or the duration cannot be right: neither is reasoned from
      f.note_unreadable("dram__bytes_read.sum + dram__bytes_write.sum over gpu__time_duration.sum",
                        fmt::format("{:.4g} bytes in {:.4g} ns", *f.dram_bytes, f.duration_ns),
                        fmt::format("{:.1f} times the GPU's nominal DRAM bandwidth", fraction));
      f.dram_bytes.reset();
      f.dram_read_bytes.reset();
      f.duration_ns = 0;
    }
  }
  if (!f.dram_fraction)
    if (auto pct = first_of(f, {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                                "dram__throughput.avg.pct_of_peak_sustained_elapsed"}))
      f.dram_fraction = *pct / 100;
  const double known_seconds = f.duration_ns * 1e-9;
  if (problem.compulsory_bytes && known_seconds > 0 && gpu.dram_bytes_per_s > 0)
    f.useful_fraction = *problem.compulsory_bytes / known_seconds / gpu.dram_bytes_per_s;
  f.compute_pct = f.metric("sm__throughput.avg.pct_of_peak_sustained_elapsed");
  f.memory_pct = f.metric("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed");
  f.fma_pct = first_of(f, {"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
                           "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active"});
  f.alu_pct = first_of(f, {"sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active",
                           "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active"});
  f.xu_pct = first_of(f, {"sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"});
  f.tensor_pct = first_of(f, {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
                              "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
                              "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active"});
  f.grid = f.metric("launch__grid_size");
  f.block = f.metric("launch__block_size");
  f.waves = f.metric("launch__waves_per_multiprocessor");
  f.achieved_occupancy = f.metric("sm__warps_active.avg.pct_of_peak_sustained_active");
  f.theoretical_occupancy = f.metric("sm__maximum_warps_per_active_cycle_pct");
  f.issue_active_pct = f.metric("smsp__issue_active.avg.pct_of_peak_sustained_active");
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
  return diagnose_kernel(kernel, gpu, problem, DiagnosisThresholds::built_in());
}

KernelDiagnosis diagnose_kernel(const KernelProfile& kernel, const GpuSpec& gpu, const ProblemFacts& problem,
                                const DiagnosisThresholds& thresholds) {
  static const std::vector<Rule> rules = all_rules();
  const KernelFacts f = derive_facts(kernel, gpu, problem, thresholds);
  KernelDiagnosis d;
  d.name = kernel.name;
  d.duration_us = f.duration_ns / 1000;
  d.sol.compute_pct = f.compute_pct.value_or(0);
  d.sol.memory_pct = f.memory_pct.value_or(0);
  d.sol.dram_pct = 100 * f.dram_fraction.value_or(0);

  for (const auto& rule : rules)
    if (auto b = rule.check(f)) d.bottlenecks.push_back(std::move(*b));
  // What the diagnosis needed and could not read may have silenced a rule or lowered a ranking: it is named,
  // and no bottleneck is said with the confidence that complete evidence would give it.
  for (auto& [metric, u] : f.unreadable) d.unreadable.push_back(u);
  if (!d.unreadable.empty())
    for (auto& b : d.bottlenecks) b.confidence *= kUnreadableConfidenceFactor;
  rank_causes_above_their_symptoms(d.bottlenecks, f);
  std::stable_sort(d.bottlenecks.begin(), d.bottlenecks.end(),
                   [](const Bottleneck& a, const Bottleneck& b) { return a.confidence > b.confidence; });

  // At the roofline only when near the limit that binds it, judged by useful work over time, not by the
  // busiest unit's percentage: a strided kernel can keep L1/L2 busy at 95 % while moving little that counts.
  const bool launch_or_grid = !d.bottlenecks.empty() && (d.bottlenecks.front().category == "launch_bound" ||
                                                         d.bottlenecks.front().category == "underutilized");
  // The busiest math pipe: FP32 (FMA), tensor, integer and logic (ALU) or special functions (XU).
  const std::pair<const char*, double> pipes[] = {{"FP32 (FMA)", f.fma_pct.value_or(0)},
                                                  {"tensor", f.tensor_pct.value_or(0)},
                                                  {"ALU", f.alu_pct.value_or(0)},
                                                  {"XU (special function)", f.xu_pct.value_or(0)}};
  const auto busiest = *std::max_element(std::begin(pipes), std::end(pipes),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
  const double pipe = busiest.second;
  std::optional<double> useful = f.useful_fraction ? f.useful_fraction : f.dram_fraction;
  // Without the problem's compulsory bytes, DRAM traffic whose sectors the loads use a fraction of is mostly
  // waste (the uncoalesced rule's threshold): KernelBench 45's pool a thread an output kept DRAM 80 % busy on
  // an H100 reading 2.25x its input, its loads using 4 bytes of every sector; the coalesced kernel ran 2.6x faster.
  const auto used = f.metric("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio");
  const bool wasteful = !f.useful_fraction && useful && used && *used > 0 && *used < f.limit("wasteful_bytes_per_sector");
  if (wasteful) *useful *= *used / 32;
  if (launch_or_grid) {
    d.roofline_reading = "the launch or the grid, not a hardware unit, limits this kernel";
  } else if (useful && *useful >= kMemoryRoofline) {
    d.at_roofline = true;
    d.roofline_reading = fmt::format("{} bytes move at {:.0f}% of the DRAM bandwidth",
                                     f.useful_fraction ? "the problem's compulsory" : "DRAM", 100 * *useful);
  } else if (pipe >= kPipeRoofline && busiest.first == std::string_view("ALU") && !d.bottlenecks.empty() &&
             d.bottlenecks.front().cause == "l1_rereads") {
    // Index arithmetic for loads of the same data again is not the problem's work: reading once removes it.
    d.roofline_reading = fmt::format("the ALU pipe is active {:.0f}% of the time on the addresses of loads that read "
                                     "the same inputs again: not the problem's work", pipe);
  } else if (pipe >= kPipeRoofline) {
    d.at_roofline = true;
    d.roofline_reading = fmt::format("the {} pipe is active {:.0f}% of the time", busiest.first, pipe);
  } else {
    d.roofline_reading = fmt::format("useful DRAM traffic at {:.0f}% of the bandwidth{} and the busiest pipe at {:.0f}%",
                                     100 * useful.value_or(0),
                                     wasteful ? fmt::format(" (the loads use {:.0f} of every 32 bytes fetched)", *used) : "",
                                     pipe);
  }
  if (!d.unreadable.empty())
    d.roofline_reading += fmt::format("; judged without {} unreadable metric{}", d.unreadable.size(),
                                      d.unreadable.size() == 1 ? "" : "s");
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
  json unread = json::array();
  for (const auto& u : unreadable) unread.push_back({{"metric", u.metric}, {"value", u.value}, {"why", u.why}});
  return {{"name", name},
          {"duration_us", duration_us},
          {"unreadable_metrics", unread},
          {"at_roofline", at_roofline},
          {"roofline_reading", roofline_reading},
          {"sol", {{"compute_pct", sol.compute_pct}, {"memory_pct", sol.memory_pct}, {"dram_pct", sol.dram_pct}}},
          {"bottlenecks", bs}};
}

}  // namespace kernelagent

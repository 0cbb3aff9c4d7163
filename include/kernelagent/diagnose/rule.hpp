#pragma once
// A diagnosis rule looks at the facts of one kernel and, when its bottleneck is present, says so with
// evidence. Rules are small and independent; src/diagnose/rules/ holds them, grouped by category.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernelagent/diagnose/diagnosis.hpp"
#include "kernelagent/diagnose/thresholds.hpp"

namespace kernelagent {

// Figures every rule needs, derived once from the metrics. A figure whose metrics are missing is nullopt,
// and rules that need it stay silent: a missing metric degrades the diagnosis, never crashes it.
struct KernelFacts {
  const KernelProfile& kernel;
  const GpuSpec& gpu;
  const ProblemFacts& problem;
  const DiagnosisThresholds* thresholds = &DiagnosisThresholds::built_in();

  double duration_ns = 0;
  int sm_count = 0;
  std::optional<double> dram_bytes;         // read + write
  std::optional<double> dram_read_bytes;    // read alone
  std::optional<double> dram_fraction;      // DRAM bytes/s over the GPU's nominal bandwidth
  std::optional<double> useful_fraction;    // compulsory bytes/s over the nominal bandwidth (when known)
  std::optional<double> compute_pct, memory_pct;
  std::optional<double> fma_pct, tensor_pct, alu_pct, xu_pct;  // pipe utilisation, % of peak while active
  std::optional<double> grid, block, waves;
  std::optional<double> achieved_occupancy, theoretical_occupancy;  // %
  std::optional<double> issue_active_pct;

  // Every metric asked for through metric() whose value could not be used, by name: filled as the facts and
  // the rules ask, so that the diagnosis names exactly the unreadable metrics it needed.
  mutable std::map<std::string, UnreadableMetric, std::less<>> unreadable;

  // A rule's threshold by name (thresholds.cpp lists them).
  double limit(std::string_view name) const { return (*thresholds)[name]; }

  // The metric's value, or nullopt when it is absent, was not a number, or cannot be right (the last two
  // are noted in `unreadable`).
  std::optional<double> metric(std::string_view name) const;
  // Notes a metric (or a figure derived from several) whose value cannot be used.
  void note_unreadable(std::string metric, std::string value, std::string why) const;
};

KernelFacts derive_facts(const KernelProfile& kernel, const GpuSpec& gpu, const ProblemFacts& problem,
                         const DiagnosisThresholds& thresholds = DiagnosisThresholds::built_in());

struct Rule {
  std::string category;
  std::string cause;
  std::function<std::optional<Bottleneck>(const KernelFacts&)> check;
};

// Each group registers its rules here; see the files under src/diagnose/rules/.
std::vector<Rule> memory_rules();
std::vector<Rule> compute_rules();
std::vector<Rule> occupancy_rules();
std::vector<Rule> latency_rules();
std::vector<Rule> utilization_rules();

// Where one bottleneck found explains another (src/diagnose/root_causes.cpp), the cause is ranked just above
// its symptom, with the figure that ties them added to its evidence.
void rank_causes_above_their_symptoms(std::vector<Bottleneck>& bottlenecks, const KernelFacts& facts);

// A bottleneck with its confidence clamped to 0..1; rules add their evidence.
Bottleneck make_bottleneck(std::string category, std::string cause, double confidence, std::string summary);

}  // namespace kernelagent

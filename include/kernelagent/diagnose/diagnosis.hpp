#pragma once
// The Diagnose stage: from one kernel's Nsight Compute metrics, the GPU spec and (when known) the problem's
// compulsory bytes and FLOPs, a ranked list of bottlenecks, each with a category, a cause, a confidence and
// the evidence that shows it (DESIGN.md section 1; docs/diagnosis.md lists every cause).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelagent/gpu/gpu_spec.hpp"
#include "kernelagent/profile/ncu_report.hpp"

namespace kernelagent {

struct Evidence {
  std::string metric;   // the ncu metric (or a derived figure, named "derived:...")
  double value = 0;
  double threshold = 0;
  std::string reading;  // what the number means, in plain words
};

struct Bottleneck {
  std::string category;   // memory_bound, compute_bound, latency_bound, underutilized, launch_bound, occupancy_limited
  std::string cause;      // e.g. dram_bandwidth_saturated
  double confidence = 0;  // 0..1
  std::string summary;    // one line
  std::vector<Evidence> evidence;
};

// What is known about the problem the kernel computes; every field is optional.
struct ProblemFacts {
  std::optional<double> compulsory_bytes;  // inputs read once + outputs written once
  std::optional<double> input_bytes;       // the inputs read once (part of compulsory_bytes)
  std::optional<double> flops;
  bool matrix_product = false;             // tensor cores could do this work
};

struct SpeedOfLight {
  double compute_pct = 0;  // sm__throughput
  double memory_pct = 0;   // gpu__compute_memory_throughput (the busiest memory unit)
  double dram_pct = 0;     // DRAM bytes moved per second against the GPU's DRAM bandwidth
};

// A metric the diagnosis needed whose value it could not use: the cell was not a finite number ("n/a",
// "nan", "1e400"), or the number cannot be what the hardware measured (negative, a petabyte in one launch, a
// DRAM rate beyond the GPU's). The diagnosis goes on without it, names it, and lowers its confidences.
struct UnreadableMetric {
  std::string metric;
  std::string value;  // the cell's text, or the number as read
  std::string why;
};

// Each bottleneck's confidence is multiplied by this when a metric the diagnosis needed was unreadable: a rule
// that would have fired, or ranked higher, may have been silenced.
inline constexpr double kUnreadableConfidenceFactor = 0.5;

struct KernelDiagnosis {
  std::string name;
  double duration_us = 0;
  bool at_roofline = false;
  std::string roofline_reading;  // why at_roofline is what it is
  SpeedOfLight sol;
  std::vector<Bottleneck> bottlenecks;  // most important first
  std::vector<UnreadableMetric> unreadable;  // the metrics it needed and could not use, by name

  nlohmann::json to_json() const;
};

class DiagnosisThresholds;

KernelDiagnosis diagnose_kernel(const KernelProfile& kernel, const GpuSpec& gpu, const ProblemFacts& facts);
// The same with the rules comparing against `thresholds` instead of the built-in ones.
KernelDiagnosis diagnose_kernel(const KernelProfile& kernel, const GpuSpec& gpu, const ProblemFacts& facts,
                                const DiagnosisThresholds& thresholds);

// The categories and causes the rules can name, for documentation and tests.
const std::vector<std::string>& diagnosis_categories();
const std::vector<std::string>& diagnosis_causes();

}  // namespace kernelagent

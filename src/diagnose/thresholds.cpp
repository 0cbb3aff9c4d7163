#include "kernelagent/diagnose/thresholds.hpp"

#include <algorithm>
#include <stdexcept>

namespace kernelagent {

const DiagnosisThresholds& DiagnosisThresholds::built_in() {
  static const DiagnosisThresholds t({
      // Compute.
      {"busy_pipe_pct", 60, "a math pipe active this share of its cycles is the limit (or near it)"},
      {"tensor_idle_pct", 5, "tensor pipe activity below which a matrix product is not using the tensor cores"},
      {"product_fma_pct", 30, "FMA pipe activity of a product on the FP32 pipe that the tensor cores could take"},
      {"product_shared_pct", 50, "shared-memory pipe activity that holds an FP32 product back before its FMA pipe fills"},
      // Latency.
      {"waiting_dram_fraction", 0.6, "DRAM use (weighed by the bytes of a sector loads use) below which warps wait"},
      {"waiting_pipe_pct", 50, "math pipe activity below which warps wait"},
      {"waiting_compute_pct", 60, "SM throughput below which warps wait"},
      {"long_scoreboard_stalls_per_issue", 4, "warps stalled on a global or local load per instruction issued"},
      {"atomic_unit_busy_pct", 30, "activity of the busiest L2 atomic unit that serialises atomics"},
      {"divergent_lanes", 24, "active threads per executed instruction below which branches split warps"},
      // Memory.
      {"dram_saturated_fraction", 0.6, "DRAM traffic over the nominal bandwidth that makes DRAM the limit"},
      {"wasteful_bytes_per_sector", 16, "useful bytes of a 32-byte sector below which accesses waste traffic"},
      {"narrow_copy_share", 0.5, "share of the copies to shared memory narrower than 16 bytes (the L1 path)"},
      {"l2_hit_pct", 50, "L2 hit rate below which re-used data is evicted before it is read again"},
      {"l2_refetch_of_inputs", 1.3, "DRAM reads over the inputs' bytes that show inputs fetched again"},
      {"l2_refetch_of_compulsory", 1.5, "DRAM traffic over the compulsory bytes that shows data fetched again"},
      {"l2_reread_of_compulsory", 8, "L2 traffic over the compulsory bytes of a product that reuses too little"},
      {"low_reuse_pipe_pct", 60, "math pipe activity below which a product's L2 traffic is its limit"},
      {"l1_hit_pct", 60, "L1 sector hit rate of global loads that read the same inputs again"},
      {"l1_reread_dram_fraction", 0.75, "DRAM use above which DRAM, not the reloads through L1, is the limit"},
      {"bank_conflicts_per_wavefront", 0.25, "shared-memory bank-conflict replays per wavefront"},
      {"shared_busy_pct", 10, "shared-memory pipe activity below which its conflicts cost nothing"},
      // Occupancy.
      {"low_occupancy_pct", 50, "theoretical occupancy at or below which a resource limit matters"},
      {"occupancy_dram_fraction", 0.6, "DRAM use above which occupancy is not the limit"},
      {"occupancy_pipe_pct", 60, "math pipe activity above which occupancy is not the limit"},
      {"exposing_occupancy_pct", 25, "theoretical occupancy at or below which the load stalls are the limit's symptom"},
      {"spill_traffic_share", 0.5, "local (spill) sectors over global and local ones that make the traffic the spills'"},
      // Launch and grid.
      {"launch_bound_ns", 10'000, "a kernel shorter than this is launch and ramp-up"},
      {"tail_idle_share", 0.15, "share of SM time the last partial wave leaves idle"},
      {"tail_max_waves", 4, "waves beyond which a partial last wave costs little"},
  });
  return t;
}

std::size_t DiagnosisThresholds::index_of(std::string_view name) const {
  auto it = std::find_if(specs_.begin(), specs_.end(), [&](const ThresholdSpec& s) { return s.name == name; });
  if (it == specs_.end()) throw std::out_of_range("no diagnosis threshold named " + std::string(name));
  return static_cast<std::size_t>(it - specs_.begin());
}

double DiagnosisThresholds::operator[](std::string_view name) const { return specs_[index_of(name)].value; }

void DiagnosisThresholds::set(std::string_view name, double value) { specs_[index_of(name)].value = value; }

}  // namespace kernelagent

// Occupancy causes: too few warps resident to hide latency, and why.

#include <algorithm>

#include <fmt/format.h>

#include "kernelagent/diagnose/rule.hpp"

namespace kernelagent {

namespace {

// The occupancy limit (in blocks per SM) of one resource, and the smallest of the others.
struct Limits {
  std::optional<double> registers, shared, warps, blocks;
  double others_min(std::optional<double> self) const {
    double m = 1e9;
    for (auto v : {registers, shared, warps, blocks})
      if (v && v != self) m = std::min(m, *v);
    return m;
  }
};

Limits limits_of(const KernelFacts& f) {
  return {f.metric("launch__occupancy_limit_registers"), f.metric("launch__occupancy_limit_shared_mem"),
          f.metric("launch__occupancy_limit_warps"), f.metric("launch__occupancy_limit_blocks")};
}

// Only a problem when the kernel is not already at a roofline and occupancy is low.
bool occupancy_matters(const KernelFacts& f) {
  if (!f.theoretical_occupancy || *f.theoretical_occupancy > f.limit("low_occupancy_pct")) return false;
  const double pipe = std::max(f.fma_pct.value_or(0), f.tensor_pct.value_or(0));
  return f.dram_fraction.value_or(0) < f.limit("occupancy_dram_fraction") && pipe < f.limit("occupancy_pipe_pct");
}

// The bottleneck when `limit_metric` (blocks per SM one resource allows) is the tightest occupancy limit;
// `resource` reads as the start of the summary ("registers allow").
std::optional<Bottleneck> limited_by(const KernelFacts& f, const std::string& cause, const std::string& limit_metric,
                                     const std::string& resource, const std::string& the_resource) {
  const auto limit = f.metric(limit_metric);
  const Limits l = limits_of(f);
  if (!limit || !occupancy_matters(f) || *limit >= l.others_min(limit)) return std::nullopt;
  auto b = make_bottleneck("occupancy_limited", cause, 0.55,
                           fmt::format("{} {:.0f} blocks per SM: {:.0f}% theoretical occupancy", resource, *limit,
                                       *f.theoretical_occupancy));
  b.evidence.push_back({limit_metric, *limit, l.others_min(limit),
                        "blocks per SM " + the_resource + " allows, below every other limit"});
  b.evidence.push_back({"sm__maximum_warps_per_active_cycle_pct", *f.theoretical_occupancy, f.limit("low_occupancy_pct"),
                        "the most warps an SM can hold for this kernel, % of its maximum"});
  if (auto regs = f.metric("launch__registers_per_thread"))
    b.evidence.push_back({"launch__registers_per_thread", *regs, 0, "registers each thread holds"});
  return b;
}

}  // namespace

std::vector<Rule> occupancy_rules() {
  return {
      // register_spills. Example: a kernel needing 300 registers per thread capped at 255 spills to local
      // memory: local loads and stores appear, each one a round trip through L1/L2.
      {"occupancy_limited", "register_spills",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         auto spills = f.metric("sass__inst_executed_register_spilling");
         auto local = f.metric("derived__local_spilling_requests");
         auto value = spills ? spills : local;
         if (!value || *value <= 0) return std::nullopt;
         auto b = make_bottleneck("occupancy_limited", "register_spills", 0.75,
                                  fmt::format("{:.0f} spill instructions move registers through local memory", *value));
         b.evidence.push_back({spills ? "sass__inst_executed_register_spilling" : "derived__local_spilling_requests",
                               *value, 0, "registers that did not fit are stored and reloaded from local memory"});
         if (auto regs = f.metric("launch__registers_per_thread"))
           b.evidence.push_back({"launch__registers_per_thread", *regs, 255, "registers each thread holds"});
         return b;
       }},
      // register_limited_occupancy. Example: 110 registers per thread with 256-thread blocks allow 2 blocks
      // (16 warps, 25 %) per SM; with long memory latency too few warps are left to hide it.
      {"occupancy_limited", "register_limited_occupancy",
       [](const KernelFacts& f) {
         return limited_by(f, "register_limited_occupancy", "launch__occupancy_limit_registers", "registers allow",
                           "the register file");
       }},
      // shared_memory_limited_occupancy. Example: 3 pipeline stages of 128x128 fp32 tiles need 192 KB of
      // shared memory per block: one block per SM, 12 % occupancy.
      {"occupancy_limited", "shared_memory_limited_occupancy",
       [](const KernelFacts& f) {
         return limited_by(f, "shared_memory_limited_occupancy", "launch__occupancy_limit_shared_mem", "shared memory allows",
                           "the shared memory");
       }},
  };
}

}  // namespace kernelagent

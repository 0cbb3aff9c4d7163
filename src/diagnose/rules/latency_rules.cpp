// Latency-bound causes: neither memory nor math is busy; warps wait.

#include <algorithm>

#include <fmt/format.h>

#include "kernelagent/diagnose/rule.hpp"

namespace kernelagent {

namespace {

// Neither a memory nor a compute roofline is near: the kernel spends its time waiting. DRAM counts by the
// share of its sectors the loads use: a random gather keeps DRAM 56 % busy on an H100 fetching 32-byte
// sectors for 4-byte loads, yet each warp waits on its one load at a time (395 warps stalled on the long
// scoreboard per instruction issued); the H200's wider DRAM showed the same kernel below 50 %.
bool waiting(const KernelFacts& f) {
  const double pipe = std::max(f.fma_pct.value_or(0), f.tensor_pct.value_or(0));
  double dram = f.dram_fraction.value_or(0);
  if (auto used = f.metric("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"); used && *used > 0)
    dram *= std::min(1.0, *used / 32);
  return dram < f.limit("waiting_dram_fraction") && pipe < f.limit("waiting_pipe_pct") &&
         f.compute_pct.value_or(0) < f.limit("waiting_compute_pct");
}

}  // namespace

std::vector<Rule> latency_rules() {
  return {
      // long_scoreboard_stalls. Example: a pointer-chasing loop issues one load, waits ~600 cycles for it,
      // then issues the next: warps stall on the long scoreboard while DRAM is 5 % busy.
      {"latency_bound", "long_scoreboard_stalls",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         auto ls = f.metric("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio");
         const double most = f.limit("long_scoreboard_stalls_per_issue");
         if (!ls || *ls < most || !waiting(f)) return std::nullopt;
         auto b = make_bottleneck("latency_bound", "long_scoreboard_stalls", std::min(0.85, 0.45 + *ls / 100),
                                  fmt::format("warps wait on global memory: {:.1f} stalled warps per issued instruction", *ls));
         b.evidence.push_back({"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", *ls, most,
                               "warps waiting for a global or local load per instruction issued; more loads in "
                               "flight (pipelining, occupancy) would hide the latency"});
         if (f.dram_fraction) b.evidence.push_back({"derived:dram_bytes_per_s_over_peak", *f.dram_fraction, f.limit("waiting_dram_fraction"),
                                                    "the memory system itself is far from busy"});
         return b;
       }},
      // atomic_contention. Example: every thread adds into one global counter: the L2 atomic units are busy
      // serialising updates to one address while everything else idles.
      {"latency_bound", "atomic_contention",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         auto busy = f.metric("lts__d_atomic_input_cycles_active.avg.pct_of_peak_sustained_elapsed");
         auto max_busy = f.metric("lts__d_atomic_input_cycles_active.max.pct_of_peak_sustained_elapsed");
         // Atomics whose result is used (ATOM) and those whose result is not (RED: atomicAdd into a sum, as
         // PyTorch's index_add_ and scatter_add_ issue them) queue alike in L2.
         auto atom = f.metric("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum");
         auto red = f.metric("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum");
         if (!atom && !red) return std::nullopt;
         const std::optional<double> atoms = atom.value_or(0) + red.value_or(0);
         if (*atoms <= 0) return std::nullopt;
         const double hottest = max_busy.value_or(busy.value_or(0));
         const double busiest = f.limit("atomic_unit_busy_pct");
         if (hottest < busiest) return std::nullopt;
         auto b = make_bottleneck("latency_bound", "atomic_contention", std::min(0.9, 0.5 + hottest / 200),
                                  fmt::format("atomics serialise in L2: its busiest atomic unit is active {:.0f}% of the time", hottest));
         b.evidence.push_back({"lts__d_atomic_input_cycles_active.max.pct_of_peak_sustained_elapsed", hottest, busiest,
                               "updates to the same addresses queue in one L2 slice"});
         b.evidence.push_back({"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum + op_red.sum", *atoms, 0,
                               "global atomic requests (with and without a returned value)"});
         return b;
       }},
      // warp_divergence. Example: `if (tid % 2)` in a hot loop runs both paths with half the lanes each:
      // 16 active threads per instruction instead of 32.
      {"latency_bound", "warp_divergence",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         auto lanes = f.metric("smsp__thread_inst_executed_per_inst_executed.ratio");
         const double fewest = f.limit("divergent_lanes");
         if (!lanes || *lanes <= 0 || *lanes >= fewest) return std::nullopt;
         auto b = make_bottleneck("latency_bound", "warp_divergence", 0.5 + 0.4 * (1 - *lanes / 32),
                                  fmt::format("only {:.1f} of 32 threads do work per instruction", *lanes));
         b.evidence.push_back({"smsp__thread_inst_executed_per_inst_executed.ratio", *lanes, fewest,
                               "active threads per executed instruction; branches within a warp run serially"});
         return b;
       }},
  };
}

}  // namespace kernelagent

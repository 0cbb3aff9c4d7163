// Several rules can fire on one kernel where one bottleneck causes another: a matrix product on the FP32
// pipe keeps that pipe busy, spilled registers fill DRAM with local traffic, scattered accesses fetch sectors
// they barely use, warps wait on atomics' returns, too few resident warps leave the latency of every load
// exposed. The rules rank by their own confidence and
// cannot see each other; here the cause is put above the symptom it explains, with the figure that shows it,
// because the guided search acts on the first cause and only the cause's fix removes both.

#include <fmt/format.h>

#include <algorithm>

#include "kernelagent/diagnose/rule.hpp"

namespace kernelagent {

namespace {

// A cause explains a symptom where `shown` finds the figure that ties them (nullopt: not shown here), from
// the facts or the cause's own evidence.
struct Precedence {
  std::string_view cause;
  std::vector<std::string_view> symptoms;
  std::function<std::optional<Evidence>(const KernelFacts&, const Bottleneck&)> shown;
};

// Occupancy this low (exposing_occupancy_pct) leaves a scheduler one or two warps to switch between: a stall
// is exposed.
std::optional<Evidence> occupancy_exposes_latency(const KernelFacts& f, const Bottleneck&) {
  const double exposing = f.limit("exposing_occupancy_pct");
  if (!f.theoretical_occupancy || *f.theoretical_occupancy > exposing) return std::nullopt;
  return Evidence{"sm__maximum_warps_per_active_cycle_pct", *f.theoretical_occupancy, exposing,
                  "too few warps can be resident to hide the latency the stalls show: raising the limit is the fix"};
}

// Local (spill) traffic at least spill_traffic_share of the L1's global and local sectors makes the spills
// the traffic.
std::optional<Evidence> spills_are_the_traffic(const KernelFacts& f, const Bottleneck&) {
  const double share = f.limit("spill_traffic_share");
  double local = 0, global = 0;
  for (auto op : {"ld", "st"}) {
    local += f.metric(fmt::format("l1tex__t_sectors_pipe_lsu_mem_local_op_{}.sum", op)).value_or(0);
    global += f.metric(fmt::format("l1tex__t_sectors_pipe_lsu_mem_global_op_{}.sum", op)).value_or(0);
  }
  if (local + global <= 0 || local / (local + global) < share) return std::nullopt;
  return Evidence{"derived:local_sectors_over_global_and_local", local / (local + global), share,
                  "spilled registers are most of the sectors the kernel moves: the memory traffic is the spills'"};
}

// Sectors carrying at most wasteful_bytes_per_sector of their 32 bytes multiply the traffic by 2 or more.
std::optional<Evidence> waste_is_the_traffic(const KernelFacts& f, const Bottleneck& uncoalesced) {
  const double wasteful = f.limit("wasteful_bytes_per_sector");
  for (const auto& e : uncoalesced.evidence)
    if (e.metric == "derived:global_bytes_per_sector" && e.value > 0 && e.value <= wasteful)
      return Evidence{"derived:sector_waste_factor", 32 / e.value, 32 / wasteful,
                      "each sector fetched carries a fraction of useful bytes: the traffic beyond the compulsory "
                      "bytes is the waste, and coalescing removes it"};
  return std::nullopt;
}

// The l2_thrashing rule gives its excess first: DRAM reads over the inputs' bytes, or all DRAM bytes over the
// compulsory ones, past its threshold.
std::optional<Evidence> refetch_is_the_traffic(const KernelFacts&, const Bottleneck& thrashing) {
  if (thrashing.evidence.empty()) return std::nullopt;
  const Evidence& excess = thrashing.evidence.front();
  return Evidence{"derived:dram_refetch_factor", excess.value, excess.threshold,
                  "the DRAM traffic beyond the compulsory bytes is data fetched again: reading it once removes it"};
}

const std::vector<Precedence>& precedences() {
  static const std::vector<Precedence> p = {
      {"tensor_cores_unused",
       {"fp32_pipe_saturated"},
       [](const KernelFacts& f, const Bottleneck&) -> std::optional<Evidence> {
         return Evidence{"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", f.tensor_pct.value_or(0), 0,
                         "the FP32 pipe is busy with the product's multiply-adds, which the tensor cores could do"};
       }},
      // Spilled registers travel through L2 too: a 3xTF32 product spilling at 4 warps moved 66 % of its L2
      // sectors to and from local memory, enough to read as operands fetched again and again.
      {"register_spills",
       {"dram_bandwidth_saturated", "l2_thrashing", "long_scoreboard_stalls", "low_data_reuse"},
       spills_are_the_traffic},
      {"atomic_contention",
       {"long_scoreboard_stalls"},
       [](const KernelFacts&, const Bottleneck&) -> std::optional<Evidence> {
         return Evidence{"derived:atomics_and_stalls", 1, 0,
                         "the warps wait on atomics' returns, serialised on the same addresses in L2"};
       }},
      {"uncoalesced_access", {"l2_thrashing", "dram_bandwidth_saturated"}, waste_is_the_traffic},
      // Bytes fetched again from DRAM are DRAM traffic: a saturated DRAM moving them is their symptom (34's
      // coop kernel with the next row prefetched to L2: DRAM 86 % busy, reading the input 1.56 times).
      {"l2_thrashing", {"dram_bandwidth_saturated"}, refetch_is_the_traffic},
      // A product on the FP32 pipe copies its operands 4 bytes at a time by design (a SIMT GEMM): the
      // tensor cores are the fix, and aligned 16-byte copies come with them.
      {"tensor_cores_unused",
       {"narrow_async_copies"},
       [](const KernelFacts& f, const Bottleneck&) -> std::optional<Evidence> {
         return Evidence{"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", f.fma_pct.value_or(0), 0,
                         "a product on the FP32 pipe: the tensor cores come first"};
       }},
      {"register_limited_occupancy", {"long_scoreboard_stalls"}, occupancy_exposes_latency},
      {"shared_memory_limited_occupancy", {"long_scoreboard_stalls"}, occupancy_exposes_latency},
      // Each load of the same input again costs its address arithmetic again: a 1-D max pool a thread an output
      // over windows of 16 kept the ALU pipe 95 % busy on an H100; the ring, reading each input once, ran 1.30x
      // faster with a sixth of the instructions.
      {"l1_rereads",
       {"alu_pipe_saturated"},
       [](const KernelFacts& f, const Bottleneck&) -> std::optional<Evidence> {
         return Evidence{"sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active", f.alu_pct.value_or(0), 0,
                         "the ALU pipe computes the addresses of loads that read the same inputs again"};
       }},
  };
  return p;
}

Bottleneck* find(std::vector<Bottleneck>& bs, std::string_view cause) {
  auto it = std::find_if(bs.begin(), bs.end(), [&](const Bottleneck& b) { return b.cause == cause; });
  return it == bs.end() ? nullptr : &*it;
}

}  // namespace

void rank_causes_above_their_symptoms(std::vector<Bottleneck>& bottlenecks, const KernelFacts& f) {
  for (const auto& p : precedences()) {
    Bottleneck* cause = find(bottlenecks, p.cause);
    if (!cause) continue;
    double above = -1;
    std::string explained;
    for (auto s : p.symptoms)
      if (const Bottleneck* symptom = find(bottlenecks, s); symptom && symptom->confidence >= cause->confidence) {
        above = std::max(above, symptom->confidence);
        explained += fmt::format("{}{}", explained.empty() ? "" : ", ", s);
      }
    if (above < 0) continue;
    auto evidence = p.shown(f, *cause);
    if (!evidence) continue;
    evidence->reading = fmt::format("{} (ranked above {}, which it explains)", evidence->reading, explained);
    cause->evidence.push_back(std::move(*evidence));
    // Just above the symptom: the order changes, the symptom's own reading does not.
    cause->confidence = std::min(1.0, above + 0.01);
    for (auto s : p.symptoms)
      if (Bottleneck* symptom = find(bottlenecks, s); symptom && symptom->confidence >= cause->confidence)
        symptom->confidence = std::max(0.0, cause->confidence - 0.01);
  }
}

}  // namespace kernelagent

// Memory-bound causes: the kernel waits on bytes. Which bytes, and why, decides the fix.

#include <fmt/format.h>

#include "kernelagent/diagnose/rule.hpp"

namespace kernelagent {

namespace {
}

std::vector<Rule> memory_rules() {
  return {
      // dram_bandwidth_saturated. Example: fp32 x + y over 2^26 elements moves 786 MB in 183 us = 4.29 TB/s,
      // 89 % of an H200's 4.8 TB/s: nothing inside the kernel is left to win but bytes not moved.
      {"memory_bound", "dram_bandwidth_saturated",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         const double saturated = f.limit("dram_saturated_fraction");
         if (!f.dram_fraction || *f.dram_fraction < saturated) return std::nullopt;
         std::string summary =
             f.gpu.dram_bytes_per_s > 0
                 ? fmt::format("DRAM moves {:.2f} TB/s, {:.0f}% of the {:.1f} TB/s peak",
                               *f.dram_fraction * f.gpu.dram_bytes_per_s / 1e12, 100 * *f.dram_fraction,
                               f.gpu.dram_bytes_per_s / 1e12)
                 : fmt::format("DRAM throughput is {:.0f}% of its peak", 100 * *f.dram_fraction);
         auto b = make_bottleneck("memory_bound", "dram_bandwidth_saturated", 0.5 + 0.5 * *f.dram_fraction, summary);
         b.evidence.push_back({"derived:dram_bytes_per_s_over_peak", *f.dram_fraction, saturated,
                               "DRAM traffic over the GPU's nominal bandwidth; the best copy reaches about 0.89"});
         if (f.dram_bytes)
           b.evidence.push_back({"dram__bytes_read.sum + dram__bytes_write.sum", *f.dram_bytes, 0,
                                 "bytes moved between DRAM and L2 by this launch"});
         return b;
       }},
      // uncoalesced_access. Example: a warp reading fp32 with a stride of 8 elements uses 4 bytes of every
      // 32-byte sector: 4 bytes/sector, 8x the traffic of a coalesced read, even though L1/L2 look busy.
      // Loads and stores are weighed by the sectors each moves: a layer norm's row statistics read 16.8M
      // sectors at 32 bytes each and store 32 scalars at 4 bytes each; the 32 stores waste nothing that
      // matters (the profile without sector counts falls back to the worse of the two).
      {"memory_bound", "uncoalesced_access",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         constexpr const char* kLd = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio";
         constexpr const char* kSt = "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio";
         auto ld = f.metric(kLd);
         auto st = f.metric(kSt);
         auto reqs = f.metric("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
         auto ld_sectors = f.metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
         auto st_sectors = f.metric("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
         if (ld && !(*ld > 0 && reqs && *reqs > 0)) ld.reset();
         if (st && !(*st > 0)) st.reset();
         std::optional<double> worst;
         std::string which;
         std::vector<Evidence> parts;
         if (ld_sectors && st_sectors && *ld_sectors + *st_sectors > 0 && (ld || st)) {
           // The useful bytes per sector over every global sector moved, each op by its share.
           const double lds = ld ? *ld_sectors : 0, sts = st ? *st_sectors : 0;
           if (lds + sts <= 0) return std::nullopt;
           worst = ((ld ? *ld * lds : 0) + (st ? *st * sts : 0)) / (lds + sts);
           which = "derived:global_bytes_per_sector";
           if (ld)
             parts.push_back(
                 {kLd, *ld, f.limit("wasteful_bytes_per_sector"), fmt::format("loads: {:.0f}% of the global sectors", 100 * lds / (lds + sts))});
           if (st)
             parts.push_back(
                 {kSt, *st, f.limit("wasteful_bytes_per_sector"), fmt::format("stores: {:.0f}% of the global sectors", 100 * sts / (lds + sts))});
         } else {
           if (ld) worst = ld, which = kLd;
           if (st && (!worst || *st < *worst)) worst = st, which = kSt;
         }
         const double wasteful = f.limit("wasteful_bytes_per_sector");
         if (!worst || *worst >= wasteful) return std::nullopt;
         auto b = make_bottleneck("memory_bound", "uncoalesced_access", 0.6 + 0.4 * (1 - *worst / 32),
                                  fmt::format("global accesses use {:.1f} of every 32 bytes they fetch", *worst));
         b.evidence.push_back({which, *worst, wasteful,
                               "useful bytes per 32-byte sector; 32 is fully coalesced, lower means the warp's "
                               "addresses are scattered or strided and each useful byte costs extra traffic"});
         for (auto& e : parts) b.evidence.push_back(std::move(e));
         if (f.memory_pct)
           b.evidence.push_back({"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", *f.memory_pct, 0,
                                 "how busy the busiest memory unit is: busy moving waste"});
         return b;
       }},
      // narrow_async_copies. Example: a Triton product of 8205 x 2949 by 2949 x 5921 fp32 (3xTF32, H100): rows of
      // 2949 and 5921 floats are not 16-byte aligned, so every copy of an operand tile to shared memory (LDGSTS)
      // moves 4 bytes a thread instead of 16: 74.3 M copy instructions, all on the L1-allocating path, against
      // 18.6 M on the bypass path once the operands are copied to aligned rows (3.9x faster). The path tells the
      // width: the bypass form (`cp.async.cg`) takes only 16-byte copies, so narrower ones go through L1
      // (`cp.async.ca`). Sectors per request do not: a narrow copy whose warp spans several unaligned rows touches
      // 18 sectors a request, more than a 16-byte one. The scattered 4-byte writes into shared memory also
      // show as bank conflicts (45 % of the shared wavefronts in the example).
      {"memory_bound", "narrow_async_copies",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         const double narrow = f.metric("sm__sass_inst_executed_op_ldgsts_cache_access.sum").value_or(0);
         const double wide = f.metric("sm__sass_inst_executed_op_ldgsts_cache_bypass.sum").value_or(0);
         if (narrow <= 0 || narrow + wide <= 0) return std::nullopt;
         const double share = narrow / (narrow + wide);
         if (share < f.limit("narrow_copy_share")) return std::nullopt;
         auto b = make_bottleneck("memory_bound", "narrow_async_copies", 0.9,
                                  fmt::format("{:.0f}% of the copies to shared memory are narrower than 16 bytes a "
                                              "thread (the L1 path; 16-byte copies bypass L1)",
                                              100 * share));
         b.evidence.push_back({"derived:ldgsts_narrow_share", share, f.limit("narrow_copy_share"),
                               "copies through L1 over all copies to shared memory: the operands' rows or tiles are "
                               "not 16-byte aligned (or their alignment cannot be proven), so each copy moves one "
                               "element, four times the instructions of a vector"});
         return b;
       }},
      // l2_thrashing. Example: a kernel whose working set exceeds L2 re-reads its inputs from DRAM: DRAM
      // traffic is 3x the compulsory bytes and the L2 hit rate is 20 %. Where the inputs' size is known the
      // reads alone are weighed: KernelBench 34's coop kernel (H100) read 11.7 GB from DRAM for 7.5 GB of input
      // (the next row's chunk, prefetched to L2, was evicted by the row's writes before its loads came) and
      // wrote its 7.5 GB once: 1.28x the compulsory bytes in all, 1.56x the input read.
      {"memory_bound", "l2_thrashing",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         auto hit = f.metric("lts__t_sector_hit_rate.pct");
         const double most_hits = f.limit("l2_hit_pct");
         if (!hit || *hit >= most_hits) return std::nullopt;
         const bool by_reads = f.problem.input_bytes && *f.problem.input_bytes > 0 && f.dram_read_bytes;
         if (!by_reads && (!f.problem.compulsory_bytes || !f.dram_bytes || *f.problem.compulsory_bytes <= 0))
           return std::nullopt;
         const double excess = by_reads ? *f.dram_read_bytes / *f.problem.input_bytes
                                        : *f.dram_bytes / *f.problem.compulsory_bytes;
         const double threshold = f.limit(by_reads ? "l2_refetch_of_inputs" : "l2_refetch_of_compulsory");
         if (excess < threshold) return std::nullopt;
         auto b = make_bottleneck("memory_bound", "l2_thrashing", std::min(0.95, 0.5 + 0.1 * excess),
                                  fmt::format("DRAM {} {:.2f}x the {} and L2 hits only {:.0f}%",
                                              by_reads ? "reads" : "traffic is", excess,
                                              by_reads ? "inputs' bytes" : "compulsory bytes", *hit));
         if (by_reads)
           b.evidence.push_back({"dram__bytes_read.sum over the inputs' bytes", excess, threshold,
                                 "each input byte is fetched from DRAM this many times"});
         else
           b.evidence.push_back({"derived:dram_bytes_over_compulsory", excess, threshold,
                                 "every byte the problem needs is fetched from DRAM this many times"});
         b.evidence.push_back({"lts__t_sector_hit_rate.pct", *hit, most_hits, "re-used data is evicted from L2 before it is read again"});
         return b;
       }},
      // low_data_reuse. Example: a GEMM with 32x32 tiles reads each input element K/32 times through L2;
      // L2 traffic is 20x the compulsory bytes while the math pipes idle: larger tiles would reuse operands.
      {"memory_bound", "low_data_reuse",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         // Some ncu versions report L2 traffic only in 32-byte sectors.
         auto l2 = f.metric("lts__t_bytes.sum");
         if (!l2)
           if (auto sectors = f.metric("lts__t_sectors.sum")) l2 = *sectors * 32;
         if (!f.problem.compulsory_bytes || !l2 || *f.problem.compulsory_bytes <= 0) return std::nullopt;
         const double reread = *l2 / *f.problem.compulsory_bytes;
         const double pipe = std::max(f.fma_pct.value_or(0), f.tensor_pct.value_or(0));
         const double most_reread = f.limit("l2_reread_of_compulsory");
         if (reread < most_reread || pipe >= f.limit("low_reuse_pipe_pct") || !f.problem.matrix_product)
           return std::nullopt;
         auto b = make_bottleneck("memory_bound", "low_data_reuse", std::min(0.9, 0.5 + reread / 100),
                                  fmt::format("L2 serves {:.0f}x the compulsory bytes while the math pipes are {:.0f}% busy",
                                              reread, pipe));
         b.evidence.push_back({"derived:l2_bytes_over_compulsory", reread, most_reread,
                               "operands are fetched again for every small tile instead of being reused from registers "
                               "or shared memory"});
         return b;
       }},
      // l1_rereads. Example: KernelBench 42's MaxPool2d (4 x 4 windows of stride 1, H100) a thread an output:
      // each output loads its 16 inputs, so the kernel reads 1.30 G sectors (41.7 GB) through L1 for an input of
      // 4.3 GB; 85 % of them hit in L1, and the warps wait on those hits (14.5 warps stalled on the long
      // scoreboard per issued instruction) while DRAM is 48 % busy. Reading each input row once and reusing it
      // on chip (the window family's ring: 0.11 G sectors, DRAM 90 % busy) ran 1.9x faster. Global loads only:
      // a kernel whose L1 traffic is shared memory (a product's tiles) or asynchronous copies is not this cause.
      {"memory_bound", "l1_rereads",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         auto hit = f.metric("l1tex__t_sector_hit_rate.pct");
         auto global = f.metric("l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum");
         auto shared = f.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum");
         const double rereads = f.limit("l1_hit_pct"), dram_room = f.limit("l1_reread_dram_fraction");
         if (!hit || !global || *hit < rereads || *global <= 0) return std::nullopt;
         if (shared && *shared > *global) return std::nullopt;
         if (!f.dram_fraction || *f.dram_fraction >= dram_room) return std::nullopt;
         auto b = make_bottleneck("memory_bound", "l1_rereads", std::min(0.95, 0.45 + *hit / 200),
                                  fmt::format("{:.0f}% of the global loads' sectors hit in L1: the kernel loads the same "
                                              "bytes again and again while DRAM is {:.0f}% busy",
                                              *hit, 100 * *f.dram_fraction));
         b.evidence.push_back({"l1tex__t_sector_hit_rate.pct", *hit, rereads,
                               "sectors found in L1: each input is loaded once per use, where reading it once into "
                               "registers or shared memory would do"});
         b.evidence.push_back({"derived:dram_bytes_per_s_over_peak", *f.dram_fraction, dram_room,
                               "DRAM has room: the loads, not the bytes, are the limit"});
         if (auto stalls = f.metric("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"))
           b.evidence.push_back({"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", *stalls, 0,
                                 "warps waiting on loads (L1 hits included) per issued instruction"});
         return b;
       }},
      // bank_conflicts. Example: a transpose through shared memory with a 32-float row pitch serialises every
      // column access 32 ways: conflicts per wavefront near 1 and the shared pipe busy. Conflicts in a kernel
      // that barely touches shared memory (one cross-warp reduction at the end) cost nothing: the shared
      // pipe must also be busy for them to matter.
      {"memory_bound", "bank_conflicts",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         auto conflicts = f.metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum");
         auto wavefronts = f.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum");
         if (!conflicts || !wavefronts || *wavefronts <= 0) return std::nullopt;
         const double ratio = *conflicts / *wavefronts;
         if (ratio < f.limit("bank_conflicts_per_wavefront")) return std::nullopt;
         auto busy = f.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed");
         if (busy && *busy < f.limit("shared_busy_pct")) return std::nullopt;
         auto b = make_bottleneck("memory_bound", "bank_conflicts", std::min(0.9, 0.4 + ratio / 2),
                                  fmt::format("{:.0f}% of shared-memory wavefronts are bank-conflict replays", 100 * ratio));
         b.evidence.push_back({"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum / l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
                               ratio, f.limit("bank_conflicts_per_wavefront"), "extra wavefronts caused by threads of a warp hitting the same bank"});
         if (busy)
           b.evidence.push_back({"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed", *busy,
                                 f.limit("shared_busy_pct"), "how busy the shared-memory data pipe is, replays included"});
         return b;
       }},
  };
}

}  // namespace kernelagent

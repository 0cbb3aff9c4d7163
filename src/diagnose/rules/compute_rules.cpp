// Compute-bound causes: a math pipe is the limit, or a faster one sits idle.

#include <fmt/format.h>

#include <algorithm>

#include "kernelagent/diagnose/rule.hpp"

namespace kernelagent {

namespace {

// A math pipe active at least busy_pipe_pct (60 %) of the time: the kernel is at (or near) that pipe's limit.
std::optional<Bottleneck> busy_pipe(const KernelFacts& f, const char* cause, std::optional<double> pct, const char* metric, const char* pipe,
                                    const char* reading) {
  const double busy = f.limit("busy_pipe_pct");
  if (!pct || *pct < busy) return std::nullopt;
  auto b = make_bottleneck("compute_bound", cause, 0.4 + 0.6 * *pct / 100,
                           fmt::format("the {} pipe is active {:.0f}% of the time", pipe, *pct));
  b.evidence.push_back({metric, *pct, busy, reading});
  return b;
}

}  // namespace

std::vector<Rule> compute_rules() {
  return {
      // fp32_pipe_saturated. Example: 256 dependent FMAs per element keep the FMA pipe 96 % busy while DRAM
      // is at 4 %: only fewer or cheaper instructions (or tensor cores, for products) make it faster.
      {"compute_bound", "fp32_pipe_saturated",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         auto b = busy_pipe(f, "fp32_pipe_saturated", f.fma_pct,
                            "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "FP32 (FMA)",
                            "share of active cycles the FMA pipe issues: the kernel is limited by fp32 arithmetic");
         if (b && f.dram_fraction)
           b->evidence.push_back(
               {"derived:dram_bytes_per_s_over_peak", *f.dram_fraction, 0, "memory is not what it waits on"});
         return b;
       }},
      // tensor_pipe_saturated. Example: a bf16 8192^3 GEMM with 128x128x64 tiles keeps the tensor pipe 85 %
      // busy: the kernel is at the tensor-core roofline of the clock it ran at.
      {"compute_bound", "tensor_pipe_saturated",
       [](const KernelFacts& f) {
         return busy_pipe(f, "tensor_pipe_saturated", f.tensor_pct,
                          "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", "tensor",
                          "share of active cycles the tensor cores work: the matrix math itself is the limit");
       }},
      // tensor_cores_unused. Example: an fp32 SIMT SGEMM keeps the FMA pipe busy and the tensor pipe at 0 %;
      // TF32 or 3xTF32 tensor-core math could do the same product several times faster. Said only for
      // matrix products: elementwise code has nothing for tensor cores to do. An FP32 product can be held
      // back before its FMA pipe fills, by the shared-memory reads that feed it its operands: KernelBench
      // 63's IEEE implicit GEMM on the H200 had the FMA pipe 18 % busy and the shared-memory pipe 86 %
      // (74 % of it bank-conflict replays), and 3xTF32, whose operands reach the tensor cores another way,
      // ran it 2.6x faster.
      {"compute_bound", "tensor_cores_unused",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         const double idle = f.limit("tensor_idle_pct"), on_fma = f.limit("product_fma_pct"),
                      on_shared = f.limit("product_shared_pct");
         if (!f.problem.matrix_product || !f.tensor_pct || *f.tensor_pct >= idle) return std::nullopt;
         const double fma = f.fma_pct.value_or(0);
         const double shared =
             f.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed").value_or(0);
         if (fma < on_fma && shared < on_shared) return std::nullopt;
         auto b = make_bottleneck("compute_bound", "tensor_cores_unused", 0.5 + 0.4 * std::max(fma, shared) / 100,
                                  "a matrix product runs on the FP32 pipe while the tensor cores idle");
         b.evidence.push_back({"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", *f.tensor_pct, idle,
                               "the tensor cores do almost nothing"});
         if (fma >= on_fma)
           b.evidence.push_back({"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", fma, on_fma,
                                 "the product's multiply-adds go through the FP32 pipe instead"});
         else
           b.evidence.push_back({"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed", shared,
                                 on_shared,
                                 "the FP32 product's operand reads from shared memory are the busy pipe, before "
                                 "its multiply-adds are"});
         return b;
       }},
      // xu_pipe_saturated. Example: a chain of exp2 and reciprocal square roots per element keeps the XU
      // (special-function) pipe busy while the FMA pipe idles: the XU issues a quarter as many instructions
      // a cycle, so fewer transcendentals (an exp2 with log2(e) folded into its argument, one reciprocal
      // reused) is the only way down; no knob of a family changes how many there are.
      {"compute_bound", "xu_pipe_saturated",
       [](const KernelFacts& f) {
         return busy_pipe(f, "xu_pipe_saturated", f.xu_pct, "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active",
                          "special-function (XU)",
                          "transcendentals, reciprocals and conversions the XU pipe issues: the kernel is limited by "
                          "special functions");
       }},
      // alu_pipe_saturated. Example: index arithmetic, comparisons and selects per element (a gather's
      // divisions and modulos by runtime sizes) keep the integer and logic pipe busy before the FMA pipe:
      // fewer of them (sizes as compile-time constants, index math hoisted out of loops) is the way down.
      {"compute_bound", "alu_pipe_saturated",
       [](const KernelFacts& f) {
         return busy_pipe(f, "alu_pipe_saturated", f.alu_pct,
                          "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active", "integer and logic (ALU)",
                          "integer, logic, comparison and select instructions: the kernel is limited by its index "
                          "and control arithmetic");
       }},
  };
}

}  // namespace kernelagent

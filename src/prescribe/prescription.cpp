#include "kernelagent/prescribe/prescription.hpp"

#include <algorithm>
#include <map>

namespace kernelagent {

namespace {

struct Rule {
  std::vector<std::string> tags;
  const char* reason;
};

// One rule per cause. Each comment is a worked example of the move it makes.
const std::map<std::string, Rule>& rules() {
  static const std::map<std::string, Rule> r = {
      // A copy at 89 % of DRAM bandwidth: only fewer bytes (an eviction hint that keeps L2 clean, a
      // grouping that re-reads less) can still help; everything else is at the wall.
      {"dram_bandwidth_saturated", {{"bytes_moved", "l2_locality"}, "DRAM is saturated: move fewer bytes"}},
      // 4 useful bytes per 32-byte sector: a wider vector per thread or a tile whose inner dimension
      // follows the contiguous one makes each sector count.
      {"uncoalesced_access", {{"coalescing", "bytes_moved"}, "scattered accesses: shape the access to the layout"}},
      // Copies to shared memory of 4 bytes a thread: rows not 16-byte aligned; an aligned (padded) copy of
      // the operands (the matmul family's ALIGN) makes them 16.
      {"narrow_async_copies", {{"alignment", "coalescing", "bytes_moved"}, "4-byte copies: align the operands' rows"}},
      // A pool a thread an output loads each input once per window holding it, hits in L1 and waits on each;
      // reading each input row once and reusing it from registers and shared memory (the window's ring) does not.
      {"l1_rereads", {{"bytes_moved", "reuse"}, "the same inputs are loaded again and again: reuse them on chip"}},
      // 16x16 GEMM tiles re-read operands 256 times through L2: BLOCK_M/BLOCK_N 128 reuse each load 8x more.
      {"low_data_reuse", {{"reuse", "l2_locality"}, "operands are re-read: larger tiles reuse them"}},
      // A working set twice the L2 re-read from DRAM: GROUP_M launches the tiles that share B together. Where
      // the data read again is a program's own (the map-reduce coop chunk of 35 in two steps of 4096), holding it
      // on chip reads it once: block_j 8192, 1.13x on the H100.
      {"l2_thrashing",
       {{"l2_locality", "reuse", "bytes_moved"}, "L2 evicts what is read again: schedule for locality, or read it once"}},
      // A 32-way conflicted transpose: a different layout (vector width, tile shape) spreads the banks.
      {"bank_conflicts", {{"coalescing"}, "shared-memory bank conflicts: change the access shape"}},
      // 300 registers wanted, 255 allowed: more warps per program split the tile so each thread holds less.
      {"register_spills", {{"occupancy", "parallelism"}, "registers spill: spread the tile over more threads"}},
      // 168 registers a thread allow 3 programs an SM: fewer warps or smaller tiles raise occupancy.
      {"register_limited_occupancy", {{"occupancy", "parallelism"}, "registers cap occupancy"}},
      // 4 stages of 128x128 fp32 tiles fill shared memory: one stage fewer lets a second program in.
      {"shared_memory_limited_occupancy", {{"occupancy", "pipelining"}, "shared memory caps occupancy"}},
      // An fp32 GEMM at 66 % of the FMA pipe: 3xTF32 moves the products to the tensor cores (accuracy
      // kept); under --precision tf32 plain TF32 is allowed too.
      {"fp32_pipe_saturated", {{"tensor_cores", "reuse"}, "the FP32 pipe is the limit: use tensor cores"}},
      {"tensor_cores_unused", {{"tensor_cores", "reuse"}, "a matrix product on CUDA cores: use tensor cores"}},
      // Tensor pipe at 85 %: only more reuse per load (bigger tiles) or deeper pipelining is left.
      {"tensor_pipe_saturated", {{"reuse", "pipelining"}, "tensor cores are busy: feed them better"}},
      // 50 warps stalled per issue on global loads: more stages or more resident warps hide the latency.
      {"long_scoreboard_stalls", {{"pipelining", "occupancy", "parallelism"}, "warps wait on memory: more in flight"}},
      // 16 programs on 132 SMs: split the work (split-K, smaller tiles, split rows) into more programs.
      {"small_grid", {{"parallelism", "tail"}, "too few programs: split the work"}},
      // 1.1 waves: smaller programs (or a persistent grid) fill the last wave.
      {"tail_effect", {{"tail", "parallelism"}, "a partial last wave: resize the programs"}},
      // Every thread adds into one counter: a reduction tree in registers first, one atomic per program.
      {"atomic_contention", {{"reduction_tree"}, "atomics serialise: reduce before the atomic"}},
      // A 2 us kernel: more work per program and fewer launches.
      {"launch_overhead", {{"launch_overhead", "parallelism"}, "launch-bound: fewer, bigger launches"}},
      // exp and rsqrt per element on the XU pipe, or a gather's index arithmetic on the ALU: fewer such
      // instructions, a change of the kernel's code that no knob of a family makes.
      {"xu_pipe_saturated", {{}, "special functions are the limit: fewer transcendentals, no knob move answers this"}},
      {"alu_pipe_saturated", {{}, "index and logic arithmetic is the limit: fewer such instructions, no knob move"}},
      // Lanes of one warp take different paths: a data layout question, no knob of a family answers it.
      {"warp_divergence", {{}, "divergent branches: no knob move answers this"}},
  };
  return r;
}

std::vector<std::string> without_tensor_cores(std::vector<std::string> tags, bool allowed) {
  if (!allowed) tags.erase(std::remove(tags.begin(), tags.end(), "tensor_cores"), tags.end());
  return tags;
}

}  // namespace

Prescription prescribe_for_cause(const std::string& cause, bool tensor_cores_allowed) {
  auto it = rules().find(cause);
  if (it == rules().end()) return {cause, {}, "no rule for this cause"};
  return {cause, without_tensor_cores(it->second.tags, tensor_cores_allowed), it->second.reason};
}

Prescription prescribe_for_bound(const std::string& bound, bool tensor_cores_allowed) {
  // Compute-bound: warps (occupancy) before stages (pipelining), because the warps split the tile's
  // accumulator and so decide the registers each thread holds, while a stage more only hides latency that
  // a resident program already covers. Example: a 32768 x 64 x 32768 fp32 product went from 4.11 ms to
  // 3.84 ms with 4 warps instead of 8, while a fourth stage changed 4.11 to 4.29. Parallelism comes last:
  // a compute-bound product with few output tiles leaves SMs idle until its K is split. Example: 256 x
  // 524288 x 256 is 16 tiles of 64x64 on 132 SMs (3xTF32, 4 warps, 4 stages: 12.48 ms); SPLIT_K 64 makes
  // 1024 programs (1.25 ms).
  if (bound == "compute")
    return {"bound:compute",
            without_tensor_cores({"tensor_cores", "reuse", "occupancy", "pipelining", "l2_locality", "parallelism"},
                                 tensor_cores_allowed),
            "compute-bound problem: tensor cores, reuse, then warps and pipelining, then parallelism"};
  return {"bound:memory",
          {"bytes_moved", "coalescing", "parallelism", "reduction_tree", "occupancy", "tail"},
          "memory-bound problem: fewer and better-shaped bytes, enough of them in flight"};
}

std::vector<std::string> prescribed_causes() {
  std::vector<std::string> v;
  for (const auto& [k, r] : rules()) v.push_back(k);
  return v;
}

}  // namespace kernelagent

#pragma once
// What a GPU can do at most: the built-in table of DESIGN.md section 6, and the description of the GPU
// the worker runs on. Peaks are dense (no sparsity), in FLOP/s; bandwidth in bytes/s.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace kernelagent {

struct GpuSpec {
  std::string name;           // the table's name, e.g. "H200 SXM"
  std::string device_name;    // what the device reports, e.g. "NVIDIA H200"
  int sm_count = 0;
  int cc_major = 0, cc_minor = 0;
  double sm_clock_ghz = 0;    // boost clock
  double dram_bytes_per_s = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t smem_per_block_optin = 0;
  std::int64_t smem_per_sm = 0;
  int regs_per_sm = 65536;
  double peak_fp32 = 0, peak_tf32 = 0, peak_bf16 = 0, peak_fp16 = 0, peak_fp8 = 0;
  bool has_wgmma = false, has_tma = false;
  bool from_table = false;    // false: described from the device's attributes alone

  // The dense peak for a dtype on the unit that would run it ("float32" uses the FP32 pipe unless
  // `tensor_cores` is set, in which case TF32). Zero when unknown.
  double peak_flops(std::string_view dtype, bool tensor_cores) const;
  nlohmann::json to_json() const;
};

const std::vector<GpuSpec>& gpu_table();

// The table entry whose device name matches, e.g. "NVIDIA H100 80GB HBM3" -> "H100 SXM".
std::optional<GpuSpec> find_gpu_spec(std::string_view device_name);

// The GPU described by a worker's hello (`gpu` object): the table entry with the device's own
// structural attributes (SMs, L2, shared memory) taking precedence, or, for a GPU the table does not
// know, the attributes alone with no peaks; `warning` is then set.
GpuSpec describe_gpu(const nlohmann::json& hello_gpu, std::string* warning);

}  // namespace kernelagent

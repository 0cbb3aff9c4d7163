#include "kernelagent/gpu/gpu_spec.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace kernelagent {

namespace {

constexpr double T = 1e12;
constexpr double TB = 1e12;
constexpr std::int64_t MiB = 1024 * 1024;

struct Entry {
  // Lower-case substrings that must all appear in the device name; the first entry that matches wins,
  // so more specific entries (H100 PCIe, H100 NVL) stand before the general one.
  std::vector<std::string> patterns;
  GpuSpec spec;
};

GpuSpec make(std::string name, int sms, int cc_major, int cc_minor, double clock, double bw, std::int64_t l2,
             std::int64_t smem_block, std::int64_t smem_sm, double fp32, double tf32, double bf16, double fp8,
             bool wgmma, bool tma) {
  GpuSpec s;
  s.name = std::move(name);
  s.sm_count = sms;
  s.cc_major = cc_major;
  s.cc_minor = cc_minor;
  s.sm_clock_ghz = clock;
  s.dram_bytes_per_s = bw;
  s.l2_bytes = l2;
  s.smem_per_block_optin = smem_block;
  s.smem_per_sm = smem_sm;
  s.peak_fp32 = fp32;
  s.peak_tf32 = tf32;
  s.peak_bf16 = bf16;
  s.peak_fp16 = bf16;
  s.peak_fp8 = fp8;
  s.has_wgmma = wgmma;
  s.has_tma = tma;
  s.from_table = true;
  return s;
}

// Vendor data-sheet figures, dense (the sparsity figures halved). Shared memory in bytes as the CUDA
// attributes report it (opt-in per block; per SM).
const std::vector<Entry>& entries() {
  static const std::vector<Entry> table = {
      {{"h200"}, make("H200 SXM", 132, 9, 0, 1.98, 4.8 * TB, 50 * MiB, 232448, 233472, 67 * T, 494.7 * T, 989.4 * T,
                      1978.9 * T, true, true)},
      {{"h100", "pcie"}, make("H100 PCIe", 114, 9, 0, 1.755, 2.0 * TB, 50 * MiB, 232448, 233472, 51.2 * T, 378 * T,
                              756 * T, 1513 * T, true, true)},
      {{"h100", "nvl"}, make("H100 NVL", 132, 9, 0, 1.785, 3.9 * TB, 50 * MiB, 232448, 233472, 60 * T, 417.5 * T,
                             835 * T, 1670 * T, true, true)},
      {{"h100"}, make("H100 SXM", 132, 9, 0, 1.98, 3.35 * TB, 50 * MiB, 232448, 233472, 67 * T, 494.7 * T, 989.4 * T,
                      1978.9 * T, true, true)},
      {{"a100", "80gb", "pcie"}, make("A100 80GB PCIe", 108, 8, 0, 1.41, 1.935 * TB, 40 * MiB, 166912, 167936,
                                      19.5 * T, 156 * T, 312 * T, 0, false, false)},
      {{"a100", "80gb"}, make("A100 80GB SXM", 108, 8, 0, 1.41, 2.039 * TB, 40 * MiB, 166912, 167936, 19.5 * T,
                              156 * T, 312 * T, 0, false, false)},
      {{"a100"}, make("A100 40GB", 108, 8, 0, 1.41, 1.555 * TB, 40 * MiB, 166912, 167936, 19.5 * T, 156 * T, 312 * T,
                      0, false, false)},
      {{"l40s"}, make("L40S", 142, 8, 9, 2.52, 0.864 * TB, 96 * MiB, 101376, 102400, 91.6 * T, 183 * T, 362 * T,
                      733 * T, false, false)},
      {{"l4"}, make("L4", 58, 8, 9, 2.04, 0.3 * TB, 48 * MiB, 101376, 102400, 30.3 * T, 60 * T, 121 * T, 242.5 * T,
                    false, false)},
      {{"4090"}, make("RTX 4090", 128, 8, 9, 2.52, 1.008 * TB, 72 * MiB, 101376, 102400, 82.6 * T, 82.6 * T,
                      165.2 * T, 330.3 * T, false, false)},
      {{"b200"}, make("B200", 148, 10, 0, 1.965, 8.0 * TB, 126 * MiB, 232448, 233472, 80 * T, 1100 * T, 2250 * T,
                      4500 * T, false, true)},
  };
  return table;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

}  // namespace

double GpuSpec::peak_flops(std::string_view dtype, bool tensor_cores) const {
  if (dtype == "float32") return tensor_cores ? peak_tf32 : peak_fp32;
  if (dtype == "bfloat16") return peak_bf16;
  if (dtype == "float16") return peak_fp16;
  if (dtype.starts_with("float8")) return peak_fp8;
  return 0;
}

nlohmann::json GpuSpec::to_json() const {
  return {{"name", name},
          {"device_name", device_name},
          {"sm_count", sm_count},
          {"compute_capability", fmt::format("{}.{}", cc_major, cc_minor)},
          {"dram_bytes_per_s", dram_bytes_per_s},
          {"l2_bytes", l2_bytes},
          {"peak_fp32", peak_fp32},
          {"peak_tf32", peak_tf32},
          {"peak_bf16", peak_bf16},
          {"peak_fp8", peak_fp8},
          {"from_table", from_table}};
}

const std::vector<GpuSpec>& gpu_table() {
  static const std::vector<GpuSpec> specs = [] {
    std::vector<GpuSpec> v;
    for (const auto& e : entries()) v.push_back(e.spec);
    return v;
  }();
  return specs;
}

std::optional<GpuSpec> find_gpu_spec(std::string_view device_name) {
  const std::string name = lower(device_name);
  for (const auto& e : entries()) {
    bool all = std::all_of(e.patterns.begin(), e.patterns.end(),
                           [&](const std::string& p) { return name.find(p) != std::string::npos; });
    if (all) {
      GpuSpec s = e.spec;
      s.device_name = std::string(device_name);
      return s;
    }
  }
  return std::nullopt;
}

GpuSpec describe_gpu(const nlohmann::json& g, std::string* warning) {
  const std::string device_name = g.value("name", std::string("unknown GPU"));
  GpuSpec s;
  if (auto known = find_gpu_spec(device_name)) {
    s = *known;
  } else {
    s.name = device_name;
    s.device_name = device_name;
    if (warning)
      *warning = fmt::format(
          "GPU '{}' is not in the built-in table: described from its attributes alone, so its peak bandwidth "
          "and FLOP/s are unknown and no roofline fraction is reported",
          device_name);
  }
  // The device's own structural attributes are facts; the table's are typical values.
  if (auto v = g.value("sm_count", 0); v > 0) s.sm_count = v;
  if (auto v = g.value("cc_major", 0); v > 0) s.cc_major = v, s.cc_minor = g.value("cc_minor", 0);
  if (auto v = g.value("l2_bytes", std::int64_t{0}); v > 0) s.l2_bytes = v;
  if (auto v = g.value("max_shared_per_block_optin", std::int64_t{0}); v > 0) s.smem_per_block_optin = v;
  if (auto v = g.value("regs_per_sm", 0); v > 0) s.regs_per_sm = v;
  if (!s.from_table) s.has_tma = s.has_wgmma = (s.cc_major == 9);
  return s;
}

}  // namespace kernelagent

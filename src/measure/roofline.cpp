#include "kernelagent/measure/roofline.hpp"

#include <algorithm>

namespace kernelagent {

Roofline roofline_for(std::int64_t bytes, double flops, const std::string& dtype, bool tensor_cores,
                      const GpuSpec& gpu, int passes) {
  Roofline r;
  r.bytes = bytes;
  r.flops = flops;
  if (gpu.dram_bytes_per_s > 0) r.memory_floor_us = static_cast<double>(bytes) / gpu.dram_bytes_per_s * 1e6;
  const double peak = gpu.peak_flops(dtype, tensor_cores);
  if (peak > 0 && flops > 0) r.compute_floor_us = flops * passes / peak * 1e6;
  r.floor_us = std::max(r.memory_floor_us, r.compute_floor_us);
  r.bound = r.compute_floor_us > r.memory_floor_us ? "compute" : "memory";
  return r;
}

std::optional<double> Roofline::fraction(double measured_us) const {
  if (floor_us <= 0 || measured_us <= 0) return std::nullopt;
  return floor_us / measured_us;
}

double Roofline::bandwidth_bytes_per_s(double measured_us) const {
  return measured_us > 0 ? static_cast<double>(bytes) / (measured_us * 1e-6) : 0;
}

}  // namespace kernelagent

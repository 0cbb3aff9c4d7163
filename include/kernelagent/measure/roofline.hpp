#pragma once
// The physical floor of a problem on a GPU: its compulsory bytes (inputs read once, outputs written
// once) over the DRAM bandwidth, or its FLOPs over the peak of the unit that would run them, whichever
// is larger. "Fraction of roofline" is that floor over a measured time.

#include <cstdint>
#include <optional>
#include <string>

#include "kernelagent/gpu/gpu_spec.hpp"

namespace kernelagent {

struct Roofline {
  std::int64_t bytes = 0;
  double flops = 0;
  double memory_floor_us = 0;
  double compute_floor_us = 0;
  double floor_us = 0;      // max of the two; 0 when the GPU's peaks are unknown
  std::string bound;        // "memory" or "compute"

  // floor / measured, in (0, 1] for an honest measurement; nullopt without a floor.
  std::optional<double> fraction(double measured_us) const;
  // Useful bytes per second at a measured time.
  double bandwidth_bytes_per_s(double measured_us) const;
};

// `passes`: how many products of that size the unit runs for one product of the problem (3 for 3xTF32,
// which computes an fp32-accurate product from three TF32 ones).
Roofline roofline_for(std::int64_t bytes, double flops, const std::string& dtype, bool tensor_cores,
                      const GpuSpec& gpu, int passes = 1);

}  // namespace kernelagent

#pragma once
// How close a candidate must be to the reference (DESIGN.md section 4), decided here, sent to the worker.

#include <string_view>

#include "kernelagent/core/precision.hpp"

namespace kernelagent {

struct Tolerance {
  double atol = 1e-4;
  double rtol = 1e-4;
};

// fp32: 1e-4 under `strict`; 1e-2 where TF32 tensor cores are allowed (`tf32`), since TF32 keeps 10
// mantissa bits. fp16/bf16: 1e-2. fp64: 1e-7.
Tolerance tolerance_for(std::string_view dtype, Precision precision);

}  // namespace kernelagent

#pragma once
// The roofline floor of the unit a configuration runs its products on (the family's manifest says which
// knob values use the tensor cores): 3xTF32 is three TF32 products on the tensor cores, so its floor is
// three times a TF32 product's, not an fp32 product's on the CUDA cores.
// The search's target and the result's roofline both read it.

#include <string>

#include "kernelagent/core/op_graph.hpp"
#include "kernelagent/core/precision.hpp"
#include "kernelagent/families/family.hpp"
#include "kernelagent/gpu/gpu_spec.hpp"
#include "kernelagent/measure/roofline.hpp"

namespace kernelagent {

struct UnitFloor {
  Roofline roofline;
  std::string unit;  // "CUDA cores", "TF32 tensor cores", "3xTF32 tensor cores"
};

UnitFloor floor_of(const TraceResult& trace, const std::string& dtype, Precision precision, const Family& family,
                   const Config& config, const GpuSpec& gpu);

}  // namespace kernelagent

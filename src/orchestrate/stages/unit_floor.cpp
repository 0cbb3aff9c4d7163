#include "kernelagent/orchestrate/stages/unit_floor.hpp"

namespace kernelagent {

UnitFloor floor_of(const TraceResult& trace, const std::string& dtype, Precision precision, const Family& family,
                   const Config& config, const GpuSpec& gpu) {
  const ComputeUnit u = family.compute_unit(config, precision);
  return {roofline_for(trace.compulsory_bytes(), trace.flops, dtype, u.tensor_cores, gpu, u.passes), u.label};
}

}  // namespace kernelagent

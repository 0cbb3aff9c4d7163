#include "kernelagent/orchestrate/stages/unit_floor.hpp"

namespace kernelagent {

UnitFloor floor_of(const TraceResult& trace, const std::string& dtype, Precision precision, const Config& config,
                   const GpuSpec& gpu) {
  const std::string ip = config.is_object() ? config.value("input_precision", "") : "";
  const bool tensor = precision == Precision::tf32 || ip == "tf32" || ip == "tf32x3";
  return {roofline_for(trace.compulsory_bytes(), trace.flops, dtype, tensor, gpu, ip == "tf32x3" ? 3 : 1),
          ip == "tf32x3" ? "3xTF32 tensor cores" : (tensor ? "TF32 tensor cores" : "CUDA cores")};
}

}  // namespace kernelagent

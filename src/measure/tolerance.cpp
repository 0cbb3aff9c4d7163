#include "kernelagent/measure/tolerance.hpp"

#include "kernelagent/core/error.hpp"

namespace kernelagent {

Tolerance tolerance_for(std::string_view dtype, Precision precision) {
  if (dtype == "float16" || dtype == "bfloat16") return {1e-2, 1e-2};
  if (dtype == "float64") return {1e-7, 1e-7};
  if (precision == Precision::tf32) return {1e-2, 1e-2};
  return {1e-4, 1e-4};
}

}  // namespace kernelagent

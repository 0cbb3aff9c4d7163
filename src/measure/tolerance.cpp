#include "kernelagent/measure/tolerance.hpp"

#include "kernelagent/core/error.hpp"

namespace kernelagent {

Precision parse_precision(std::string_view s) {
  if (s == "strict") return Precision::strict;
  if (s == "tf32") return Precision::tf32;
  throw UserError(ExitCode::bad_input, "--precision must be 'strict' or 'tf32', not '" + std::string(s) + "'");
}

std::string to_string(Precision p) { return p == Precision::strict ? "strict" : "tf32"; }

Tolerance tolerance_for(std::string_view dtype, Precision precision) {
  if (dtype == "float16" || dtype == "bfloat16") return {1e-2, 1e-2};
  if (dtype == "float64") return {1e-7, 1e-7};
  if (precision == Precision::tf32) return {1e-2, 1e-2};
  return {1e-4, 1e-4};
}

}  // namespace kernelagent

#include "kernelagent/core/precision.hpp"

#include "kernelagent/core/error.hpp"

namespace kernelagent {

Precision parse_precision(std::string_view s) {
  if (s == "strict") return Precision::strict;
  if (s == "tf32") return Precision::tf32;
  throw UserError(ExitCode::bad_input, "--precision must be 'strict' or 'tf32', not '" + std::string(s) + "'");
}

std::string to_string(Precision p) { return p == Precision::strict ? "strict" : "tf32"; }

}  // namespace kernelagent

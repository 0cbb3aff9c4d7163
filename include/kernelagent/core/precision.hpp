#pragma once
// The precision policy (`--precision`): whether fp32 problems may use TF32 tensor cores. Under `strict`,
// fp32 stays fp32-accurate (IEEE fp32 math, or 3xTF32 when it passes the fp32 tolerance); under `tf32`,
// plain TF32 is allowed and checked against its own, looser tolerance.

#include <string>
#include <string_view>

namespace kernelagent {

enum class Precision { strict, tf32 };

Precision parse_precision(std::string_view s);  // throws UserError for anything else
std::string to_string(Precision p);

}  // namespace kernelagent

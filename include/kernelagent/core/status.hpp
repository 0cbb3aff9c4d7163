#pragma once
// Named outcomes. A candidate that fails is data: it gets one of these and the run goes on.

#include <string>
#include <string_view>

namespace kernelagent {

// Statuses a worker reply or an engine-side failure can carry. The worker speaks them as strings
// (docs/protocol.md); the engine keeps the string so that a status it does not know yet is not lost.
namespace status {
inline constexpr std::string_view ok = "ok";
inline constexpr std::string_view compile_error = "compile_error";
inline constexpr std::string_view runtime_error = "runtime_error";
inline constexpr std::string_view wrong_result = "wrong_result";
inline constexpr std::string_view wrong_state = "wrong_state";  // a buffer the forward updates differs
inline constexpr std::string_view wrong_shape = "wrong_shape";
inline constexpr std::string_view wrong_dtype = "wrong_dtype";
inline constexpr std::string_view nan_or_inf = "nan_or_inf";
inline constexpr std::string_view cheat_torch_compute = "cheat_torch_compute";
inline constexpr std::string_view cheat_returns_input = "cheat_returns_input";
inline constexpr std::string_view cheat_other_stream = "cheat_other_stream";
inline constexpr std::string_view timeout = "timeout";
inline constexpr std::string_view crashed = "crashed";
inline constexpr std::string_view cuda_error = "cuda_error";
inline constexpr std::string_view protocol_error = "protocol_error";
inline constexpr std::string_view no_gpu = "no_gpu";
inline constexpr std::string_view out_of_memory = "out_of_memory";
inline constexpr std::string_view bad_problem = "bad_problem";
inline constexpr std::string_view trace_failed = "trace_failed";
inline constexpr std::string_view unsupported = "unsupported";
}  // namespace status

// True for statuses that mean the worker process is gone (or must be) and has to be restarted.
bool status_kills_worker(std::string_view s);

// True for the statuses that reject a candidate for cheating rather than for being wrong.
bool status_is_cheat(std::string_view s);

}  // namespace kernelagent

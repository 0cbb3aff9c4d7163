#pragma once
// Named outcomes. A candidate that fails is data: it gets one of these and the run goes on.

#include <string>
#include <string_view>
#include <vector>

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
inline constexpr std::string_view wrong_device = "wrong_device";  // right values on another device
inline constexpr std::string_view nan_or_inf = "nan_or_inf";
// Ways to fake a result (docs/check.md has each with an example and the cheat suite that proves it caught).
inline constexpr std::string_view cheat_torch_compute = "cheat_torch_compute";      // PyTorch computes, not a kernel
inline constexpr std::string_view cheat_returns_input = "cheat_returns_input";      // an input or a view of one
inline constexpr std::string_view cheat_other_stream = "cheat_other_stream";        // created or switched streams
inline constexpr std::string_view cheat_tensor_subclass = "cheat_tensor_subclass";  // its methods could answer
                                                                                    // the comparison
inline constexpr std::string_view cheat_work_in_flight = "cheat_work_in_flight";    // right only after a device sync
inline constexpr std::string_view cheat_cached_output = "cheat_cached_output";      // an earlier call's values
inline constexpr std::string_view cheat_writes_input = "cheat_writes_input";        // wrote into its inputs
inline constexpr std::string_view cheat_reads_reference = "cheat_reads_reference";  // filled in while the
                                                                                    // reference ran
inline constexpr std::string_view cheat_tampering = "cheat_tampering";  // changed a function, flag, seed, thread
                                                                        // or the reference the check relies on
inline constexpr std::string_view cheat_gpu_state = "cheat_gpu_state";  // left L2 persistence set
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

// Every cheat status above, in the order the check tries them (docs/check.md).
const std::vector<std::string_view>& cheat_statuses();

}  // namespace kernelagent

#include "kernelagent/core/status.hpp"

namespace kernelagent {

bool status_kills_worker(std::string_view s) {
  return s == status::timeout || s == status::crashed || s == status::protocol_error;
}

bool status_is_cheat(std::string_view s) { return s.starts_with("cheat_"); }

const std::vector<std::string_view>& cheat_statuses() {
  static const std::vector<std::string_view> all = {status::cheat_tampering,       status::cheat_gpu_state,
                                                    status::cheat_torch_compute,   status::cheat_other_stream,
                                                    status::cheat_tensor_subclass, status::cheat_returns_input,
                                                    status::cheat_reads_reference, status::cheat_writes_input,
                                                    status::cheat_cached_output,   status::cheat_work_in_flight};
  return all;
}

}  // namespace kernelagent

#include "kernelagent/core/status.hpp"

namespace kernelagent {

bool status_kills_worker(std::string_view s) {
  return s == status::timeout || s == status::crashed || s == status::protocol_error;
}

bool status_is_cheat(std::string_view s) { return s.starts_with("cheat_"); }

}  // namespace kernelagent

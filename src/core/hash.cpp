#include "kernelagent/core/hash.hpp"

#include <cstdint>

#include <fmt/format.h>

namespace kernelagent {

std::string hash_hex(std::string_view data) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

}  // namespace kernelagent

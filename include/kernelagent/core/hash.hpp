#pragma once
// A stable 64-bit FNV-1a hash as 16 hex digits: keys for family sources, problem files and configs.

#include <string>
#include <string_view>

namespace kernelagent {

std::string hash_hex(std::string_view data);

}  // namespace kernelagent

#pragma once
// Test data lives in tests/data; its location is compiled in, so tests do not depend on the working directory.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

namespace kernelagent::test {

inline std::filesystem::path data_dir() { return KA_TEST_DATA; }
inline std::filesystem::path source_dir() { return KA_SOURCE_DIR; }

inline nlohmann::json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

// A fresh empty folder under the system temp dir, unique to this test process and name.
inline std::filesystem::path temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("kernelagent-test-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace kernelagent::test

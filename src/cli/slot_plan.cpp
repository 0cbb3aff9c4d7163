#include "kernelagent/cli/slot_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "kernelagent/core/error.hpp"

namespace kernelagent::cli {

std::optional<int> compile_worker_gpu(int n, const std::vector<int>& slot_gpus) {
  if (slot_gpus.empty() || n < 1) return std::nullopt;
  return slot_gpus[static_cast<std::size_t>(n - 1) % slot_gpus.size()];
}

std::optional<std::vector<int>> parse_gpus(const std::string& flag) {
  if (flag == "all" || flag.empty()) return std::nullopt;
  std::vector<int> out;
  std::stringstream in(flag);
  for (std::string entry; std::getline(in, entry, ',');) {
    const bool digits = !entry.empty() && entry.size() < 6 &&
                        std::all_of(entry.begin(), entry.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits)
      throw UserError(ExitCode::bad_input,
                      fmt::format("--gpus takes 'all' or GPU indices such as 0,1,2,3, not '{}'", flag));
    const int index = std::stoi(entry);
    if (std::find(out.begin(), out.end(), index) != out.end())
      throw UserError(ExitCode::bad_input, fmt::format("--gpus names GPU {} twice in '{}'", index, flag));
    out.push_back(index);
  }
  if (out.empty() || flag.back() == ',')
    throw UserError(ExitCode::bad_input, fmt::format("--gpus takes 'all' or GPU indices such as 0,1, not '{}'", flag));
  return out;
}

}  // namespace kernelagent::cli

#pragma once
// Which worker slots a command runs on (--gpus, --ray): one slot per GPU. Locally each slot's worker is
// pinned to its GPU with CUDA_VISIBLE_DEVICES; on a Ray cluster each slot is a proxy whose actor holds one
// of the cluster's GPUs.
// Example: --gpus 0,2 with CUDA_VISIBLE_DEVICES=4,5,6 pins the two workers to devices 4 and 6.

#include <optional>
#include <string>
#include <vector>

namespace kernelagent::cli {

// --gpus: "all" (nullopt: every GPU the first worker reports) or indices of visible GPUs, "0,1,3".
// Throws UserError(bad_input) for anything else, a repeated index included.
std::optional<std::vector<int>> parse_gpus(const std::string& flag);

}  // namespace kernelagent::cli

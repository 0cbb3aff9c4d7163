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

// The GPU index the n-th compile worker (from 1) is pinned to: the slots' GPUs taken in turn, since each
// compile worker loads the problem and, unpinned, all of them would load it on the first GPU.
// Example: slots on GPUs {0, 2}: compile workers 1, 2, 3 go to 0, 2, 0. No GPUs: nullopt (unpinned).
std::optional<int> compile_worker_gpu(int n, const std::vector<int>& slot_gpus);

}  // namespace kernelagent::cli

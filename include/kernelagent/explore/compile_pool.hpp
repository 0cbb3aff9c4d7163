#pragma once
// Explore's compile pool: Triton compiles a candidate's kernels on its first call, which costs seconds and
// needs no exclusive GPU, while timing needs the GPU to itself. Before a search whose candidates are known
// up front (a sweep, an exhaustive run), the pool compiles them in several worker processes at once;
// Triton's on-disk cache then holds every kernel, and the one timing worker's own compile of the same
// file is a cache hit. Nothing is timed in the pool, so the measurements are unaffected.
// Example: 64 matmul candidates at about 2 s each compile in about 20 s with 6 workers instead of 128 s.

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernelagent/explore/worker_executor.hpp"
#include "kernelagent/measure/worker_client.hpp"

namespace kernelagent {

struct PoolCandidate {
  std::string name;
  std::filesystem::path source;
};

struct PoolOutcome {
  std::map<std::string, Reply> replies;  // the compile reply of every candidate, by name
  int workers = 0;                       // worker processes that loaded the problem and compiled
  double elapsed_s = 0;
};

// Compiles `candidates` against `problem` with up to `size` workers made by `make_worker` (started and
// shut down here). A worker that cannot start or load the problem drops out; its share goes to the others.
// `on_done` sees each candidate's reply as it arrives (progress), from the pool's threads, serialised.
PoolOutcome precompile(const std::function<std::unique_ptr<WorkerClient>()>& make_worker, int size,
                       const std::filesystem::path& problem, const std::vector<PoolCandidate>& candidates,
                       const std::function<void(const std::string&, const Reply&)>& on_done = {});

// How many compile workers a GPU's memory holds beside the timing worker: each loads the problem, so it
// holds the inputs, the reference's outputs and a candidate's, about four times the compulsory bytes, plus
// a CUDA context; at least 1, at most `wanted`, and `wanted` when the GPU's memory is unknown (0).
// Example: a softmax of 4096 x 393216 fp32 moves 12.9 GB: an H200 (141 GB) holds one more worker; a ReLU
// of 64 MB holds all eight asked for.
int pool_size_for_memory(int wanted, double compulsory_bytes, double gpu_memory_bytes);

struct AheadOutcome {
  PoolOutcome pool;
  int failed = 0;  // compile replies that were not ok (the timing worker meets the failure again itself)
};

// Explore's step before an exhaustive search: each configuration is emitted by `executor` as ahead-N.py
// (the same source the search's candidate will have, so the same Triton cache entry) and compiled by a
// pool of `workers`. `on_done` sees each reply (progress).
AheadOutcome compile_ahead(const std::vector<Config>& configs, WorkerExecutor& executor,
                           const std::function<std::unique_ptr<WorkerClient>()>& make_worker, int workers,
                           const std::filesystem::path& problem, const std::function<void(const Reply&)>& on_done = {});

}  // namespace kernelagent

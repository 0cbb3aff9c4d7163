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

}  // namespace kernelagent

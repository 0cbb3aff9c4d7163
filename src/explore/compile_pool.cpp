#include "kernelagent/explore/compile_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace kernelagent {

PoolOutcome precompile(const std::function<std::unique_ptr<WorkerClient>()>& make_worker, int size,
                       const std::filesystem::path& problem, const std::vector<PoolCandidate>& candidates,
                       const std::function<void(const std::string&, const Reply&)>& on_done) {
  const auto t0 = std::chrono::steady_clock::now();
  PoolOutcome out;
  const int n = std::clamp(size, 0, static_cast<int>(candidates.size()));
  std::atomic<std::size_t> next{0};
  std::atomic<int> ready{0};
  std::mutex mu;
  auto work = [&]() {
    std::unique_ptr<WorkerClient> w;
    try {
      w = make_worker();
      w->start();
    } catch (const std::exception&) {
      return;  // this worker drops out; the others take its share
    }
    if (!w->load(problem.string(), 0).ok()) {
      w->shutdown();
      return;
    }
    ++ready;
    for (std::size_t i = next++; i < candidates.size(); i = next++) {
      Reply r = w->compile(candidates[i].name, candidates[i].source.string());
      std::lock_guard lock(mu);
      out.replies[candidates[i].name] = r;
      if (on_done) on_done(candidates[i].name, r);
    }
    w->shutdown();
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  out.workers = ready.load();
  out.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

int pool_size_for_memory(int wanted, double compulsory_bytes, double gpu_memory_bytes) {
  if (gpu_memory_bytes <= 0) return wanted;
  const double each = 4 * compulsory_bytes + static_cast<double>(1ull << 30);
  return std::clamp(static_cast<int>(0.8 * gpu_memory_bytes / each) - 1, 1, std::max(1, wanted));
}

AheadOutcome compile_ahead(const std::vector<Config>& configs, WorkerExecutor& executor,
                           const std::function<std::unique_ptr<WorkerClient>()>& make_worker, int workers,
                           const std::filesystem::path& problem, const std::function<void(const Reply&)>& on_done) {
  std::vector<PoolCandidate> todo;
  for (const auto& c : configs) {
    const std::string name = "ahead-" + std::to_string(todo.size());
    todo.push_back({name, executor.emit(name, c)});
  }
  AheadOutcome out;
  out.pool = precompile(make_worker, workers, problem, todo, [&](const std::string&, const Reply& r) {
    out.failed += !r.ok();
    if (on_done) on_done(r);
  });
  return out;
}

}  // namespace kernelagent

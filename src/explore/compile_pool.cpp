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

}  // namespace kernelagent

#include "kernelagent/explore/worker_pool.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <thread>

#include "kernelagent/core/error.hpp"

namespace kernelagent {

using nlohmann::json;

std::string visible_device(int index) {
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"); visible && *visible) {
    std::stringstream in(visible);
    std::string entry;
    for (int i = 0; std::getline(in, entry, ','); ++i)
      if (i == index) return entry;
  }
  return std::to_string(index);
}

std::string local_gpu_label(int index) { return "gpu" + visible_device(index); }

std::string label_from_hello(const json& hello, const std::string& fallback) {
  if (!hello.is_object() || !hello.contains("ray") || !hello.at("ray").is_object()) return fallback;
  const json& ray = hello.at("ray");
  const json ids = ray.value("gpu_ids", json::array());
  const std::string where = ids.is_array() && !ids.empty() && ids.front().is_string()
                                ? "gpu" + ids.front().get<std::string>()
                                : "cpu" + std::to_string(ray.value("slot", 0));
  return fmt::format("ray:{}/{}", ray.value("node", std::string("?")), where);
}

namespace {
std::string own_label(const WorkerClient& w) { return w.on_gpu() ? local_gpu_label(0) : std::string("cpu0"); }
}  // namespace

WorkerPool::WorkerPool(WorkerClient& only) {
  WorkerSlot s;
  s.label = label_from_hello(only.hello(), own_label(only));
  s.worker = &only;
  slots_.push_back(std::move(s));
}

WorkerPool::WorkerPool(WorkerClient& home, const std::string& home_label, std::vector<SlotSpec> others,
                       WorkerTimeouts timeouts)
    : timeouts_(timeouts) {
  WorkerSlot h;
  h.label = label_from_hello(home.hello(), home_label);
  h.worker = &home;
  slots_.push_back(std::move(h));
  for (auto& spec : others) {
    WorkerSlot s;
    s.label = spec.label;
    s.owned = std::make_unique<WorkerClient>(std::move(spec.command), timeouts_);
    s.worker = s.owned.get();
    slots_.push_back(std::move(s));
  }
}

WorkerPool::~WorkerPool() {
  for (auto& s : slots_)
    if (s.owned) s.owned->shutdown();
}

bool WorkerPool::same_device(const WorkerClient& w) const {
  return w.hello().value("device", std::string()) == slots_.front().worker->hello().value("device", std::string());
}

void WorkerPool::start_others() {
  std::vector<std::thread> threads;
  for (int i = 1; i < size(); ++i)
    threads.emplace_back([this, i]() {
      WorkerSlot& s = slots_[i];
      std::string why;
      for (int attempt = 0; attempt < kFailuresToRetire; ++attempt) {
        try {
          s.worker->start();
          if (same_device(*s.worker)) {
            std::lock_guard lock(mu_);
            s.label = label_from_hello(s.worker->hello(), s.label);
            s.failures_in_a_row = 0;
            return;
          }
          why = fmt::format("its worker came up on '{}', not on '{}' like {}",
                            s.worker->hello().value("device", std::string()),
                            slots_.front().worker->hello().value("device", std::string()), slots_.front().label);
          s.worker->shutdown();
        } catch (const std::exception& e) {
          why = e.what();
        }
      }
      std::lock_guard lock(mu_);
      s.failures_in_a_row = kFailuresToRetire;
      retire_locked(i, fmt::format("its worker did not start {} times in a row ({})", kFailuresToRetire, why));
    });
  for (auto& t : threads) t.join();
}

void WorkerPool::load_others(const std::string& problem, int seed, const std::string& precision) {
  std::vector<std::thread> threads;
  const int from = home() + 1;
  for (int i = from; i < size(); ++i) {
    if (retired(i)) continue;
    threads.emplace_back([this, i, &problem, &precision, seed]() {
      for (int attempt = 0; attempt < kFailuresToRetire && !retired(i); ++attempt) {
        Reply r = slots_[i].worker->load(problem, seed, precision);
        if (r.ok()) return note_answered(i);
        note_failure(i, fmt::format("loading the problem: {} {}", r.status, r.message));
      }
    });
  }
  for (auto& t : threads) t.join();
}

int WorkerPool::live() const {
  std::lock_guard lock(mu_);
  int n = 0;
  for (const auto& s : slots_) n += !s.retired;
  return n;
}

int WorkerPool::home() const {
  std::lock_guard lock(mu_);
  for (int i = 0; i < size(); ++i)
    if (!slots_[i].retired) return i;
  std::string why;
  for (const auto& s : slots_) why += fmt::format("; {}: {}", s.label, s.retired_why);
  throw UserError(ExitCode::environment,
                  fmt::format("every worker slot was taken out of the pool{} (see the worker logs)", why));
}

void WorkerPool::note_answered(int slot) {
  std::lock_guard lock(mu_);
  slots_.at(slot).failures_in_a_row = 0;
}

void WorkerPool::note_measured(int slot) {
  std::lock_guard lock(mu_);
  ++slots_.at(slot).measured;
}

void WorkerPool::note_failure(int slot, const std::string& why) {
  std::lock_guard lock(mu_);
  WorkerSlot& s = slots_.at(slot);
  if (s.retired) return;
  if (++s.failures_in_a_row >= kFailuresToRetire)
    retire_locked(slot, fmt::format("its worker failed {} times in a row (last: {})", kFailuresToRetire, why));
}

void WorkerPool::retire_locked(int slot, const std::string& why) {
  WorkerSlot& s = slots_.at(slot);
  s.retired = true;
  s.retired_why = why;
  int left = 0;
  for (const auto& o : slots_) left += !o.retired;
  const std::string msg = left > 0 ? fmt::format("{} is taken out of the pool: {}; the run goes on with {} slot{}",
                                                 s.label, why, left, left == 1 ? "" : "s")
                                   : fmt::format("{} is taken out of the pool: {}; no slot is left", s.label, why);
  notices_.push_back(msg);
  if (on_notice)
    on_notice(msg);
  else
    std::cerr << "kernelagent: warning: " << msg << "\n";
  // The worker is ended here (never by the caller, who may not know the slot is gone); a borrowed one is
  // the caller's to shut down.
  if (s.owned) s.owned->shutdown();
}

std::vector<std::string> WorkerPool::notices() const {
  std::lock_guard lock(mu_);
  return notices_;
}

void WorkerPool::shutdown() {
  for (auto& s : slots_)
    if (!s.retired || !s.owned) s.worker->shutdown();
}

}  // namespace kernelagent

#include "kernelagent/explore/worker_executor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "kernelagent/core/error.hpp"
#include "kernelagent/core/status.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/measure/timing.hpp"

namespace kernelagent {

namespace fs = std::filesystem;

WorkerExecutor::WorkerExecutor(WorkerClient& worker, HistoryStore& history, std::int64_t run,
                               const FamilyProblem& problem, CandidateSettings settings)
    : own_pool_(std::make_unique<WorkerPool>(worker)),
      pool_(own_pool_.get()),
      history_(history),
      run_(run),
      problem_(problem),
      settings_(std::move(settings)) {}

WorkerExecutor::WorkerExecutor(WorkerPool& pool, HistoryStore& history, std::int64_t run,
                               const FamilyProblem& problem, CandidateSettings settings)
    : pool_(&pool), history_(history), run_(run), problem_(problem), settings_(std::move(settings)) {}

fs::path WorkerExecutor::emit(const std::string& name, const Config& config) const {
  const fs::path src = fs::absolute(settings_.candidates_dir / (name + ".py"));
  write_text_file(src, problem_.emit(config, {settings_.problem_label}));
  return src;
}

Reply WorkerExecutor::compile_and_check(WorkerClient& worker, CandidateRecord& rec) const {
  Reply r = worker.compile(rec.name, rec.source_path);
  rec.compile_ms = r.body.is_object() ? r.body.value("compile_ms", 0.0) : 0.0;
  if (r.body.is_object() && r.body.contains("kernels") && r.body.at("kernels").is_array())
    rec.kernels = r.body.at("kernels");
  if (!r.ok()) return r;
  r = worker.check(rec.name, settings_.check_seeds, settings_.tolerance.atol, settings_.tolerance.rtol);
  // The reference failed on the check's inputs (it raised, hung or ended the worker after the candidate had
  // run): the problem's failure, which ends the run; the candidate is not recorded as if it were its own.
  if (r.status == status::bad_problem) throw ProblemFailure(r.status, r.message);
  if (r.body.contains("max_abs_err") && r.body.at("max_abs_err").is_number())
    rec.max_abs_err = r.body.at("max_abs_err").get<double>();
  return r;
}

bool WorkerExecutor::measure_on(int slot, CandidateRecord& rec) const {
  WorkerClient& worker = pool_->worker(slot);
  Reply r = compile_and_check(worker, rec);
  if (worker.unavailable()) {
    pool_->note_failure(slot, r.message);
    return false;
  }
  if (r.ok() && worker.on_gpu()) {
    Reply timed = worker.time({rec.name}, settings_.search_min_ms, 1, settings_.graph_below_us);
    if (worker.unavailable()) {
      pool_->note_failure(slot, timed.message);
      return false;
    }
    Timing t = timing_of(timed, rec.name);
    r.status = t.status;
    r.message = t.message;
    r.signal = timed.signal;
    rec.median_us = t.median_us, rec.p10_us = t.p10_us, rec.p90_us = t.p90_us;
    rec.reps = t.reps, rec.method = t.method;
  }
  pool_->note_answered(slot);
  pool_->note_measured(slot);
  rec.status = r.status;
  rec.message = r.message;
  rec.worker_signal = r.status == status::crashed ? r.signal : 0;
  rec.measured_on = pool_->slot(slot).label;
  // The deadline of its compile and check: a timeout under it is measured again under a longer one.
  const auto deadline = std::max(worker.timeouts().compile, worker.timeouts().check);
  rec.timeout_s = static_cast<double>(deadline.count()) / 1000.0;
  return true;
}

Measurement WorkerExecutor::measure(const Config& config, const std::string& reason) {
  return measure_batch({{config, reason}}).front();
}

std::vector<Measurement> WorkerExecutor::measure_batch(const std::vector<Proposal>& batch) {
  std::vector<CandidateRecord> recs(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    CandidateRecord& rec = recs[i];
    rec.name = next_name();
    rec.family = problem_.family().name();
    rec.family_hash = problem_.family().source_hash();
    rec.config = batch[i].first;
    rec.reason = batch[i].second;
    // A configuration the family cannot write a kernel for is a candidate that failed to build, recorded
    // with why; the run goes on with the others.
    try {
      rec.source_path = emit(rec.name, rec.config).string();
    } catch (const std::exception& e) {
      rec.status = std::string(status::compile_error);
      rec.message = fmt::format("the {} family could not write this configuration's kernel: {}", rec.family, e.what());
    }
  }

  // Each live slot takes the next waiting candidate; one whose slot failed goes back to the front of the
  // queue for whichever slot is free next. Each is recorded as soon as it has its status, so a killed run
  // keeps it.
  std::mutex mu;
  std::condition_variable changed;
  std::deque<std::size_t> waiting;
  for (std::size_t i = 0; i < recs.size(); ++i) waiting.push_back(i);
  std::vector<bool> done(recs.size(), false);
  for (std::size_t i = 0; i < recs.size(); ++i)
    if (recs[i].source_path.empty()) {
      history_.record_candidate(run_, recs[i]);
      done[i] = true;
      std::erase(waiting, i);
    }
  int in_flight = 0;
  std::exception_ptr failure;
  auto serve = [&](int slot) {
    std::unique_lock lock(mu);
    while (true) {
      changed.wait(lock, [&] { return !waiting.empty() || in_flight == 0 || pool_->retired(slot); });
      if (pool_->retired(slot) || waiting.empty() || failure) return;
      const std::size_t i = waiting.front();
      waiting.pop_front();
      ++in_flight;
      CandidateRecord rec = recs[i];
      lock.unlock();
      bool measured = false;
      try {
        measured = measure_on(slot, rec);
        lock.lock();
        if (measured) history_.record_candidate(run_, rec);  // one writer at a time: the lock is held
      } catch (...) {
        if (!lock.owns_lock()) lock.lock();
        failure = std::current_exception();
        --in_flight;
        changed.notify_all();
        return;
      }
      --in_flight;
      if (measured) {
        recs[i] = std::move(rec);
        done[i] = true;
      } else {
        waiting.push_front(i);
      }
      changed.notify_all();
    }
  };
  std::vector<int> live;
  for (int s = 0; s < pool_->size(); ++s)
    if (!pool_->retired(s)) live.push_back(s);
  if (live.size() <= 1 || batch.size() <= 1) {
    // One slot (or one candidate): measured here, in order, with no thread, as before the pool existed;
    // after a slot is retired the next live one takes over.
    for (int s = 0; s < pool_->size() && !waiting.empty(); ++s)
      if (!pool_->retired(s)) serve(s);
  } else {
    std::vector<std::thread> threads;
    for (int s : live) threads.emplace_back(serve, s);
    for (auto& t : threads) t.join();
  }
  if (failure) std::rethrow_exception(failure);
  for (bool d : done)
    if (!d) pool_->home();  // throws: every slot was taken out of the pool with this batch unfinished

  std::vector<Measurement> out;
  for (auto& rec : recs) {
    out.push_back({rec.status, rec.median_us});
    measured_.push_back(std::move(rec));
  }
  return out;
}

CandidateRecord WorkerExecutor::adopt(const CandidateRecord& stored) {
  CandidateRecord rec = stored;
  rec.name = next_name();
  rec.source_path = emit(rec.name, rec.config).string();
  return rec;
}

Reply WorkerExecutor::rebuild(const CandidateRecord& candidate) {
  CandidateRecord scratch = candidate;  // the stored figures stay as they were measured
  return compile_and_check(home_worker(), scratch);
}

void WorkerExecutor::release_memory() {
  for (int s = 0; s < pool_->size(); ++s)
    if (!pool_->retired(s)) pool_->worker(s).release();
}

}  // namespace kernelagent

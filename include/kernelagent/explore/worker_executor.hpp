#pragma once
// The live measurement executor: a configuration becomes a candidate file (the family emits it), which
// the worker compiles and checks against the reference on fresh seeds with the tolerance of the dtype
// and precision policy, and on a GPU times with the one harness. Each candidate is recorded in the
// history as soon as it has its status, with the reason the search chose it, so a killed run keeps it.
// On the CPU (Triton's interpreter) nothing is timed: a candidate that passed is "ok" with no median.
// With several worker slots (one per GPU, worker_pool), a batch of configurations is measured at once, one
// per slot; each candidate records the slot that measured it. A candidate whose slot could not bring its
// worker up is measured on another slot instead, so a GPU going away costs no candidate its result.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kernelagent/core/op_graph.hpp"
#include "kernelagent/explore/measure_executor.hpp"
#include "kernelagent/explore/worker_pool.hpp"
#include "kernelagent/families/family.hpp"
#include "kernelagent/history/history_store.hpp"
#include "kernelagent/measure/tolerance.hpp"
#include "kernelagent/measure/worker_client.hpp"

namespace kernelagent {

struct CandidateSettings {
  std::filesystem::path candidates_dir;  // where the candidate files go (absolute paths are recorded)
  std::string problem_label;             // named in each kernel file's header
  Tolerance tolerance;
  std::vector<int> check_seeds = {1, 2, 3};
  double search_min_ms = 100;  // samples per candidate
  double graph_below_us = 50;  // faster calls are also timed by CUDA-graph replay
};

class WorkerExecutor : public MeasureExecutor {
 public:
  // `run` is the history's run the candidates belong to; the worker holds the loaded problem, and
  // `problem` is that problem as the family that emits the candidates recognised it.
  WorkerExecutor(WorkerClient& worker, HistoryStore& history, std::int64_t run, const FamilyProblem& problem,
                 CandidateSettings settings);
  // The same over every live slot of `pool`, each holding the loaded problem.
  WorkerExecutor(WorkerPool& pool, HistoryStore& history, std::int64_t run, const FamilyProblem& problem,
                 CandidateSettings settings);

  Measurement measure(const Config& config, const std::string& reason) override;
  int capacity() const override { return pool_->live(); }
  // Names the candidates in the batch's order (c4, c5, ...), then measures them one per live slot at once.
  // Throws UserError(environment) when every slot was taken out of the pool before the batch was done.
  std::vector<Measurement> measure_batch(const std::vector<Proposal>& batch) override;

  // Takes over a candidate that an earlier run measured: it gets this run's next name and its source is
  // emitted here, so it can be written out or rebuilt later; nothing is compiled, run or recorded.
  CandidateRecord adopt(const CandidateRecord& stored);
  // Compiles and checks a candidate in the home slot's worker, so that it can be timed again there (a
  // finalist of a resumed search, or one another slot measured). The reply of whichever step failed, or
  // the check's.
  Reply rebuild(const CandidateRecord& candidate);
  // The home slot: where the finalists are timed.
  WorkerClient& home_worker() { return pool_->worker(pool_->home()); }
  std::string home_label() const { return pool_->slot(pool_->home()).label; }

  // Every live slot's worker hands its cached GPU memory back to the driver (before a profile: the
  // profiled process loads the problem on the same GPU). A slot that fails to answer is left as it is: the
  // profile may still fit, and the next measurement finds out whether the worker is alive.
  void release_memory();

  // What this run has measured, in the order the search proposed it (adopted candidates are not among them).
  const std::vector<CandidateRecord>& measured() const { return measured_; }

  // Writes the family's kernel for `config` as NAME.py in the candidates folder; its absolute path. The
  // compile pool compiles such files ahead of the search: the same source is the same Triton cache entry.
  std::filesystem::path emit(const std::string& name, const Config& config) const;

 private:
  std::string next_name() { return "c" + std::to_string(next_index_++); }
  // Compile, then check: fills the record's compile time and error; the reply of the last step taken.
  Reply compile_and_check(WorkerClient& worker, CandidateRecord& record) const;
  // Compiles, checks and (on a GPU) times one candidate on `slot`; false when the slot's worker could not be
  // brought up for it (the candidate is then measured elsewhere).
  bool measure_on(int slot, CandidateRecord& record) const;

  std::unique_ptr<WorkerPool> own_pool_;  // the single slot of a plain worker
  WorkerPool* pool_;
  HistoryStore& history_;
  std::int64_t run_;
  const FamilyProblem& problem_;
  CandidateSettings settings_;
  int next_index_ = 0;
  std::vector<CandidateRecord> measured_;
};

}  // namespace kernelagent

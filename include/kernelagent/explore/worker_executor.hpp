#pragma once
// The live measurement executor: a configuration becomes a candidate file (the family emits it), which
// the worker compiles and checks against the reference on fresh seeds with the tolerance of the dtype
// and precision policy, and on a GPU times with the one harness. Each candidate is recorded in the
// history as soon as it has its status, with the reason the search chose it, so a killed run keeps it.
// On the CPU (Triton's interpreter) nothing is timed: a candidate that passed is "ok" with no median.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "kernelagent/core/op_graph.hpp"
#include "kernelagent/explore/measure_executor.hpp"
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
  // `run` is the history's run the candidates belong to; the worker holds the loaded problem.
  WorkerExecutor(WorkerClient& worker, HistoryStore& history, std::int64_t run, const Family& family,
                 const TraceResult& trace, CandidateSettings settings);

  Measurement measure(const Config& config, const std::string& reason) override;

  // Takes over a candidate that an earlier run measured: it gets this run's next name and its source is
  // emitted here, so it can be written out or rebuilt later; nothing is compiled, run or recorded.
  CandidateRecord adopt(const CandidateRecord& stored);
  // Compiles and checks an adopted candidate in this worker, so that it can be timed again (a finalist
  // of a resumed search). The reply of whichever step failed, or the check's.
  Reply rebuild(const CandidateRecord& candidate);

  // What this run has measured, in order (adopted candidates are not among them).
  const std::vector<CandidateRecord>& measured() const { return measured_; }

  // Writes the family's kernel for `config` as NAME.py in the candidates folder; its absolute path. The
  // compile pool compiles such files ahead of the search: the same source is the same Triton cache entry.
  std::filesystem::path emit(const std::string& name, const Config& config) const;

 private:
  std::string next_name() { return "c" + std::to_string(next_index_++); }
  // Compile, then check: fills the record's compile time and error; the reply of the last step taken.
  Reply compile_and_check(CandidateRecord& record);

  WorkerClient& worker_;
  HistoryStore& history_;
  std::int64_t run_;
  const Family& family_;
  const TraceResult& trace_;
  CandidateSettings settings_;
  int next_index_ = 0;
  std::vector<CandidateRecord> measured_;
};

}  // namespace kernelagent

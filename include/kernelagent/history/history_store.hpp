#pragma once
// The working memory: an embedded SQLite database (WAL, one transaction per write) of runs, candidates
// and measurements. The schema is versioned and documented in docs/history.md; a killed run loses
// nothing that was committed. A database locked by another process is waited for (with one message) up to
// a limit; one that stays locked, or is damaged, ends the command with a HistoryError that says so.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernelagent/core/error.hpp"

namespace kernelagent {

// The history cannot be used: locked by another process past the wait (ExitCode::environment), damaged
// (ExitCode::bad_input: the file given by --db or found by default), or not writable (environment). The
// message names the database and what to do.
class HistoryError : public UserError {
 public:
  using UserError::UserError;
};

struct RunInfo {
  std::string command;  // "optimize"
  std::string problem_path;
  std::string problem_hash;  // hash of the problem file's text
  std::string problem_signature;
  std::string device;    // "cuda" or "cpu"
  std::string gpu;       // device name, "" on the CPU
  std::string versions;  // JSON: python, torch, triton, cuda
  std::string precision;
};

struct CandidateRecord {
  std::string name;  // "c3", unique within its run
  std::string family;
  std::string family_hash;
  nlohmann::json config;
  std::string source_path;
  std::string status;
  std::string message;
  double compile_ms = 0;
  std::optional<double> max_abs_err;
  std::optional<double> median_us, p10_us, p90_us;
  int reps = 0;
  std::string method;  // "events" or "cuda_graph"
  std::string reason;  // why the search chose it (the decision); "" in a version-1 database
  std::string measured_on;  // the worker slot that measured it: "gpu0", "cpu0", "ray:NODE/gpu1"; "" before v3
  // The deadline it was measured under: --timeout, seconds per compile or check request; nullopt before v4.
  std::optional<double> timeout_s;
  int worker_signal = 0;  // the signal that ended its worker while it was measured (a crash); 0: none
  // What each of its Triton kernels takes on the GPU, from the compile reply (docs/protocol.md): kept for
  // this run's result.json, not stored in the history (a resumed candidate has none).
  nlohmann::json kernels = nlohmann::json::array();
};

// Everything a stored candidate's outcome depends on (DESIGN.md section 7): candidates with the same key
// are measurements of the same thing, so a run can take them over instead of measuring them again.
struct CandidateKey {
  std::string problem_hash;  // the problem file's text
  std::string device;        // "cuda" or "cpu"
  std::string gpu;           // device name, "" on the CPU
  std::string precision;
  std::string versions;  // the worker's versions JSON, as stored with the run
  std::string family;
  std::string family_hash;
};

// A candidate of an earlier run, with the run it belongs to.
struct StoredCandidate {
  std::int64_t run_id = 0;
  CandidateRecord record;
};

// A run that finished with a timed best: what a warm start for a similar problem draws on.
struct FinishedRun {
  std::int64_t id = 0;
  std::string problem_hash;
  std::string problem_signature;
  nlohmann::json best_config;
  double best_us = 0;
};

struct MeasurementRecord {
  std::string target;  // "eager", "compile" or a candidate name
  std::string phase;   // "baseline", "search" or "final"
  std::string status;
  std::optional<double> median_us, p10_us, p90_us;
  int reps = 0;
  std::string method;
  std::string measured_on;  // the worker slot ("gpu0"); "" before v3
};

struct RunSummary {
  std::int64_t id = 0;
  // status: "running" while its process lives, "interrupted" once that process is gone without finishing
  // it, else result.json's status.
  std::string started_at, finished_at, problem_path, gpu, device, precision, status;
  std::string host;      // where its process ran ("" before v4)
  std::int64_t pid = 0;  // its process (0 before v4)
  std::optional<double> eager_us, compile_us, best_us;
  std::string best_family;
  nlohmann::json best_config;
  int candidates = 0;
};

class HistoryStore {
 public:
  static constexpr int kSchemaVersion = 4;

  // Opens (creating or migrating) the database and checks that its pages are sound. `wait` is how long a
  // statement waits for a lock another process holds (default: default_history_wait()); a message is
  // printed on stderr once a wait has lasted a second.
  explicit HistoryStore(const std::filesystem::path& path, std::optional<std::chrono::milliseconds> wait = {});
  ~HistoryStore();
  HistoryStore(const HistoryStore&) = delete;
  HistoryStore& operator=(const HistoryStore&) = delete;

  // Records this process (pid, host, start time) with the run, so that a run whose process is gone without
  // finishing it is known to be interrupted.
  std::int64_t begin_run(const RunInfo& info);
  std::int64_t record_candidate(std::int64_t run, const CandidateRecord& c);
  void record_measurement(std::int64_t run, const MeasurementRecord& m);
  // Ends a run with its status and summary figures; `result` is the result.json document.
  void finish_run(std::int64_t run, const std::string& status, const nlohmann::json& result);

  // Newest first; a run left `running` by a process of this host that is gone is listed as `interrupted`.
  std::vector<RunSummary> runs(int limit) const;
  // The result document of the newest successful run on a problem file with this text hash.
  std::optional<nlohmann::json> latest_result(const std::string& problem_hash) const;
  std::vector<CandidateRecord> candidates(std::int64_t run) const;
  // Every candidate with this key in runs other than `except_run`, finished or not (a killed run's
  // candidates are all committed), oldest first.
  std::vector<StoredCandidate> candidates_matching(const CandidateKey& key, std::int64_t except_run) const;
  // Runs that finished ok with a timed best of `family` on this GPU (device name) under this precision
  // policy, newest first.
  std::vector<FinishedRun> finished_runs(const std::string& family, const std::string& gpu,
                                         const std::string& precision) const;
  int schema_version() const;
  const std::filesystem::path& path() const { return path_; }

  struct Connection;  // the SQLite connection and its wait (history_store.cpp)

 private:
  void exec(const std::string& sql) const;
  void migrate();
  void check_integrity() const;
  // Marks the `running` runs of this host whose process is gone as `interrupted`; skipped while another
  // process holds the write lock (runs() still lists them so).
  void mark_interrupted_runs();

  std::filesystem::path path_;
  std::unique_ptr<Connection> conn_;
};

// $KERNELAGENT_DB, else $XDG_DATA_HOME/kernelagent/history.sqlite, else ~/.local/share/kernelagent/...
std::filesystem::path default_history_path();

// How long a statement waits for a database another process holds locked: $KERNELAGENT_DB_WAIT seconds,
// else 30 s.
std::chrono::milliseconds default_history_wait();

}  // namespace kernelagent

#pragma once
// The working memory: an embedded SQLite database (WAL, one transaction per write) of runs, candidates
// and measurements. The schema is versioned and documented in docs/history.md; a killed run loses
// nothing that was committed.

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace kernelagent {

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
  std::string started_at, finished_at, problem_path, gpu, device, precision, status;
  std::optional<double> eager_us, compile_us, best_us;
  std::string best_family;
  nlohmann::json best_config;
  int candidates = 0;
};

class HistoryStore {
 public:
  static constexpr int kSchemaVersion = 3;

  explicit HistoryStore(const std::filesystem::path& path);
  ~HistoryStore();
  HistoryStore(const HistoryStore&) = delete;
  HistoryStore& operator=(const HistoryStore&) = delete;

  std::int64_t begin_run(const RunInfo& info);
  std::int64_t record_candidate(std::int64_t run, const CandidateRecord& c);
  void record_measurement(std::int64_t run, const MeasurementRecord& m);
  // Ends a run with its status and summary figures; `result` is the result.json document.
  void finish_run(std::int64_t run, const std::string& status, const nlohmann::json& result);

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

 private:
  void exec(const std::string& sql) const;
  void migrate();

  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
};

// $KERNELAGENT_DB, else $XDG_DATA_HOME/kernelagent/history.sqlite, else ~/.local/share/kernelagent/...
std::filesystem::path default_history_path();

}  // namespace kernelagent

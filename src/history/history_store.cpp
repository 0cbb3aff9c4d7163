#include "kernelagent/history/history_store.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cstdlib>
#include <stdexcept>

#include "kernelagent/core/error.hpp"

namespace kernelagent {

using nlohmann::json;

namespace {

// Version 1 of the schema; docs/history.md describes every column. A new version adds a migration step
// (below, and in migrate()), never an edit here.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE IF NOT EXISTS runs (
  id                INTEGER PRIMARY KEY,
  started_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  finished_at       TEXT,
  command           TEXT NOT NULL,
  problem_path      TEXT NOT NULL,
  problem_hash      TEXT NOT NULL,
  problem_signature TEXT NOT NULL,
  device            TEXT NOT NULL,
  gpu               TEXT NOT NULL,
  versions          TEXT NOT NULL,
  precision         TEXT NOT NULL,
  status            TEXT NOT NULL DEFAULT 'running',
  eager_us          REAL,
  compile_us        REAL,
  best_us           REAL,
  best_family       TEXT,
  best_config       TEXT,
  result_json       TEXT
);
CREATE TABLE IF NOT EXISTS candidates (
  id           INTEGER PRIMARY KEY,
  run_id       INTEGER NOT NULL REFERENCES runs(id),
  name         TEXT NOT NULL,
  family       TEXT NOT NULL,
  family_hash  TEXT NOT NULL,
  config       TEXT NOT NULL,
  source_path  TEXT NOT NULL,
  status       TEXT NOT NULL,
  message      TEXT NOT NULL,
  compile_ms   REAL,
  max_abs_err  REAL,
  median_us    REAL,
  p10_us       REAL,
  p90_us       REAL,
  reps         INTEGER NOT NULL DEFAULT 0,
  method       TEXT NOT NULL DEFAULT '',
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (run_id, name)
);
CREATE TABLE IF NOT EXISTS measurements (
  id         INTEGER PRIMARY KEY,
  run_id     INTEGER NOT NULL REFERENCES runs(id),
  target     TEXT NOT NULL,
  phase      TEXT NOT NULL,
  status     TEXT NOT NULL,
  median_us  REAL,
  p10_us     REAL,
  p90_us     REAL,
  reps       INTEGER NOT NULL DEFAULT 0,
  method     TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX IF NOT EXISTS candidates_by_run ON candidates(run_id);
CREATE INDEX IF NOT EXISTS measurements_by_run ON measurements(run_id);
)sql";

// Version 2: every candidate keeps the reason the search chose it, and runs are found by their problem
// (resume). Rows of version 1 get an empty reason.
constexpr const char* kMigrationV2 = R"sql(
ALTER TABLE candidates ADD COLUMN reason TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS runs_by_problem ON runs(problem_hash);
)sql";

// Version 3: which worker slot (GPU) measured each candidate and each baseline or final measurement, now
// that a run measures on several. Rows of earlier versions get ''.
constexpr const char* kMigrationV3 = R"sql(
ALTER TABLE candidates ADD COLUMN measured_on TEXT NOT NULL DEFAULT '';
ALTER TABLE measurements ADD COLUMN measured_on TEXT NOT NULL DEFAULT '';
)sql";

// The columns every candidate query reads, in the order read_candidate() expects.
constexpr const char* kCandidateColumns =
    "c.name, c.family, c.family_hash, c.config, c.source_path, c.status, c.message, COALESCE(c.compile_ms, 0), "
    "c.max_abs_err, c.median_us, c.p10_us, c.p90_us, c.reps, c.method, c.reason, c.measured_on";

// A prepared statement that finalizes itself; binds by position from 1.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
      throw std::runtime_error(fmt::format("history: cannot prepare statement: {}", sqlite3_errmsg(db)));
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(int i, std::int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Statement& bind(int i, std::optional<double> v) {
    if (v)
      sqlite3_bind_double(stmt_, i, *v);
    else
      sqlite3_bind_null(stmt_, i);
    return *this;
  }
  // True while there is a row.
  bool step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw std::runtime_error(fmt::format("history: {}", sqlite3_errmsg(db_)));
  }
  std::string text(int col) const {
    auto* p = sqlite3_column_text(stmt_, col);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  std::optional<double> real(int col) const {
    if (sqlite3_column_type(stmt_, col) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_double(stmt_, col);
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// A candidate from the row's columns kCandidateColumns, starting at column `from`.
CandidateRecord read_candidate(const Statement& s, int from) {
  CandidateRecord c;
  c.name = s.text(from + 0);
  c.family = s.text(from + 1);
  c.family_hash = s.text(from + 2);
  c.config = json::parse(s.text(from + 3), nullptr, false);
  c.source_path = s.text(from + 4);
  c.status = s.text(from + 5);
  c.message = s.text(from + 6);
  c.compile_ms = s.real(from + 7).value_or(0);
  c.max_abs_err = s.real(from + 8);
  c.median_us = s.real(from + 9);
  c.p10_us = s.real(from + 10);
  c.p90_us = s.real(from + 11);
  c.reps = static_cast<int>(s.integer(from + 12));
  c.method = s.text(from + 13);
  c.reason = s.text(from + 14);
  c.measured_on = s.text(from + 15);
  return c;
}

}  // namespace

std::filesystem::path default_history_path() {
  if (const char* p = std::getenv("KERNELAGENT_DB"); p && *p) return p;
  if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x)
    return std::filesystem::path(x) / "kernelagent" / "history.sqlite";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / ".local" / "share" / "kernelagent" / "history.sqlite";
}

HistoryStore::HistoryStore(const std::filesystem::path& path) : path_(path) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw UserError(ExitCode::bad_input,
                    fmt::format("cannot open the history database {}: {} (pass --db PATH)", path.string(), why));
  }
  sqlite3_busy_timeout(db_, 10'000);
  try {
    exec("PRAGMA journal_mode=WAL;");
    exec("PRAGMA foreign_keys=ON;");
    migrate();
  } catch (const std::exception& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw UserError(ExitCode::bad_input,
                    fmt::format("the history database {} cannot be used: {}", path.string(), e.what()));
  }
}

HistoryStore::~HistoryStore() { sqlite3_close(db_); }

void HistoryStore::exec(const std::string& sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw std::runtime_error("history: " + msg);
  }
}

int HistoryStore::schema_version() const {
  Statement s(db_, "PRAGMA user_version;");
  s.step();
  return static_cast<int>(s.integer(0));
}

void HistoryStore::migrate() {
  const int v = schema_version();
  if (v > kSchemaVersion)
    throw std::runtime_error(
        fmt::format("it has schema version {}, newer than this kernelagent's {}", v, kSchemaVersion));
  if (v == kSchemaVersion) return;
  exec("BEGIN IMMEDIATE;");
  try {
    if (v < 1) exec(kSchemaV1);
    if (v < 2) exec(kMigrationV2);
    if (v < 3) exec(kMigrationV3);
    exec(fmt::format("PRAGMA user_version = {};", kSchemaVersion));
    exec("COMMIT;");
  } catch (...) {
    exec("ROLLBACK;");
    throw;
  }
}

std::int64_t HistoryStore::begin_run(const RunInfo& r) {
  Statement s(db_,
              "INSERT INTO runs (command, problem_path, problem_hash, problem_signature, device, gpu, versions, "
              "precision) VALUES (?, ?, ?, ?, ?, ?, ?, ?);");
  s.bind(1, r.command).bind(2, r.problem_path).bind(3, r.problem_hash).bind(4, r.problem_signature);
  s.bind(5, r.device).bind(6, r.gpu).bind(7, r.versions).bind(8, r.precision);
  s.step();
  return sqlite3_last_insert_rowid(db_);
}

std::int64_t HistoryStore::record_candidate(std::int64_t run, const CandidateRecord& c) {
  Statement s(db_,
              "INSERT INTO candidates (run_id, name, family, family_hash, config, source_path, status, message, "
              "compile_ms, max_abs_err, median_us, p10_us, p90_us, reps, method, reason, measured_on) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);");
  s.bind(1, run).bind(2, c.name).bind(3, c.family).bind(4, c.family_hash).bind(5, c.config.dump());
  s.bind(6, c.source_path).bind(7, c.status).bind(8, c.message).bind(9, std::optional<double>(c.compile_ms));
  s.bind(10, c.max_abs_err).bind(11, c.median_us).bind(12, c.p10_us).bind(13, c.p90_us);
  s.bind(14, std::int64_t{c.reps}).bind(15, c.method).bind(16, c.reason).bind(17, c.measured_on);
  s.step();
  return sqlite3_last_insert_rowid(db_);
}

void HistoryStore::record_measurement(std::int64_t run, const MeasurementRecord& m) {
  Statement s(db_,
              "INSERT INTO measurements (run_id, target, phase, status, median_us, p10_us, p90_us, reps, method, "
              "measured_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);");
  s.bind(1, run).bind(2, m.target).bind(3, m.phase).bind(4, m.status).bind(5, m.median_us).bind(6, m.p10_us);
  s.bind(7, m.p90_us).bind(8, std::int64_t{m.reps}).bind(9, m.method).bind(10, m.measured_on);
  s.step();
}

void HistoryStore::finish_run(std::int64_t run, const std::string& status, const json& result) {
  auto num = [&](const json& j, const char* key) -> std::optional<double> {
    if (j.is_object() && j.contains(key) && j.at(key).is_number()) return j.at(key).get<double>();
    return std::nullopt;
  };
  const json baselines = result.value("baselines", json::object());
  const json best = result.value("best", json::object());
  Statement s(db_,
              "UPDATE runs SET finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), status = ?, eager_us = ?, "
              "compile_us = ?, best_us = ?, best_family = ?, best_config = ?, result_json = ? WHERE id = ?;");
  s.bind(1, status).bind(2, num(baselines.value("eager", json::object()), "median_us"));
  s.bind(3, num(baselines.value("compile", json::object()), "median_us")).bind(4, num(best, "median_us"));
  s.bind(5, best.value("family", std::string())).bind(6, best.value("config", json()).dump());
  s.bind(7, result.dump()).bind(8, run);
  s.step();
}

std::vector<RunSummary> HistoryStore::runs(int limit) const {
  Statement s(db_,
              "SELECT r.id, r.started_at, COALESCE(r.finished_at, ''), r.problem_path, r.gpu, r.device, r.precision, "
              "r.status, r.eager_us, r.compile_us, r.best_us, COALESCE(r.best_family, ''), "
              "COALESCE(r.best_config, 'null'), (SELECT COUNT(*) FROM candidates c WHERE c.run_id = r.id) "
              "FROM runs r ORDER BY r.id DESC LIMIT ?;");
  s.bind(1, std::int64_t{limit});
  std::vector<RunSummary> out;
  while (s.step()) {
    RunSummary r;
    r.id = s.integer(0);
    r.started_at = s.text(1);
    r.finished_at = s.text(2);
    r.problem_path = s.text(3);
    r.gpu = s.text(4);
    r.device = s.text(5);
    r.precision = s.text(6);
    r.status = s.text(7);
    r.eager_us = s.real(8);
    r.compile_us = s.real(9);
    r.best_us = s.real(10);
    r.best_family = s.text(11);
    r.best_config = json::parse(s.text(12), nullptr, false);
    r.candidates = static_cast<int>(s.integer(13));
    out.push_back(std::move(r));
  }
  return out;
}

std::optional<json> HistoryStore::latest_result(const std::string& problem_hash) const {
  Statement s(db_, "SELECT result_json FROM runs WHERE problem_hash = ? AND status = 'ok' ORDER BY id DESC LIMIT 1;");
  s.bind(1, problem_hash);
  if (!s.step()) return std::nullopt;
  auto j = json::parse(s.text(0), nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

std::vector<CandidateRecord> HistoryStore::candidates(std::int64_t run) const {
  Statement s(db_,
              fmt::format("SELECT {} FROM candidates c WHERE c.run_id = ? ORDER BY c.id;", kCandidateColumns).c_str());
  s.bind(1, run);
  std::vector<CandidateRecord> out;
  while (s.step()) out.push_back(read_candidate(s, 0));
  return out;
}

std::vector<StoredCandidate> HistoryStore::candidates_matching(const CandidateKey& key, std::int64_t except_run) const {
  Statement s(db_, fmt::format("SELECT c.run_id, {} FROM candidates c JOIN runs r ON r.id = c.run_id "
                               "WHERE r.problem_hash = ? AND r.device = ? AND r.gpu = ? AND r.precision = ? "
                               "AND r.versions = ? AND c.family = ? AND c.family_hash = ? AND r.id <> ? "
                               "ORDER BY c.id;",
                               kCandidateColumns)
                       .c_str());
  s.bind(1, key.problem_hash).bind(2, key.device).bind(3, key.gpu).bind(4, key.precision).bind(5, key.versions);
  s.bind(6, key.family).bind(7, key.family_hash).bind(8, except_run);
  std::vector<StoredCandidate> out;
  while (s.step()) out.push_back({s.integer(0), read_candidate(s, 1)});
  return out;
}

std::vector<FinishedRun> HistoryStore::finished_runs(const std::string& family, const std::string& gpu,
                                                     const std::string& precision) const {
  Statement s(db_,
              "SELECT id, problem_hash, problem_signature, best_config, best_us FROM runs "
              "WHERE status = 'ok' AND finished_at IS NOT NULL AND best_us IS NOT NULL AND best_family = ? "
              "AND gpu = ? AND precision = ? ORDER BY id DESC;");
  s.bind(1, family).bind(2, gpu).bind(3, precision);
  std::vector<FinishedRun> out;
  while (s.step()) {
    FinishedRun r{s.integer(0), s.text(1), s.text(2), json::parse(s.text(3), nullptr, false), *s.real(4)};
    if (r.best_config.is_object()) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace kernelagent

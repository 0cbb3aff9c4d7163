#include "kernelagent/history/history_store.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

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

// Version 4: what a resumed run needs to tell a candidate's own failure from one caused from outside (the
// deadline it was measured under; the signal that ended its worker, read back from the messages of older
// crashes), and which process ran each run, so that a killed run is known to be interrupted.
constexpr const char* kMigrationV4 = R"sql(
ALTER TABLE candidates ADD COLUMN timeout_s REAL;
ALTER TABLE candidates ADD COLUMN worker_signal INTEGER NOT NULL DEFAULT 0;
UPDATE candidates SET worker_signal = CAST(substr(message, instr(message, 'killed by signal ') + 17) AS INTEGER)
  WHERE status = 'crashed' AND instr(message, 'killed by signal ') > 0;
ALTER TABLE runs ADD COLUMN pid INTEGER;
ALTER TABLE runs ADD COLUMN host TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN process_start TEXT NOT NULL DEFAULT '';
)sql";

// The columns every candidate query reads, in the order read_candidate() expects.
constexpr const char* kCandidateColumns =
    "c.name, c.family, c.family_hash, c.config, c.source_path, c.status, c.message, COALESCE(c.compile_ms, 0), "
    "c.max_abs_err, c.median_us, c.p10_us, c.p90_us, c.reps, c.method, c.reason, c.measured_on, c.timeout_s, "
    "c.worker_signal";

using Clock = std::chrono::steady_clock;

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// A process's start, as "BOOT_ID:TICKS" (the boot and the clock ticks after it at which it started): with
// its pid, it names one process even after the pid has been reused. "" where /proc cannot tell.
std::string process_start(pid_t pid) {
  const std::string stat = first_line(fmt::format("/proc/{}/stat", pid));
  const auto close = stat.rfind(')');
  const std::string boot = first_line("/proc/sys/kernel/random/boot_id");
  if (close == std::string::npos || boot.empty()) return "";
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  // After the command's closing parenthesis: the state (field 3) ... the start time (field 22).
  for (int i = 3; i <= 22 && (fields >> field); ++i)
    if (i == 3 && field == "Z") return "";  // a zombie has ended
  return fields ? boot + ":" + field : "";
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

// Whether the process recorded as (pid, start) on this host still runs: by its start time where one was
// recorded (a reused pid is another process), else by whether the pid exists.
bool process_alive(std::int64_t pid, const std::string& start) {
  if (pid <= 0) return true;  // not recorded: nothing says it is gone
  if (!start.empty()) return process_start(static_cast<pid_t>(pid)) == start;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

}  // namespace

// One open database and how long its statements wait for another process's lock.
struct HistoryStore::Connection {
  sqlite3* db = nullptr;
  std::filesystem::path path;
  std::chrono::milliseconds wait{0};
  // The busy handler's state: when the current wait began, and whether the message was printed.
  Clock::time_point waiting_since;
  bool told = false;
};

namespace {

using Connection = HistoryStore::Connection;

// SQLite's busy handler: waits in short sleeps up to the connection's limit, saying once (after a second)
// that it waits and for what. Returning 0 gives up: the statement fails with SQLITE_BUSY.
int on_busy(void* arg, int attempts) {
  auto* c = static_cast<Connection*>(arg);
  const auto now = Clock::now();
  if (attempts == 0) c->waiting_since = now;
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(now - c->waiting_since);
  if (waited >= c->wait) return 0;
  if (!c->told && waited >= std::chrono::seconds(1)) {
    std::fprintf(stderr, "kernelagent: the history database %s is locked by another process; waiting up to %.0f s\n",
                 c->path.c_str(), static_cast<double>(c->wait.count()) / 1000.0);
    std::fflush(stderr);
    c->told = true;
  }
  std::this_thread::sleep_for(
      std::min<std::chrono::milliseconds>(std::chrono::milliseconds(attempts < 10 ? 5 : 50), c->wait - waited));
  return 1;
}

// The error for a failed SQLite call: the user's to act on (locked, damaged, not writable) or, for anything
// else (a constraint, a bad statement), an internal one.
[[noreturn]] void fail(const Connection& c, int rc, const std::string& what) {
  const std::string db = c.path.string();
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      throw HistoryError(ExitCode::environment,
                         fmt::format("the history database {} stayed locked by another process for {:.0f} s ({}); "
                                     "let that process finish and run the command again, wait longer with "
                                     "KERNELAGENT_DB_WAIT=SECONDS, or pass --db PATH",
                                     db, static_cast<double>(c.wait.count()) / 1000.0, what));
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      throw HistoryError(ExitCode::bad_input,
                         fmt::format("the history database {} is damaged ({}); move it aside (the next run starts a "
                                     "new one there) or pass --db PATH",
                                     db, what));
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
      throw HistoryError(ExitCode::environment,
                         fmt::format("cannot write the history database {}: {}; free the disk or fix its "
                                     "permissions, or pass --db PATH",
                                     db, what));
    default:
      throw std::runtime_error("history: " + what);
  }
}

// A prepared statement that finalizes itself; binds by position from 1.
class Statement {
 public:
  Statement(const Connection& c, const char* sql) : c_(c) {
    if (int rc = sqlite3_prepare_v2(c.db, sql, -1, &stmt_, nullptr); rc != SQLITE_OK)
      fail(c, rc, fmt::format("cannot prepare statement: {}", sqlite3_errmsg(c.db)));
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
    fail(c_, rc, sqlite3_errmsg(c_.db));
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
  const Connection& c_;
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
  c.timeout_s = s.real(from + 16);
  c.worker_signal = static_cast<int>(s.integer(from + 17));
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

std::chrono::milliseconds default_history_wait() {
  if (const char* w = std::getenv("KERNELAGENT_DB_WAIT"); w && *w) {
    char* end = nullptr;
    const double seconds = std::strtod(w, &end);
    if (end != w && *end == '\0' && seconds >= 0 && seconds < 1e7)
      return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
  }
  return std::chrono::seconds(30);
}

HistoryStore::HistoryStore(const std::filesystem::path& path, std::optional<std::chrono::milliseconds> wait)
    : path_(path), conn_(std::make_unique<Connection>()) {
  conn_->path = path;
  conn_->wait = wait.value_or(default_history_wait());
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  sqlite3*& db = conn_->db;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    std::string why = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    db = nullptr;
    throw UserError(ExitCode::bad_input,
                    fmt::format("cannot open the history database {}: {} (pass --db PATH)", path.string(), why));
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_handler(db, on_busy, conn_.get());
  try {
    exec("PRAGMA journal_mode=WAL;");
    exec("PRAGMA foreign_keys=ON;");
    check_integrity();
    migrate();
    mark_interrupted_runs();
  } catch (const UserError&) {
    sqlite3_close(db);
    db = nullptr;
    throw;
  } catch (const std::exception& e) {
    sqlite3_close(db);
    db = nullptr;
    throw UserError(ExitCode::bad_input,
                    fmt::format("the history database {} cannot be used: {}", path.string(), e.what()));
  }
}

HistoryStore::~HistoryStore() {
  if (conn_) sqlite3_close(conn_->db);
}

void HistoryStore::exec(const std::string& sql) const {
  char* err = nullptr;
  if (int rc = sqlite3_exec(conn_->db, sql.c_str(), nullptr, nullptr, &err); rc != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    fail(*conn_, rc, msg);
  }
}

int HistoryStore::schema_version() const {
  Statement s(*conn_, "PRAGMA user_version;");
  s.step();
  return static_cast<int>(s.integer(0));
}

// A database whose header is sound but whose pages are not would fail somewhere in the middle of a run, or
// answer wrongly; it is refused when opened. (A few milliseconds for a history of thousands of candidates.)
void HistoryStore::check_integrity() const {
  Statement s(*conn_, "PRAGMA quick_check;");
  std::string problem;
  while (s.step())
    if (const std::string line = s.text(0); line != "ok" && problem.empty()) problem = line;
  if (!problem.empty())
    throw HistoryError(ExitCode::bad_input,
                       fmt::format("the history database {} is damaged ({}); move it aside (the next run starts a "
                                   "new one there) or pass --db PATH",
                                   path_.string(), problem));
}

void HistoryStore::migrate() {
  auto newer = [](int v) {
    return std::runtime_error(
        fmt::format("it has schema version {}, newer than this kernelagent's {}", v, kSchemaVersion));
  };
  if (const int v = schema_version(); v > kSchemaVersion)
    throw newer(v);
  else if (v == kSchemaVersion)
    return;
  // The version is read again under the write lock: several runs may open one new database at once, and
  // the one that waited for the lock finds it migrated by another.
  exec("BEGIN IMMEDIATE;");
  try {
    const int v = schema_version();
    if (v > kSchemaVersion) throw newer(v);
    if (v < 1) exec(kSchemaV1);
    if (v < 2) exec(kMigrationV2);
    if (v < 3) exec(kMigrationV3);
    if (v < 4) exec(kMigrationV4);
    exec(fmt::format("PRAGMA user_version = {};", kSchemaVersion));
    exec("COMMIT;");
  } catch (...) {
    sqlite3_exec(conn_->db, "ROLLBACK;", nullptr, nullptr, nullptr);
    throw;
  }
}

void HistoryStore::mark_interrupted_runs() {
  std::vector<std::int64_t> gone;
  {
    Statement s(*conn_, "SELECT id, pid, process_start FROM runs WHERE status = 'running' AND host = ? AND pid > 0;");
    s.bind(1, host_name());
    while (s.step())
      if (!process_alive(s.integer(1), s.text(2))) gone.push_back(s.integer(0));
  }
  if (gone.empty()) return;
  // Not worth waiting for: whoever holds the lock now, the listing says so anyway.
  const auto wait = conn_->wait;
  conn_->wait = std::chrono::milliseconds(0);
  try {
    for (std::int64_t id : gone) {
      Statement u(*conn_, "UPDATE runs SET status = 'interrupted' WHERE id = ? AND status = 'running';");
      u.bind(1, id).step();
    }
  } catch (const HistoryError& e) {
    if (e.code() != ExitCode::environment) {
      conn_->wait = wait;
      throw;
    }
  }
  conn_->wait = wait;
}

std::int64_t HistoryStore::begin_run(const RunInfo& r) {
  Statement s(*conn_,
              "INSERT INTO runs (command, problem_path, problem_hash, problem_signature, device, gpu, versions, "
              "precision, pid, host, process_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);");
  s.bind(1, r.command).bind(2, r.problem_path).bind(3, r.problem_hash).bind(4, r.problem_signature);
  s.bind(5, r.device).bind(6, r.gpu).bind(7, r.versions).bind(8, r.precision);
  s.bind(9, std::int64_t{::getpid()}).bind(10, host_name()).bind(11, process_start(::getpid()));
  s.step();
  return sqlite3_last_insert_rowid(conn_->db);
}

std::int64_t HistoryStore::record_candidate(std::int64_t run, const CandidateRecord& c) {
  Statement s(*conn_,
              "INSERT INTO candidates (run_id, name, family, family_hash, config, source_path, status, message, "
              "compile_ms, max_abs_err, median_us, p10_us, p90_us, reps, method, reason, measured_on, timeout_s, "
              "worker_signal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);");
  s.bind(1, run).bind(2, c.name).bind(3, c.family).bind(4, c.family_hash).bind(5, c.config.dump());
  s.bind(6, c.source_path).bind(7, c.status).bind(8, c.message).bind(9, std::optional<double>(c.compile_ms));
  s.bind(10, c.max_abs_err).bind(11, c.median_us).bind(12, c.p10_us).bind(13, c.p90_us);
  s.bind(14, std::int64_t{c.reps}).bind(15, c.method).bind(16, c.reason).bind(17, c.measured_on);
  s.bind(18, c.timeout_s).bind(19, std::int64_t{c.worker_signal});
  s.step();
  return sqlite3_last_insert_rowid(conn_->db);
}

void HistoryStore::record_measurement(std::int64_t run, const MeasurementRecord& m) {
  Statement s(*conn_,
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
  Statement s(*conn_,
              "UPDATE runs SET finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), status = ?, eager_us = ?, "
              "compile_us = ?, best_us = ?, best_family = ?, best_config = ?, result_json = ? WHERE id = ?;");
  s.bind(1, status).bind(2, num(baselines.value("eager", json::object()), "median_us"));
  s.bind(3, num(baselines.value("compile", json::object()), "median_us")).bind(4, num(best, "median_us"));
  s.bind(5, best.value("family", std::string())).bind(6, best.value("config", json()).dump());
  s.bind(7, result.dump()).bind(8, run);
  s.step();
}

std::vector<RunSummary> HistoryStore::runs(int limit) const {
  Statement s(*conn_,
              "SELECT r.id, r.started_at, COALESCE(r.finished_at, ''), r.problem_path, r.gpu, r.device, r.precision, "
              "r.status, r.eager_us, r.compile_us, r.best_us, COALESCE(r.best_family, ''), "
              "COALESCE(r.best_config, 'null'), (SELECT COUNT(*) FROM candidates c WHERE c.run_id = r.id), r.host, "
              "COALESCE(r.pid, 0), r.process_start FROM runs r ORDER BY r.id DESC LIMIT ?;");
  s.bind(1, std::int64_t{limit});
  const std::string here = host_name();
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
    r.host = s.text(14);
    r.pid = s.integer(15);
    if (r.status == "running" && r.host == here && !process_alive(r.pid, s.text(16))) r.status = "interrupted";
    out.push_back(std::move(r));
  }
  return out;
}

std::optional<json> HistoryStore::latest_result(const std::string& problem_hash) const {
  Statement s(*conn_,
              "SELECT result_json FROM runs WHERE problem_hash = ? AND status = 'ok' ORDER BY id DESC LIMIT 1;");
  s.bind(1, problem_hash);
  if (!s.step()) return std::nullopt;
  auto j = json::parse(s.text(0), nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

std::vector<CandidateRecord> HistoryStore::candidates(std::int64_t run) const {
  Statement s(*conn_,
              fmt::format("SELECT {} FROM candidates c WHERE c.run_id = ? ORDER BY c.id;", kCandidateColumns).c_str());
  s.bind(1, run);
  std::vector<CandidateRecord> out;
  while (s.step()) out.push_back(read_candidate(s, 0));
  return out;
}

std::vector<StoredCandidate> HistoryStore::candidates_matching(const CandidateKey& key, std::int64_t except_run) const {
  Statement s(*conn_, fmt::format("SELECT c.run_id, {} FROM candidates c JOIN runs r ON r.id = c.run_id "
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
  Statement s(*conn_,
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

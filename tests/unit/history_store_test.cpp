#include "kernelagent/history/history_store.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <fstream>
#include <map>
#include <thread>

#include "kernelagent/core/error.hpp"
#include "test_data.hpp"

using namespace kernelagent;

namespace {
RunInfo info() {
  return {"optimize", "/p/relu.py",  "abc", "in0:float32[16x1000];aten.relu.default;",
          "cuda",     "NVIDIA H200", "{}",  "strict"};
}
}  // namespace

TEST(HistoryStore, CreatesTheSchemaInWalMode) {
  auto dir = test::temp_dir("history-schema");
  HistoryStore store(dir / "sub" / "h.sqlite");
  EXPECT_EQ(store.schema_version(), HistoryStore::kSchemaVersion);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "sub" / "h.sqlite").c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA journal_mode;", -1, &st, nullptr);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "wal");
  sqlite3_finalize(st);
  sqlite3_close(db);
}

TEST(HistoryStore, RecordsRunsCandidatesAndMeasurementsThatSurviveReopening) {
  auto dir = test::temp_dir("history-roundtrip");
  std::int64_t run = 0;
  {
    HistoryStore store(dir / "h.sqlite");
    run = store.begin_run(info());
    CandidateRecord ok{
        "c0", "elementwise", "f00d", {{"num_warps", 8}}, "/o/c0.py", "ok", "", 12.5, 0.0, 3100.0, 3090.0, 3120.0,
        30,   "events"};
    CandidateRecord bad{
        "c1", "elementwise", "f00d",       {{"num_warps", 16}}, "/o/c1.py",   "crashed", "worker killed by signal 11",
        0,    std::nullopt,  std::nullopt, std::nullopt,        std::nullopt, 0,         ""};
    store.record_candidate(run, ok);
    store.record_candidate(run, bad);
    store.record_measurement(run, {"eager", "final", "ok", 3200.0, 3190.0, 3210.0, 40, "events"});
    // A run killed here keeps what was committed: no finish_run.
  }
  HistoryStore store(dir / "h.sqlite");
  auto runs = store.runs(10);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].status, "running");
  EXPECT_EQ(runs[0].candidates, 2);
  auto cands = store.candidates(run);
  ASSERT_EQ(cands.size(), 2u);
  EXPECT_EQ(cands[0].config.at("num_warps"), 8);
  EXPECT_DOUBLE_EQ(*cands[0].median_us, 3100.0);
  EXPECT_EQ(cands[1].status, "crashed");
  EXPECT_FALSE(cands[1].median_us.has_value());

  nlohmann::json result = {
      {"baselines", {{"eager", {{"median_us", 3200.0}}}, {"compile", {{"status", "compile_error"}}}}},
      {"best", {{"family", "elementwise"}, {"config", {{"num_warps", 8}}}, {"median_us", 3050.0}}}};
  store.finish_run(run, "ok", result);
  runs = store.runs(10);
  EXPECT_EQ(runs[0].status, "ok");
  EXPECT_DOUBLE_EQ(*runs[0].eager_us, 3200.0);
  EXPECT_FALSE(runs[0].compile_us.has_value());
  EXPECT_DOUBLE_EQ(*runs[0].best_us, 3050.0);
  EXPECT_EQ(runs[0].best_family, "elementwise");
  EXPECT_FALSE(runs[0].finished_at.empty());
}

TEST(HistoryStore, ListsNewestFirstWithinTheLimit) {
  auto dir = test::temp_dir("history-limit");
  HistoryStore store(dir / "h.sqlite");
  for (int i = 0; i < 5; ++i) store.begin_run(info());
  auto runs = store.runs(3);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_GT(runs[0].id, runs[1].id);
}

TEST(HistoryStore, CandidateNamesAreUniqueWithinARun) {
  auto dir = test::temp_dir("history-unique");
  HistoryStore store(dir / "h.sqlite");
  auto run = store.begin_run(info());
  CandidateRecord c{"c0", "elementwise", "h", nlohmann::json::object(), "/x", "ok", "", 0, {}, {}, {}, {}, 0, ""};
  store.record_candidate(run, c);
  EXPECT_THROW(store.record_candidate(run, c), std::runtime_error);
}

TEST(HistoryStore, RefusesADatabaseFromANewerVersion) {
  auto dir = test::temp_dir("history-newer");
  sqlite3* db = nullptr;
  sqlite3_open((dir / "h.sqlite").c_str(), &db);
  sqlite3_exec(db, "PRAGMA user_version = 99;", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  EXPECT_THROW(HistoryStore(dir / "h.sqlite"), UserError);
}

TEST(HistoryStore, NotADatabaseIsAClearError) {
  auto dir = test::temp_dir("history-garbage");
  std::ofstream(dir / "h.sqlite") << "this is not a database, just text that is long enough to have a header page";
  try {
    HistoryStore store(dir / "h.sqlite");
    FAIL() << "opened a text file as a database";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("h.sqlite"), std::string::npos);
  }
}

namespace {
// What version 1 wrote: the tables as kernelagent created them before candidates kept their reason.
constexpr const char* kVersion1 = R"sql(
CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at TEXT NOT NULL DEFAULT 'then', finished_at TEXT,
  command TEXT NOT NULL, problem_path TEXT NOT NULL, problem_hash TEXT NOT NULL, problem_signature TEXT NOT NULL,
  device TEXT NOT NULL, gpu TEXT NOT NULL, versions TEXT NOT NULL, precision TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'running', eager_us REAL, compile_us REAL, best_us REAL, best_family TEXT,
  best_config TEXT, result_json TEXT);
CREATE TABLE candidates (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL,
  family TEXT NOT NULL, family_hash TEXT NOT NULL, config TEXT NOT NULL, source_path TEXT NOT NULL,
  status TEXT NOT NULL, message TEXT NOT NULL, compile_ms REAL, max_abs_err REAL, median_us REAL, p10_us REAL,
  p90_us REAL, reps INTEGER NOT NULL DEFAULT 0, method TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT 'then', UNIQUE (run_id, name));
CREATE TABLE measurements (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), target TEXT NOT NULL,
  phase TEXT NOT NULL, status TEXT NOT NULL, median_us REAL, p10_us REAL, p90_us REAL,
  reps INTEGER NOT NULL DEFAULT 0, method TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL DEFAULT 'then');
INSERT INTO runs (command, problem_path, problem_hash, problem_signature, device, gpu, versions, precision)
  VALUES ('optimize', '/p/relu.py', 'abc', 'in0:float32[16x1000];aten.relu.default;', 'cuda', 'NVIDIA H200', '{}', 'strict');
INSERT INTO candidates (run_id, name, family, family_hash, config, source_path, status, message, median_us)
  VALUES (1, 'c0', 'elementwise', 'f00d', '{"num_warps":8}', '/o/c0.py', 'ok', '', 3100.0);
PRAGMA user_version = 1;
)sql";
}  // namespace

TEST(HistoryStore, MigratesAVersion1DatabaseAndKeepsItsRows) {
  auto dir = test::temp_dir("history-migrate");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "h.sqlite").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, kVersion1, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);

  HistoryStore store(dir / "h.sqlite");
  EXPECT_EQ(store.schema_version(), HistoryStore::kSchemaVersion);
  auto old = store.candidates(1);
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(old[0].reason, "");  // version 1 kept no reasons
  EXPECT_EQ(old[0].measured_on, "");  // nor the GPU that measured
  EXPECT_DOUBLE_EQ(*old[0].median_us, 3100.0);
  // The old rows are resumable, and new ones keep their reason.
  auto matching = store.candidates_matching({"abc", "cuda", "NVIDIA H200", "strict", "{}", "elementwise", "f00d"}, 0);
  ASSERT_EQ(matching.size(), 1u);
  EXPECT_EQ(matching[0].run_id, 1);
  CandidateRecord c{"c1", "elementwise", "f00d", {{"num_warps", 4}}, "/o/c1.py", "ok", "", 0, {}, {}, {}, {}, 0, ""};
  c.reason = "neighbour of a beam parent: num_warps=4";
  store.record_candidate(1, c);
  EXPECT_EQ(store.candidates(1).back().reason, c.reason);
  // Opening it again changes nothing.
  HistoryStore reopened(dir / "h.sqlite");
  EXPECT_EQ(reopened.schema_version(), HistoryStore::kSchemaVersion);
  EXPECT_EQ(reopened.candidates(1).size(), 2u);
}

TEST(HistoryStore, MigratesAVersion2DatabaseAndRecordsWhichSlotMeasured) {
  auto dir = test::temp_dir("history-migrate-v2");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "h.sqlite").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, kVersion1, nullptr, nullptr, nullptr), SQLITE_OK);
  // Version 2 as kernelagent migrated it: candidates with their reason.
  ASSERT_EQ(sqlite3_exec(db,
                         "ALTER TABLE candidates ADD COLUMN reason TEXT NOT NULL DEFAULT '';"
                         "UPDATE candidates SET reason = 'the default configuration'; PRAGMA user_version = 2;",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);

  HistoryStore store(dir / "h.sqlite");
  EXPECT_EQ(store.schema_version(), HistoryStore::kSchemaVersion);
  ASSERT_EQ(store.candidates(1).size(), 1u);
  EXPECT_EQ(store.candidates(1)[0].reason, "the default configuration");
  EXPECT_EQ(store.candidates(1)[0].measured_on, "");
  CandidateRecord c{"c1", "elementwise", "f00d", {{"num_warps", 4}}, "/o/c1.py", "ok", "", 0, {}, {}, {}, {}, 0, ""};
  c.measured_on = "gpu3";
  store.record_candidate(1, c);
  EXPECT_EQ(store.candidates(1).back().measured_on, "gpu3");
  store.record_measurement(1, {"c1", "final", "ok", 9.0, 8.0, 10.0, 5, "events", "gpu0"});
  sqlite3* check = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "h.sqlite").c_str(), &check), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(check, "SELECT measured_on FROM measurements WHERE target = 'c1';", -1, &st, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "gpu0");
  sqlite3_finalize(st);
  sqlite3_close(check);
}

TEST(HistoryStore, FinishedRunsAreThoseWithATimedBestOfTheFamilyOnTheGpu) {
  auto dir = test::temp_dir("history-finished");
  HistoryStore store(dir / "h.sqlite");
  nlohmann::json timed = {{"best", {{"family", "elementwise"}, {"config", {{"num_warps", 16}}}, {"median_us", 5.0}}}};
  nlohmann::json untimed = {{"best", {{"family", "elementwise"}, {"config", {{"num_warps", 4}}}}}};
  const auto a = store.begin_run(info());
  store.finish_run(a, "ok", timed);
  store.finish_run(store.begin_run(info()), "ok", untimed);  // checked on the interpreter only
  store.finish_run(store.begin_run(info()), "no_valid_kernel", nlohmann::json::object());
  store.begin_run(info());  // still running (or killed)
  auto runs = store.finished_runs("elementwise", "NVIDIA H200", "strict");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].id, a);
  EXPECT_EQ(runs[0].best_config.at("num_warps"), 16);
  EXPECT_DOUBLE_EQ(runs[0].best_us, 5.0);
  EXPECT_EQ(runs[0].problem_signature, info().problem_signature);
  EXPECT_TRUE(store.finished_runs("reduction", "NVIDIA H200", "strict").empty());
  EXPECT_TRUE(store.finished_runs("elementwise", "NVIDIA A100-SXM4-80GB", "strict").empty());
  EXPECT_TRUE(store.finished_runs("elementwise", "NVIDIA H200", "tf32").empty());
}

namespace {

// A connection of "another process": SQLite locks one connection against another in one process as it
// does across processes.
struct Raw {
  sqlite3* db = nullptr;
  explicit Raw(const std::filesystem::path& path) { sqlite3_open(path.c_str(), &db); }
  ~Raw() { sqlite3_close(db); }
  int exec(const std::string& sql) { return sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr); }
  std::string text(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    std::string out;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
  }
};

}  // namespace

TEST(HistoryStore, MigratesAVersion3DatabaseAndReadsTheSignalOfItsCrashes) {
  auto dir = test::temp_dir("history-migrate-v3");
  {
    Raw raw(dir / "h.sqlite");
    ASSERT_EQ(raw.exec(kVersion1), SQLITE_OK);
    ASSERT_EQ(
        raw.exec("ALTER TABLE candidates ADD COLUMN reason TEXT NOT NULL DEFAULT '';"
                 "ALTER TABLE candidates ADD COLUMN measured_on TEXT NOT NULL DEFAULT '';"
                 "ALTER TABLE measurements ADD COLUMN measured_on TEXT NOT NULL DEFAULT '';"
                 "INSERT INTO candidates (run_id, name, family, family_hash, config, source_path, status, message)"
                 "  VALUES (1, 'c1', 'elementwise', 'f00d', '{}', '/o/c1.py', 'crashed',"
                 "          'worker killed by signal 9 (Killed)'),"
                 "         (1, 'c2', 'elementwise', 'f00d', '{}', '/o/c2.py', 'crashed',"
                 "          'worker closed its input: worker killed by signal 11 (Segmentation fault)'),"
                 "         (1, 'c3', 'elementwise', 'f00d', '{}', '/o/c3.py', 'crashed', 'worker exited with code 7'),"
                 "         (1, 'c4', 'elementwise', 'f00d', '{}', '/o/c4.py', 'timeout', 'no reply within 0.0 s');"
                 "PRAGMA user_version = 3;"),
        SQLITE_OK);
  }
  HistoryStore store(dir / "h.sqlite");
  EXPECT_EQ(store.schema_version(), HistoryStore::kSchemaVersion);
  const auto c = store.candidates(1);
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(c[0].worker_signal, 0);  // ok
  EXPECT_EQ(c[1].worker_signal, 9);
  EXPECT_EQ(c[2].worker_signal, 11);
  EXPECT_EQ(c[3].worker_signal, 0);
  EXPECT_FALSE(c[4].timeout_s.has_value());  // the deadline of older rows is not known
  CandidateRecord t{"c5", "elementwise", "f00d", {}, "/o/c5.py", "timeout", "slow", 0, {}, {}, {}, {}, 0, ""};
  t.timeout_s = 0.25;
  store.record_candidate(1, t);
  EXPECT_DOUBLE_EQ(*store.candidates(1).back().timeout_s, 0.25);
}

TEST(HistoryStore, SeveralRunsOpeningOneNewDatabaseAtOnceAllMigrateIt) {
  // Each run reads the schema version, then waits for the write lock to migrate: all of them read
  // "nothing here yet" while another connection holds the lock, then go one after the other.
  auto dir = test::temp_dir("history-race");
  const auto path = dir / "h.sqlite";
  Raw holder(path);
  ASSERT_EQ(holder.exec("PRAGMA journal_mode=WAL;"), SQLITE_OK);
  ASSERT_EQ(holder.exec("BEGIN IMMEDIATE;"), SQLITE_OK);
  constexpr int kRuns = 4;
  std::atomic<int> opened{0};
  std::vector<std::string> errors(kRuns);
  std::vector<std::thread> runs;
  for (int i = 0; i < kRuns; ++i)
    runs.emplace_back([&, i] {
      try {
        HistoryStore store(path, std::chrono::seconds(20));
        store.begin_run(info());
        ++opened;
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(700));  // every run is waiting for the lock
  ASSERT_EQ(holder.exec("ROLLBACK;"), SQLITE_OK);
  for (auto& t : runs) t.join();
  for (const auto& e : errors) EXPECT_EQ(e, "");
  EXPECT_EQ(opened, kRuns);
  HistoryStore store(path);
  EXPECT_EQ(store.runs(10).size(), static_cast<std::size_t>(kRuns));
}

TEST(HistoryStore, ADatabaseWithASoundHeaderAndDamagedPagesIsRefusedWhenOpened) {
  auto dir = test::temp_dir("history-damaged");
  const auto path = dir / "h.sqlite";
  {
    HistoryStore store(path);
    for (int r = 0; r < 20; ++r) {
      const auto run = store.begin_run(info());
      for (int i = 0; i < 20; ++i) {
        CandidateRecord c{"c" + std::to_string(i), "elementwise", "f00d", {{"num_warps", i}}, "/o/c.py", "ok", ""};
        c.message = std::string(200, 'x');
        store.record_candidate(run, c);
      }
    }
  }  // the last connection checkpoints the WAL into the file
  const auto size = std::filesystem::file_size(path);
  ASSERT_GT(size, 8 * 4096u);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size / 2));
    const std::string garbage(3 * 4096, '\x5a');
    f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  try {
    HistoryStore store(path);
    store.runs(100);
    for (std::int64_t run = 1; run <= 20; ++run) store.candidates(run);
    FAIL() << "a damaged database was used without a word";
  } catch (const HistoryError& e) {
    EXPECT_EQ(e.code(), ExitCode::bad_input);
    const std::string what = e.what();
    EXPECT_NE(what.find("is damaged"), std::string::npos) << what;
    EXPECT_NE(what.find(path.string()), std::string::npos) << what;
  }
}

TEST(HistoryStore, ADatabaseLockedPastTheWaitFailsClearlyAfterOneMessage) {
  auto dir = test::temp_dir("history-locked");
  const auto path = dir / "h.sqlite";
  { HistoryStore create(path); }
  Raw holder(path);
  ASSERT_EQ(holder.exec("BEGIN EXCLUSIVE;"), SQLITE_OK);
  HistoryStore store(path, std::chrono::milliseconds(1500));  // opening only reads
  testing::internal::CaptureStderr();
  try {
    store.begin_run(info());
    FAIL() << "wrote to a database another connection holds";
  } catch (const HistoryError& e) {
    EXPECT_EQ(e.code(), ExitCode::environment);
    EXPECT_NE(std::string(e.what()).find("stayed locked by another process"), std::string::npos) << e.what();
  }
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("is locked by another process; waiting up to 2 s"), std::string::npos) << said;
  EXPECT_EQ(said.find("waiting"), said.rfind("waiting")) << "said more than once: " << said;
  holder.exec("ROLLBACK;");
}

TEST(HistoryStore, ALockReleasedWithinTheWaitIsWaitedFor) {
  auto dir = test::temp_dir("history-wait");
  const auto path = dir / "h.sqlite";
  { HistoryStore create(path); }
  Raw holder(path);
  ASSERT_EQ(holder.exec("BEGIN EXCLUSIVE;"), SQLITE_OK);
  HistoryStore store(path, std::chrono::seconds(20));
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1300));
    holder.exec("ROLLBACK;");
  });
  testing::internal::CaptureStderr();
  EXPECT_GT(store.begin_run(info()), 0);
  const std::string said = testing::internal::GetCapturedStderr();
  release.join();
  EXPECT_NE(said.find("waiting up to 20 s"), std::string::npos) << said;
}

TEST(HistoryStore, ARunWhoseProcessIsGoneIsListedAsInterrupted) {
  auto dir = test::temp_dir("history-interrupted");
  const auto path = dir / "h.sqlite";
  std::int64_t gone = 0, alive = 0, elsewhere = 0;
  {
    HistoryStore store(path);
    gone = store.begin_run(info());
    alive = store.begin_run(info());
    elsewhere = store.begin_run(info());
  }
  {
    Raw raw(path);
    // Same pid, another start: the pid was reused by another process after this run's was killed.
    ASSERT_EQ(raw.exec("UPDATE runs SET process_start = 'another-boot:1' WHERE id = " + std::to_string(gone)),
              SQLITE_OK);
    // On another host its process cannot be looked at: it stays running.
    ASSERT_EQ(raw.exec("UPDATE runs SET host = 'elsewhere', process_start = 'another-boot:1' WHERE id = " +
                       std::to_string(elsewhere)),
              SQLITE_OK);
  }
  HistoryStore store(path);
  std::map<std::int64_t, RunSummary> by_id;
  for (const auto& r : store.runs(10)) by_id[r.id] = r;
  EXPECT_EQ(by_id.at(gone).status, "interrupted");
  EXPECT_EQ(by_id.at(alive).status, "running");
  EXPECT_EQ(by_id.at(alive).pid, ::getpid());
  EXPECT_FALSE(by_id.at(alive).host.empty());
  EXPECT_EQ(by_id.at(elsewhere).status, "running");
  Raw raw(path);  // marked so in the database, not only in the listing
  EXPECT_EQ(raw.text("SELECT status FROM runs WHERE id = " + std::to_string(gone)), "interrupted");
}

#include "kernelagent/history/history_store.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

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
  EXPECT_EQ(store.schema_version(), 3);
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
  EXPECT_EQ(reopened.schema_version(), 3);
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
  EXPECT_EQ(store.schema_version(), 3);
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

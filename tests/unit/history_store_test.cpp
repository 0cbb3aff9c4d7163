#include <gtest/gtest.h>
#include <sqlite3.h>

#include "kernelagent/core/error.hpp"
#include "kernelagent/history/history_store.hpp"
#include "test_data.hpp"

using namespace kernelagent;

namespace {
RunInfo info() { return {"optimize", "/p/relu.py", "abc", "in0:float32[16x1000];aten.relu.default;", "cuda", "NVIDIA H200", "{}", "strict"}; }
}

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
    CandidateRecord ok{"c0", "elementwise", "f00d", {{"num_warps", 8}}, "/o/c0.py", "ok", "", 12.5, 0.0, 3100.0, 3090.0, 3120.0, 30, "events"};
    CandidateRecord bad{"c1", "elementwise", "f00d", {{"num_warps", 16}}, "/o/c1.py", "crashed", "worker killed by signal 11", 0, std::nullopt, std::nullopt, std::nullopt, std::nullopt, 0, ""};
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

  nlohmann::json result = {{"baselines", {{"eager", {{"median_us", 3200.0}}}, {"compile", {{"status", "compile_error"}}}}},
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

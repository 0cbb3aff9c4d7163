// Worker slots with the stand-in worker: a batch measured on every slot at once, a slot that cannot start
// or whose worker does not come back taken out of the pool while the others go on, and a clear error when
// none is left. Configurations come from the elementwise family's knob space for the recorded ReLU trace.

#include "kernelagent/explore/worker_pool.hpp"

#include <gtest/gtest.h>

#include <set>

#include "fake_worker.hpp"
#include "kernelagent/core/error.hpp"
#include "kernelagent/explore/worker_executor.hpp"
#include "family_support.hpp"
#include "test_data.hpp"

namespace kernelagent {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

WorkerTimeouts fast() {
  WorkerTimeouts t;
  t.start = 20s;
  t.compile = t.check = 5s;
  return t;
}

// A home worker (the stand-in in `home_mode`) and the pieces an executor needs.
struct PoolBench {
  test::FakeWorker home_fake;
  std::vector<std::unique_ptr<Family>> families = load_families(test::source_dir() / "families");
  const Family* family = nullptr;
  TraceResult trace = test::family_trace("elementwise", "19_ReLU");
  std::shared_ptr<const FamilyProblem> problem;
  std::vector<Config> valid;
  HistoryStore history;
  WorkerClient home;
  std::int64_t run = 0;

  PoolBench(const std::string& name, const std::string& home_mode = "")
      : home_fake(name, home_mode), history(home_fake.dir / "h.sqlite"), home(home_fake.command, fast()) {
    family = find_family(families, "elementwise");
    problem = test::recognised(*family, trace);
    for (const auto& c : family->knob_space().enumerate())
      if (problem->valid(c, nullptr, Precision::strict)) valid.push_back(c);
    home.start();
    run = history.begin_run({"optimize", "/p/relu.py", "h", trace.signature(), "cpu", "", "{}", "strict"});
  }
  WorkerExecutor executor(WorkerPool& pool) {
    fs::create_directories(home_fake.dir / "o");
    return WorkerExecutor(pool, history, run, *problem, {home_fake.dir / "o", "relu.py", {}, {1, 2, 3}, 100, 50});
  }
  std::vector<Proposal> proposals(std::size_t from, std::size_t n) const {
    std::vector<Proposal> out;
    for (std::size_t i = from; i < from + n; ++i) out.emplace_back(valid.at(i), "test");
    return out;
  }
};

TEST(WorkerPool, ABatchIsMeasuredOnEverySlotAtOnceAndEachCandidateSaysWhere) {
  PoolBench b("pool-batch", "slow");
  test::FakeWorker other("pool-batch-1", "slow");
  WorkerPool pool(b.home, "cpu0", {{"cpu1", other.command}}, fast());
  pool.start_others();
  ASSERT_EQ(pool.live(), 2);
  pool.load_others("/p/relu.py", 0);
  WorkerExecutor exec = b.executor(pool);
  EXPECT_EQ(exec.capacity(), 2);
  const auto results = exec.measure_batch(b.proposals(0, 2));
  ASSERT_EQ(results.size(), 2u);
  for (const auto& m : results) EXPECT_TRUE(m.passed());
  // Each slot compiled one of the two (each takes 0.4 s, so the free slot takes the second).
  EXPECT_EQ(b.home_fake.count_op("compile"), 1);
  EXPECT_EQ(other.count_op("compile"), 1);
  EXPECT_EQ(other.count_op("load"), 1);
  // Named in the batch's order, and recorded with the slot that measured each.
  ASSERT_EQ(exec.measured().size(), 2u);
  EXPECT_EQ(exec.measured()[0].name, "c0");
  EXPECT_EQ(exec.measured()[1].name, "c1");
  EXPECT_EQ(exec.measured()[0].config, b.valid[0]);
  const std::set<std::string> where = {exec.measured()[0].measured_on, exec.measured()[1].measured_on};
  EXPECT_EQ(where, (std::set<std::string>{"cpu0", "cpu1"}));
  const auto stored = b.history.candidates(b.run);
  ASSERT_EQ(stored.size(), 2u);
  for (const auto& c : stored) EXPECT_TRUE(c.measured_on == "cpu0" || c.measured_on == "cpu1") << c.measured_on;
  EXPECT_EQ(pool.slot(0).measured + pool.slot(1).measured, 2);
}

TEST(WorkerPool, ASlotThatCannotStartIsTakenOutWithOneMessageAndTheRunGoesOn) {
  PoolBench b("pool-nostart");
  test::FakeWorker bad("pool-nostart-1", "nohello");
  WorkerPool pool(b.home, "gpu0", {{"gpu1", bad.command}}, fast());
  std::vector<std::string> said;
  pool.on_notice = [&](const std::string& m) { said.push_back(m); };
  pool.start_others();
  EXPECT_EQ(pool.live(), 1);
  EXPECT_TRUE(pool.retired(1));
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0].find("gpu1 is taken out of the pool"), std::string::npos) << said[0];
  EXPECT_NE(said[0].find("3 times"), std::string::npos) << said[0];
  EXPECT_NE(said[0].find("goes on with 1 slot"), std::string::npos) << said[0];
  EXPECT_EQ(pool.notices(), said);
  WorkerExecutor exec = b.executor(pool);
  EXPECT_EQ(exec.capacity(), 1);
  const auto results = exec.measure_batch(b.proposals(0, 1));
  EXPECT_TRUE(results.at(0).passed());
  EXPECT_EQ(exec.measured()[0].measured_on, "gpu0");
  EXPECT_EQ(pool.home(), 0);
}

TEST(WorkerPool, ASlotWhoseWorkerDoesNotComeBackIsRetiredAndItsCandidatesAreMeasuredElsewhere) {
  PoolBench b("pool-goes-away", "slow");
  // Starts, crashes on its first compile (that candidate's own status), then never starts again.
  test::FakeWorker flaky("pool-goes-away-1", "once,crash");
  WorkerPool pool(b.home, "cpu0", {{"cpu1", flaky.command}}, fast());
  std::vector<std::string> said;
  pool.on_notice = [&](const std::string& m) { said.push_back(m); };
  pool.start_others();
  pool.load_others("/p/relu.py", 0);
  ASSERT_EQ(pool.live(), 2);
  WorkerExecutor exec = b.executor(pool);
  std::size_t next = 0;
  std::vector<Measurement> all;
  for (int batch = 0; batch < 5 && !pool.retired(1); ++batch) {
    const auto r = exec.measure_batch(b.proposals(next, 2));
    all.insert(all.end(), r.begin(), r.end());
    next += 2;
  }
  ASSERT_TRUE(pool.retired(1));
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0].find("cpu1 is taken out of the pool: its worker failed 3 times in a row"), std::string::npos)
      << said[0];
  // Nothing was lost: every proposal has its result; only the crash is a failure, and it is cpu1's.
  ASSERT_EQ(all.size(), next);
  ASSERT_EQ(exec.measured().size(), next);
  int crashed = 0;
  for (const auto& c : exec.measured()) {
    if (c.status == "crashed") {
      ++crashed;
      EXPECT_EQ(c.measured_on, "cpu1");
    } else {
      EXPECT_EQ(c.status, "ok") << c.name << " " << c.message;
    }
  }
  EXPECT_EQ(crashed, 1);
  // The run goes on with the home slot alone.
  EXPECT_EQ(exec.capacity(), 1);
  EXPECT_TRUE(exec.measure_batch(b.proposals(next, 2)).at(1).passed());
}

TEST(WorkerPool, WhenNoSlotIsLeftTheBatchStopsWithAClearError) {
  PoolBench b("pool-none-left", "once,crash");
  WorkerPool pool(b.home);
  pool.on_notice = [](const std::string&) {};
  WorkerExecutor exec = b.executor(pool);
  EXPECT_EQ(exec.measure_batch(b.proposals(0, 1)).at(0).status, "crashed");  // the candidate's own crash
  try {
    exec.measure_batch(b.proposals(1, 1));
    FAIL() << "measured with no worker";
  } catch (const UserError& e) {
    EXPECT_EQ(e.code(), ExitCode::environment);
    EXPECT_NE(std::string(e.what()).find("every worker slot was taken out of the pool"), std::string::npos) << e.what();
  }
  EXPECT_EQ(b.history.candidates(b.run).size(), 1u);  // what was measured stays recorded
}

TEST(WorkerPool, SlotLabelsNameTheGpuOrTheRayNode) {
  EXPECT_EQ(label_from_hello({{"device", "cuda"}}, "gpu2"), "gpu2");
  EXPECT_EQ(label_from_hello({{"ray", {{"node", "10.0.0.5"}, {"gpu_ids", {"3"}}, {"slot", 1}}}}, "x"),
            "ray:10.0.0.5/gpu3");
  EXPECT_EQ(
      label_from_hello({{"ray", {{"node", "127.0.0.1"}, {"gpu_ids", nlohmann::json::array()}, {"slot", 1}}}}, "x"),
      "ray:127.0.0.1/cpu1");
}

}  // namespace
}  // namespace kernelagent

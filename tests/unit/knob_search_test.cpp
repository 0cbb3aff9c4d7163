// The live search step of optimize: the worker-backed executor (on the stand-in worker), resuming what
// earlier runs measured, and the warm start from a similar problem. Configurations come from the family's
// knob space as its manifest declares it, never from knob values written here.

#include "kernelagent/orchestrate/knob_search.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <set>

#include "fake_worker.hpp"
#include "family_support.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/explore/compile_pool.hpp"
#include "kernelagent/explore/sweep_record.hpp"
#include "kernelagent/explore/worker_executor.hpp"
#include "kernelagent/orchestrate/resume.hpp"
#include "kernelagent/orchestrate/warm_start.hpp"
#include "test_data.hpp"

namespace kernelagent {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

// One problem (the recorded ReLU trace) under one set of conditions, with the stand-in worker.
struct Bench {
  test::FakeWorker fake;
  fs::path dir;
  std::vector<std::unique_ptr<Family>> families = load_families(test::source_dir() / "families");
  const Family* family = nullptr;
  TraceResult trace = test::family_trace("elementwise", "19_ReLU");
  std::shared_ptr<const FamilyProblem> problem;
  std::vector<Config> valid;
  HistoryStore history;
  WorkerClient worker;

  explicit Bench(const std::string& name, const std::string& mode = "")
      : fake(name, mode), dir(fake.dir), history(fake.dir / "h.sqlite"), worker(fake.command, timeouts()) {
    family = find_family(families, "elementwise");
    problem = test::recognised(*family, trace);
    for (const auto& c : family->knob_space().enumerate())
      if (problem->valid(c, nullptr, Precision::strict)) valid.push_back(c);
    worker.start();
  }
  static WorkerTimeouts timeouts() {
    WorkerTimeouts t;
    t.start = 20s;
    return t;
  }
  CandidateKey key() const {
    return {"relu-hash", "cpu", "", "strict", R"({"python":"3"})", family->name(), family->source_hash()};
  }
  std::int64_t begin_run() {
    return history.begin_run(
        {"optimize", "/p/relu.py", "relu-hash", trace.signature(), "cpu", "", R"({"python":"3"})", "strict"});
  }
  WorkerExecutor executor(std::int64_t run, const std::string& out) {
    fs::create_directories(dir / out);
    return WorkerExecutor(worker, history, run, *problem, {dir / out, "relu.py", {}, {1, 2, 3}, 100, 50});
  }
  KnobSearchRequest request(int max_trials, const std::string& strategy = "exhaustive") const {
    KnobSearchRequest r;
    r.strategy = strategy;
    r.limits.max_trials = max_trials;
    r.key = key();
    r.signature = trace.signature();
    r.valid = valid;
    return r;
  }
  // One optimize's search: resume, then measure up to the budget.
  KnobSearchOutcome search(const KnobSearchRequest& req, const std::string& out) {
    const auto run = begin_run();
    WorkerExecutor exec = executor(run, out);
    SearchStart start = start_search(req, family->knob_space(), exec, history, run);
    return run_knob_search(req, family->knob_space(), std::move(start), exec);
  }
};

TEST(CompileAhead, EachConfigurationIsCompiledOnceInThePoolAsTheSourceTheSearchWillMeasure) {
  Bench b("compile-ahead");
  ASSERT_GE(b.valid.size(), 3u);
  const std::vector<Config> configs(b.valid.begin(), b.valid.begin() + 3);
  const auto run = b.begin_run();
  WorkerExecutor exec = b.executor(run, "o");
  int replies = 0;
  auto make = [&]() { return std::make_unique<WorkerClient>(b.fake.command, Bench::timeouts()); };
  const AheadOutcome out = compile_ahead(configs, exec, make, 2, b.dir / "problem.py", [&](const Reply&) { ++replies; });
  EXPECT_EQ(out.pool.workers, 2);
  EXPECT_EQ(out.failed, 0);
  EXPECT_EQ(replies, 3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(b.fake.count("compile ahead-" + std::to_string(i)), 1) << i;
  // The search's candidate for the same configuration is the same source: Triton's cache key is the
  // kernel's source and constants, so the timing worker's compile of c0 finds what ahead-0 compiled.
  exec.measure(configs[0], "the default configuration");
  EXPECT_EQ(read_text_file(b.dir / "o" / "c0.py"), read_text_file(b.dir / "o" / "ahead-0.py"));
  EXPECT_TRUE(b.history.candidates(run).size() == 1u);  // nothing compiled ahead is a candidate
}

TEST(CompileAhead, ThePoolIsSizedByTheGpuMemoryEachWorkerNeeds) {
  const double h200 = 141e9;
  EXPECT_EQ(pool_size_for_memory(8, 12.9e9, h200), 1);   // softmax 4096 x 393216: one more worker fits
  EXPECT_EQ(pool_size_for_memory(8, 268e6 * 2, h200), 8);  // a 268 MB reduction: all eight
  EXPECT_EQ(pool_size_for_memory(8, 2e9, h200), 8);
  EXPECT_EQ(pool_size_for_memory(8, 4e9, h200), 5);
  EXPECT_EQ(pool_size_for_memory(3, 1e6, 0), 3);  // the GPU's memory unknown: as asked
}

TEST(WorkerExecutor, AConfigurationWhoseKernelCannotBeWrittenIsACompileErrorAndTheBatchGoesOn) {
  Bench b("exec-emit-fails");
  ASSERT_GE(b.valid.size(), 1u);
  const auto run = b.begin_run();
  WorkerExecutor exec = b.executor(run, "o");
  Config broken = b.valid[0];
  broken.erase("num_warps");  // the family's emission reads every knob: this one throws
  const auto out = exec.measure_batch({{broken, "a broken configuration"}, {b.valid[0], "the default"}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].status, "compile_error");
  EXPECT_TRUE(out[1].passed());
  EXPECT_EQ(b.fake.count("compile c0"), 0);  // nothing was sent to the worker for it
  EXPECT_EQ(b.fake.count("compile c1"), 1);
  auto stored = b.history.candidates(run);
  ASSERT_EQ(stored.size(), 2u);
  const auto& failed = stored[0].name == "c0" ? stored[0] : stored[1];
  EXPECT_EQ(failed.status, "compile_error");
  EXPECT_NE(failed.message.find("could not write this configuration's kernel"), std::string::npos);
}

TEST(WorkerExecutor, EmitsCompilesChecksAndRecordsWithTheReason) {
  Bench b("exec-measure");
  ASSERT_GE(b.valid.size(), 2u);
  const auto run = b.begin_run();
  WorkerExecutor exec = b.executor(run, "o");
  Measurement m = exec.measure(b.valid[1], "because the test asked");
  // The interpreter times nothing: passed, untimed; the search cannot rank it but the run can return it.
  EXPECT_TRUE(m.passed());
  EXPECT_FALSE(m.ok());
  EXPECT_EQ(b.fake.count("compile c0"), 1);
  EXPECT_EQ(b.fake.count("check c0"), 1);
  EXPECT_EQ(b.fake.count_op("time"), 0);
  auto stored = b.history.candidates(run);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].name, "c0");
  EXPECT_EQ(stored[0].config, b.valid[1]);
  EXPECT_EQ(stored[0].reason, "because the test asked");
  EXPECT_EQ(stored[0].status, "ok");
  EXPECT_TRUE(fs::is_regular_file(stored[0].source_path));
  EXPECT_NE(read_text_file(stored[0].source_path).find("ModelNew"), std::string::npos);
  // What the compile reply says each kernel takes stays with the run's record, not in the history.
  ASSERT_EQ(exec.measured().size(), 1u);
  ASSERT_EQ(exec.measured()[0].kernels.size(), 1u);
  EXPECT_EQ(exec.measured()[0].kernels[0].at("registers"), 40);
  EXPECT_TRUE(stored[0].kernels.empty());
}

TEST(Resume, TrialsLoadedFromTheHistoryAreNotMeasuredAgain) {
  Bench b("resume");
  ASSERT_GE(b.valid.size(), 5u);
  // A first run measures 3 configurations (as if killed there: it never finishes).
  KnobSearchOutcome first = b.search(b.request(3), "first");
  ASSERT_EQ(first.trials.size(), 3u);
  EXPECT_EQ(b.fake.count_op("compile"), 3);

  // The same search again with a budget of 5: 3 resumed, 2 measured, none of them twice.
  KnobSearchOutcome second = b.search(b.request(5), "second");
  ASSERT_EQ(second.trials.size(), 5u);
  EXPECT_EQ(b.fake.count_op("compile"), 5);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < second.trials.size(); ++i) {
    const auto& t = second.trials[i];
    EXPECT_TRUE(seen.insert(t.candidate.config.dump()).second) << "measured twice: " << t.candidate.config;
    EXPECT_EQ(t.candidate.name, "c" + std::to_string(i));  // this run's names, resumed ones first
    EXPECT_EQ(t.resumed_from_run != 0, i < 3);
    EXPECT_TRUE(fs::is_regular_file(b.dir / "second" / (t.candidate.name + ".py")));  // sources written here too
  }
  EXPECT_EQ(second.trials[0].resumed_from_name, first.trials[0].candidate.name);
  EXPECT_EQ(second.trials[0].candidate.reason, first.trials[0].candidate.reason);
  // The second run's history holds only what it measured.
  EXPECT_EQ(b.history.candidates(2).size(), 2u);

  // Everything already measured within the budget: nothing is.
  KnobSearchOutcome third = b.search(b.request(5, "guided"), "third");
  EXPECT_EQ(third.trials.size(), 5u);
  EXPECT_EQ(third.stop_reason, "trial budget");
  EXPECT_EQ(b.fake.count_op("compile"), 5);

  // --fresh measures again.
  KnobSearchRequest fresh = b.request(2);
  fresh.fresh = true;
  KnobSearchOutcome again = b.search(fresh, "fresh");
  EXPECT_EQ(again.trials.size(), 2u);
  EXPECT_EQ(again.trials[0].resumed_from_run, 0);
  EXPECT_EQ(b.fake.count_op("compile"), 7);
}

TEST(Resume, OnlyCandidatesMeasuredUnderTheSameConditionsAreResumed) {
  Bench b("resume-key");
  b.search(b.request(2), "first");
  for (auto change : {&CandidateKey::problem_hash, &CandidateKey::device, &CandidateKey::gpu, &CandidateKey::precision,
                      &CandidateKey::versions, &CandidateKey::family, &CandidateKey::family_hash}) {
    CandidateKey other = b.key();
    other.*change += "-other";
    EXPECT_TRUE(plan_resume(b.history, other, 0, b.valid, 180).taken_over.empty());
  }
  EXPECT_EQ(plan_resume(b.history, b.key(), 0, b.valid, 180).taken_over.size(), 2u);
  EXPECT_TRUE(plan_resume(b.history, b.key(), 1, b.valid, 180).taken_over.empty());  // a run never resumes itself
  // A configuration this search may not measure is not taken over.
  EXPECT_EQ(plan_resume(b.history, b.key(), 0, {b.valid[0]}, 180).taken_over.size(), 1u);
}

TEST(Resume, AConfigurationMeasuredTwiceIsResumedOnceWithItsNewestResult) {
  Bench b("resume-newest");
  const auto r1 = b.begin_run();
  CandidateRecord old{"c0", b.family->name(), b.family->source_hash(), b.valid[0], "/a", "timeout", "slow", 0};
  b.history.record_candidate(r1, old);
  const auto r2 = b.begin_run();
  CandidateRecord again = old;
  again.status = "ok";
  again.message = "";
  b.history.record_candidate(r2, again);
  auto resumed = plan_resume(b.history, b.key(), 0, b.valid, 180).taken_over;
  ASSERT_EQ(resumed.size(), 1u);
  EXPECT_EQ(resumed[0].run_id, r2);
  EXPECT_EQ(resumed[0].record.status, "ok");
}

TEST(Resume, ATimeoutIsMeasuredAgainUnderALongerTimeoutAndTheTrialSaysWhy) {
  Bench b("resume-timeout", "slow");  // every compile takes 0.4 s
  const KnobSpace& space = b.family->knob_space();
  auto search_under = [&](std::chrono::milliseconds deadline, const std::string& out) {
    WorkerTimeouts t = Bench::timeouts();
    t.compile = t.check = deadline;
    WorkerClient worker(b.fake.command, t);
    worker.start();
    const auto run = b.begin_run();
    fs::create_directories(b.dir / out);
    WorkerExecutor exec(worker, b.history, run, *b.problem, {b.dir / out, "relu.py", {}, {1, 2, 3}, 100, 50});
    KnobSearchRequest req = b.request(1, "guided");
    req.timeout_s = static_cast<double>(deadline.count()) / 1000.0;
    SearchStart start = start_search(req, space, exec, b.history, run);
    std::vector<MeasureAgain> measure_again = start.measure_again;
    return std::make_pair(measure_again, run_knob_search(req, space, std::move(start), exec));
  };
  // `optimize --timeout 0.1`: the default configuration times out, and the history keeps the deadline.
  auto [none, first] = search_under(100ms, "first");
  EXPECT_TRUE(none.empty());
  ASSERT_EQ(first.trials.size(), 1u);
  EXPECT_EQ(first.trials[0].candidate.status, "timeout");
  ASSERT_TRUE(b.history.candidates(1).at(0).timeout_s.has_value());
  EXPECT_DOUBLE_EQ(*b.history.candidates(1).at(0).timeout_s, 0.1);
  // Under the same deadline the timeout is the candidate's verdict: taken over.
  EXPECT_EQ(plan_resume(b.history, b.key(), 0, b.valid, 0.1).taken_over.size(), 1u);
  // `optimize --timeout 10`: not taken over, measured again, and said so.
  auto [again, second] = search_under(10s, "second");
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].why, "timed out under --timeout 0.1 s in run 1");
  ASSERT_EQ(second.trials.size(), 1u);
  const SearchTrial& t = second.trials[0];
  EXPECT_EQ(t.resumed_from_run, 0);
  EXPECT_EQ(t.candidate.status, "ok");
  EXPECT_EQ(t.candidate.config, first.trials[0].candidate.config);
  ASSERT_TRUE(t.measured_again.has_value());
  EXPECT_EQ(t.measured_again->stored.run_id, 1);
  EXPECT_EQ(t.measured_again->why, "timed out under --timeout 0.1 s in run 1");
  EXPECT_EQ(b.fake.count_op("compile"), 2);
  // Its new result, under the longer deadline, is what a third run takes over.
  const ResumePlan third = plan_resume(b.history, b.key(), 0, b.valid, 10);
  ASSERT_EQ(third.taken_over.size(), 1u);
  EXPECT_EQ(third.taken_over[0].record.status, "ok");
  EXPECT_TRUE(third.measure_again.empty());
}

TEST(Resume, OnlyFailuresFromOutsideTheCandidateAreMeasuredAgain) {
  Bench b("resume-outside");
  ASSERT_GE(b.valid.size(), 9u);
  const auto run = b.begin_run();
  auto record = [&](std::size_t i, const std::string& status, int signal, std::optional<double> timeout_s) {
    CandidateRecord c{
        "c" + std::to_string(i), b.family->name(), b.family->source_hash(), b.valid[i], "/a", status, "", 0};
    c.worker_signal = signal;
    c.timeout_s = timeout_s;
    b.history.record_candidate(run, c);
  };
  record(0, "crashed", SIGKILL, 180.0);   // the OOM killer or an operator: measured again
  record(1, "crashed", SIGTERM, 180.0);   // ended from outside: measured again
  record(2, "crashed", SIGSEGV, 180.0);   // its own fault: a verdict
  record(3, "crashed", 0, 180.0);         // exited with a code: a verdict
  record(4, "timeout", 0, 180.0);         // as long a deadline as this run's: a verdict
  record(5, "timeout", 0, std::nullopt);  // under a deadline nobody recorded: measured again
  record(6, "wrong_result", 0, 1.0);      // verdicts whatever the deadline
  record(7, "cheat_torch_compute", 0, 1.0);
  record(8, "compile_error", 0, 1.0);
  const ResumePlan plan = plan_resume(b.history, b.key(), 0, b.valid, 180);
  std::vector<std::string> again, taken;
  for (const auto& m : plan.measure_again) again.push_back(m.stored.record.name + ": " + m.why);
  for (const auto& s : plan.taken_over) taken.push_back(s.record.name);
  EXPECT_EQ(again,
            (std::vector<std::string>{"c0: its worker was killed by SIGKILL in run 1, from outside the candidate",
                                      "c1: its worker was killed by SIGTERM in run 1, from outside the candidate",
                                      "c5: timed out in run 1 under a --timeout the history did not record"}));
  EXPECT_EQ(taken, (std::vector<std::string>{"c2", "c3", "c4", "c6", "c7", "c8"}));
}

TEST(Resume, AWorkerKilledWhileMeasuringIsRecordedWithItsSignal) {
  Bench b("resume-signal", "crash");  // the worker dies of SIGSEGV at its first compile
  const auto run = b.begin_run();
  WorkerExecutor exec = b.executor(run, "o");
  exec.measure(b.valid[0], "because the test asked");
  const auto stored = b.history.candidates(run);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].status, "crashed");
  EXPECT_EQ(stored[0].worker_signal, SIGSEGV);
}

TEST(Resume, AResumedFinalistIsRebuiltUnderItsNewName) {
  Bench b("resume-rebuild");
  b.search(b.request(1), "first");
  const auto run = b.begin_run();
  WorkerExecutor exec = b.executor(run, "second");
  SearchStart start = start_search(b.request(1), b.family->knob_space(), exec, b.history, run);
  ASSERT_EQ(start.resumed.size(), 1u);
  EXPECT_TRUE(exec.rebuild(start.resumed[0].candidate).ok());
  EXPECT_EQ(b.fake.count("compile c0"), 2);  // once measured by the first run, once rebuilt
  EXPECT_EQ(b.fake.count("check c0"), 2);
  EXPECT_TRUE(b.history.candidates(run).empty());  // a rebuild is not a new candidate
}

TEST(WarmStart, SignatureDistanceComparesShapesOfTheSameOps) {
  const std::string a = "in0:float32[4096x8192];aten.relu.default;";
  EXPECT_EQ(signature_distance(a, a), 0.0);
  EXPECT_DOUBLE_EQ(*signature_distance(a, "in0:float32[4096x4096];aten.relu.default;"), 1.0);
  EXPECT_DOUBLE_EQ(*signature_distance(a, "in0:float32[8192];aten.relu.default;"), 12.0);  // rank padded with 1s
  EXPECT_DOUBLE_EQ(*signature_distance(a, "in0:float16[4096x8192];aten.relu.default;"), 1.0);
  EXPECT_FALSE(signature_distance(a, "in0:float32[4096x8192];aten.sigmoid.default;"));
  EXPECT_FALSE(signature_distance(a, "in0:float32[4096x8192];in1:float32[4096x8192];aten.relu.default;"));
  EXPECT_DOUBLE_EQ(*signature_distance("in0:float32[8x8];in1=1;aten.sum.dim_IntList;",
                                       "in0:float32[8x8];in1=0;aten.sum.dim_IntList;"),
                   1.0);
}

TEST(WarmStart, AStoredConfigurationIsTakenIntoTodaysSpace) {
  KnobSpace space;
  space.knobs = {{"a", {1, 2}, 1, {}, ""}, {"b", {"x", "y"}, "x", {}, ""}};
  EXPECT_EQ(in_space({{"a", 2}, {"b", "y"}}, space), Config({{"a", 2}, {"b", "y"}}));
  EXPECT_EQ(in_space({{"a", 2}}, space), Config({{"a", 2}, {"b", "x"}}));               // a knob gained since
  EXPECT_EQ(in_space({{"a", 2}, {"gone", 3}}, space), Config({{"a", 2}, {"b", "x"}}));  // a knob removed since
  EXPECT_EQ(in_space({{"a", 7}, {"b", "y"}}, space), Config({{"a", 1}, {"b", "y"}}));   // outside the domain
}

TEST(WarmStart, TheBestsOfTheNearestRunsComeRightAfterTheDefaultSameOpsFirst) {
  Bench b("warm");
  ASSERT_GE(b.valid.size(), 5u);
  const std::string sig = b.trace.signature();
  std::string near_sig = sig, far_sig = sig, other_ops = sig;
  // The same ops at other shapes: double and sixteen times the first dimension of the input.
  const auto open = sig.find('[') + 1, end = sig.find_first_of("x]", open);
  const long d0 = std::stol(sig.substr(open, end - open));
  near_sig.replace(open, end - open, std::to_string(d0 * 2));
  far_sig.replace(open, end - open, std::to_string(d0 * 16));
  // Another op of the family at this very shape: ranked after every run with the same ops.
  other_ops.replace(other_ops.find("aten."), std::string::npos, "aten.other_op.default;");
  std::vector<FinishedRun> runs = {
      {10, "h10", other_ops, b.valid[4], 1.0},
      {9, "h9", "in0:float32[16x16];in1:float32[16x16];aten.mm.default;", b.valid[3], 1.0},  // 2 inputs: never
      {8, "h8", far_sig, b.valid[2], 5.0},
      {7, "h7", near_sig, b.valid[1], 9.0},
  };
  auto warm = warm_starts_for(runs, sig, b.family->knob_space(), b.valid);
  ASSERT_EQ(warm.size(), 3u);
  EXPECT_EQ(warm[0].run_id, 7);
  EXPECT_EQ(warm[0].config, b.valid[1]);
  EXPECT_EQ(warm[0].reason.rfind("warm start from run 7", 0), 0u) << warm[0].reason;
  EXPECT_EQ(warm[1].run_id, 8);
  EXPECT_EQ(warm[2].run_id, 10);
  EXPECT_EQ(warm_starts_for(runs, sig, b.family->knob_space(), b.valid, 1).size(), 1u);
  // A best that is the default, or one already proposed, adds nothing.
  runs[3].best_config = b.valid[0];
  runs[2].best_config = b.valid[4];
  warm = warm_starts_for(runs, sig, b.family->knob_space(), b.valid);
  ASSERT_EQ(warm.size(), 1u);
  EXPECT_EQ(warm[0].run_id, 8);
  EXPECT_TRUE(warm_starts_for({runs[1]}, sig, b.family->knob_space(), b.valid).empty());
}

TEST(MoveStats, CountsOneKnobPairsOfARunInBothDirections) {
  MoveStats stats;
  EXPECT_TRUE(stats.empty());
  EXPECT_DOUBLE_EQ(stats.score("w", 4), 0.5);
  stats.add_run({{{{"w", 8}, {"s", 3}}, 10.0},
                 {{{"w", 4}, {"s", 3}}, 8.0},    // w 8 -> 4 helped
                 {{{"w", 4}, {"s", 4}}, 7.99},   // s 3 -> 4 within 1 %: helped neither way
                 {{{"w", 8}, {"s", 4}}, 12.0}});  // two knobs from the first: not a move
  EXPECT_EQ(stats.counts("w", 4), std::make_pair(2, 2));  // from (8,3) and from (8,4)
  EXPECT_EQ(stats.counts("w", 8), std::make_pair(0, 2));
  EXPECT_EQ(stats.counts("s", 4), std::make_pair(0, 2));
  EXPECT_EQ(stats.counts("s", 3), std::make_pair(1, 2));  // (8,4) -> (8,3): 12 -> 10
  EXPECT_DOUBLE_EQ(stats.score("w", 4), 0.75);
  EXPECT_DOUBLE_EQ(stats.score("w", 8), 0.25);
}

TEST(MoveStats, GuidedTriesTheMoveThatHelpedMostOftenFirst) {
  SweepRecord rec =
      SweepRecord::load(test::data_dir() / "sweeps" / "h200" / "1_Square_matrix_multiplication_.sweep.json");
  SearchContext ctx;
  ctx.space = &rec.space();
  ctx.valid = rec.configs();
  ctx.bound = rec.bound();
  auto plain = make_guided_search();
  const auto cold = run_search(*plain, rec, ctx, {.max_trials = 2}).trials;
  ASSERT_EQ(cold.size(), 2u);
  EXPECT_EQ(cold[1].config.at("input_precision"), "tf32x3");  // the prescription's first tag
  // A history in which halving BLOCK_N always helped and nothing else ever did.
  MoveStats stats;
  const Config d = rec.configs().front();
  Config n64 = d;
  n64["BLOCK_N"] = 64;
  Config tc = d;
  tc["input_precision"] = "tf32x3";
  stats.add_run({{d, 10.0}, {n64, 5.0}, {tc, 20.0}});
  ctx.moves = &stats;
  auto ranked = make_guided_search();
  const auto warm = run_search(*ranked, rec, ctx, {.max_trials = 2}).trials;
  ASSERT_EQ(warm.size(), 2u);
  // BLOCK_N sizes the tile, so the warps follow it: 128x64 at 4 warps, as 128x128 was at 8.
  Config n64_following = n64;
  n64_following["num_warps"] = 4;
  EXPECT_EQ(warm[1].config, n64_following);
  EXPECT_NE(warm[1].reason.find("helped 1 of 1 times in earlier runs"), std::string::npos) << warm[1].reason;
}

TEST(WarmStart, StartSearchLooksItUpOnlyWithoutAResume) {
  Bench b("warm-start-search");
  ASSERT_GE(b.valid.size(), 3u);
  // A finished GPU run of another problem with the same op (another shape) whose best is valid[2].
  const std::string other_sig = "in0:float32[7x7];" + b.trace.signature().substr(b.trace.signature().find(';') + 1);
  const auto other =
      b.history.begin_run({"optimize", "/p/other.py", "other", other_sig, "cuda", "NVIDIA H200", "{}", "strict"});
  b.history.finish_run(other, "ok",
                       {{"best", {{"family", b.family->name()}, {"config", b.valid[2]}, {"median_us", 3.0}}}});
  KnobSearchRequest req = b.request(3, "guided");
  req.key.device = "cuda";
  req.key.gpu = "NVIDIA H200";
  const auto run = b.begin_run();
  WorkerExecutor exec = b.executor(run, "o");
  SearchStart start = start_search(req, b.family->knob_space(), exec, b.history, run);
  ASSERT_EQ(start.warm_starts.size(), 1u);
  EXPECT_EQ(start.warm_starts[0].run_id, other);
  KnobSearchOutcome out = run_knob_search(req, b.family->knob_space(), std::move(start), exec);
  ASSERT_GE(out.trials.size(), 2u);
  EXPECT_EQ(out.trials[0].candidate.config, b.valid[0]);
  EXPECT_EQ(out.trials[1].candidate.config, b.valid[2]);
  EXPECT_EQ(out.trials[1].candidate.reason.rfind("warm start from run " + std::to_string(other), 0), 0u);
  // Other GPU, other precision: no warm start; and none with --fresh.
  req.key.gpu = "NVIDIA A100-SXM4-80GB";
  EXPECT_TRUE(start_search(req, b.family->knob_space(), exec, b.history, run).warm_starts.empty());
  req.key.gpu = "NVIDIA H200";
  req.fresh = true;
  EXPECT_TRUE(start_search(req, b.family->knob_space(), exec, b.history, run).warm_starts.empty());
}

TEST(GuidedSearch, WithoutNsightComputeAParentWhoseKernelsSpillIsDiagnosedFromItsCompile) {
  for (const char* mode : {"gpu,spills", "gpu"}) {
    SCOPED_TRACE(mode);
    Bench b(std::string("compile-cause-") + (std::string(mode).find("spills") != std::string::npos ? "a" : "b"), mode);
    KnobSearchRequest req = b.request(2, "guided");
    req.key.device = "cuda";
    req.key.gpu = "NVIDIA H200";
    const KnobSearchOutcome out = b.search(req, "o");
    ASSERT_EQ(out.trials.size(), 2u);
    EXPECT_EQ(out.trials[0].candidate.kernels.at(0).at("local_bytes"), std::string(mode) == "gpu" ? 0 : 64);
    // The second trial is a move from the default: for its spills' prescription where it spilled, else the
    // memory floor's.
    const std::string& why = out.trials[1].candidate.reason;
    EXPECT_EQ(why.rfind("register_spills", 0) == 0, std::string(mode) != "gpu") << why;
  }
}

TEST(WarmStart, WhatTheProblemSuggestsIsMeasuredRightAfterTheDefaultWithItsReason) {
  Bench b("suggested");
  ASSERT_GE(b.valid.size(), 3u);
  KnobSearchRequest req = b.request(3, "guided");
  req.suggested = {{b.valid[2], "B's rows are not aligned"}};
  const KnobSearchOutcome out = b.search(req, "o");
  ASSERT_EQ(out.trials.size(), 3u);
  EXPECT_EQ(out.trials[0].candidate.config, b.valid[0]);
  EXPECT_EQ(out.trials[1].candidate.config, b.valid[2]);
  EXPECT_EQ(out.trials[1].candidate.reason, "B's rows are not aligned");
}

TEST(WarmStart, GuidedProposesSeedsRightAfterTheDefault) {
  SweepRecord rec =
      SweepRecord::load(test::data_dir() / "sweeps" / "h200" / "1_Square_matrix_multiplication_.sweep.json");
  SearchContext ctx;
  ctx.space = &rec.space();
  ctx.valid = rec.configs();
  ctx.bound = rec.bound();
  ctx.seeds = {{rec.configs().back(), "warm start from run 3"}};
  auto s = make_guided_search();
  SearchOutcome out = run_search(*s, rec, ctx, {.max_trials = 3});
  ASSERT_EQ(out.trials.size(), 3u);
  EXPECT_EQ(out.trials[0].reason, "the default configuration");
  EXPECT_EQ(out.trials[1].config, rec.configs().back());
  EXPECT_EQ(out.trials[1].reason, "warm start from run 3");
  EXPECT_NE(out.trials[2].config, rec.configs().back());
}

TEST(Search, ALoopResumedWithTrialsCountsThemTowardsItsLimits) {
  SweepRecord rec =
      SweepRecord::load(test::data_dir() / "sweeps" / "h200" / "1_Square_matrix_multiplication_.sweep.json");
  SearchContext ctx;
  ctx.space = &rec.space();
  ctx.valid = rec.configs();
  auto first = make_exhaustive_search();
  auto three = run_search(*first, rec, ctx, {.max_trials = 3}).trials;
  // An executor that must not be asked for what the context already holds.
  struct Counting : MeasureExecutor {
    SweepRecord& rec;
    std::vector<Config> asked;
    explicit Counting(SweepRecord& r) : rec(r) {}
    Measurement measure(const Config& c, const std::string&) override {
      asked.push_back(c);
      return rec.measure(c);
    }
  } counting(rec);
  ctx.trials = three;
  auto next = make_exhaustive_search();
  auto out = run_search(*next, counting, ctx, {.max_trials = 5});
  ASSERT_EQ(out.trials.size(), 5u);
  ASSERT_EQ(counting.asked.size(), 2u);
  for (const auto& t : three)
    EXPECT_EQ(std::find(counting.asked.begin(), counting.asked.end(), t.config), counting.asked.end());
  // A target already met by a resumed trial stops the loop before it measures anything.
  counting.asked.clear();
  auto reached = run_search(*next, counting, ctx, {.target_us = 1e9});
  EXPECT_EQ(reached.stop_reason, "target reached");
  EXPECT_TRUE(counting.asked.empty());
}

}  // namespace
}  // namespace kernelagent

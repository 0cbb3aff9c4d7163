// The compile pool with the stand-in worker: every candidate compiled once, in parallel, failures kept.

#include "kernelagent/explore/compile_pool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "fake_worker.hpp"

using namespace kernelagent;
using Fake = test::FakeWorker;

namespace {

std::function<std::unique_ptr<WorkerClient>()> maker(const Fake& fake) {
  return [&fake]() {
    WorkerTimeouts t;
    t.compile = std::chrono::milliseconds(3000);
    return std::make_unique<WorkerClient>(fake.command, t);
  };
}

}  // namespace

TEST(CompilePool, CompilesEveryCandidateOnceAcrossTheWorkersAtOnce) {
  Fake fake("pool_parallel");
  std::vector<PoolCandidate> cands;
  for (int i = 0; i < 6; ++i) cands.push_back({"slow" + std::to_string(i), fake.dir / "k.py"});
  int seen = 0;
  PoolOutcome out = precompile(maker(fake), 3, fake.dir / "problem.py", cands,
                               [&](const std::string&, const Reply&) { ++seen; });
  EXPECT_EQ(out.workers, 3);
  EXPECT_EQ(fake.count_op("load"), 3);
  EXPECT_EQ(seen, 6);
  ASSERT_EQ(out.replies.size(), 6u);
  for (const auto& c : cands) {
    EXPECT_EQ(fake.count("compile " + c.name), 1) << c.name;
    EXPECT_TRUE(out.replies.at(c.name).ok());
  }
  // The workers compiled at the same time: the fake worker logs each slow compile's span (wall-clock start and
  // end), and some moment lies inside two of them or more. (Not a bound on the elapsed time, which a loaded
  // machine stretches.)
  std::vector<std::pair<double, double>> spans;
  for (const auto& r : fake.requests()) {
    std::istringstream in(r);
    std::string word, op, name;
    double began = 0, ended = 0;
    if (in >> word >> op >> name >> began >> ended && word == "span" && op == "compile") spans.emplace_back(began, ended);
  }
  ASSERT_EQ(spans.size(), 6u);
  int most_at_once = 0;
  for (const auto& [began, ended] : spans) {
    int at_once = 0;
    for (const auto& other : spans) at_once += other.first <= began && began < other.second;
    most_at_once = std::max(most_at_once, at_once);
  }
  EXPECT_GE(most_at_once, 2);
}

TEST(CompilePool, AFailingCandidateKeepsItsStatusAndTheOthersStillCompile) {
  Fake fake("pool_failure");
  std::vector<PoolCandidate> cands = {{"a", fake.dir / "a.py"}, {"crash_b", fake.dir / "b.py"}, {"c", fake.dir / "c.py"},
                                      {"d", fake.dir / "d.py"}};
  PoolOutcome out = precompile(maker(fake), 2, fake.dir / "problem.py", cands);
  ASSERT_EQ(out.replies.size(), 4u);
  EXPECT_EQ(out.replies.at("crash_b").status, "crashed");
  for (const char* ok : {"a", "c", "d"}) EXPECT_TRUE(out.replies.at(ok).ok()) << ok;
}

TEST(CompilePool, NoCandidatesStartNoWorker) {
  Fake fake("pool_empty");
  PoolOutcome out = precompile(maker(fake), 4, fake.dir / "problem.py", {});
  EXPECT_EQ(out.workers, 0);
  EXPECT_EQ(fake.count_op("hello"), 0);
}

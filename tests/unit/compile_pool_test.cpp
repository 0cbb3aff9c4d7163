// The compile pool with the stand-in worker: every candidate compiled once, in parallel, failures kept.

#include "kernelagent/explore/compile_pool.hpp"

#include <gtest/gtest.h>

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
  // Six 0.4 s compiles one after another take 2.4 s; three at a time about 0.8 s plus the starts.
  EXPECT_LT(out.elapsed_s, 2.2);
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

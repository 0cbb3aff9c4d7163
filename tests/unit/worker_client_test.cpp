// Fault handling between the engine and its worker, with a stand-in worker that crashes, hangs, writes
// garbage or hits a sticky CUDA error on demand (tests/data/fake_workers/fake_worker.py, plain python3).

#include "kernelagent/measure/worker_client.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <thread>

#include "fake_worker.hpp"
#include "kernelagent/core/error.hpp"
#include "kernelagent/core/status.hpp"

using namespace kernelagent;
using namespace std::chrono_literals;

namespace {

using Fake = test::FakeWorker;

WorkerTimeouts fast() {
  WorkerTimeouts t;
  t.start = 20s;
  t.compile = t.check = 1500ms;
  return t;
}

int count(const std::vector<std::string>& v, const std::string& s) {
  return static_cast<int>(std::count(v.begin(), v.end(), s));
}

}  // namespace

TEST(WorkerClient, AGoodWorkerAnswersEveryRequest) {
  Fake fake("wc-good");
  WorkerClient w(fake.command, fast());
  EXPECT_EQ(w.start().value("op", ""), "hello");
  EXPECT_TRUE(w.load("/p.py", 0).ok());
  EXPECT_TRUE(w.compile("c0", "/c0.py").ok());
  EXPECT_TRUE(w.check("c0", {1, 2}, 1e-4, 1e-4).ok());
  Reply t = w.time({"eager", "c0"}, 10, 1, 50);
  ASSERT_TRUE(t.ok());
  EXPECT_DOUBLE_EQ(t.body.at("results").at("c0").at("median_us").get<double>(), 10.0);
  EXPECT_EQ(w.restarts(), 0);
}

TEST(WorkerClient, ReleaseAsksARunningWorkerAndStartsNoneThatIsDown) {
  Fake fake("wc-release");
  WorkerClient w(fake.command, fast());
  w.start();
  ASSERT_TRUE(w.load("/p.py", 0).ok());
  EXPECT_TRUE(w.release().ok());
  EXPECT_EQ(fake.count("release"), 1);
  EXPECT_EQ(w.compile("crash0", "/crash0.py").status, status::crashed);  // the worker is down now
  EXPECT_TRUE(w.release().ok());  // a worker that is not running holds no memory: nothing to ask
  EXPECT_EQ(fake.count("release"), 1);
  EXPECT_EQ(fake.count("hello"), 1);
}

TEST(WorkerClient, ACrashIsAStatusAndTheNextRequestRestartsAndReplaysTheLoad) {
  Fake fake("wc-crash");
  WorkerClient w(fake.command, fast());
  w.start();
  ASSERT_TRUE(w.load("/p.py", 0).ok());
  Reply r = w.compile("crash0", "/crash0.py");
  EXPECT_EQ(r.status, status::crashed);
  EXPECT_NE(r.message.find("signal 11"), std::string::npos) << r.message;
  EXPECT_TRUE(w.compile("c1", "/c1.py").ok());
  EXPECT_EQ(w.restarts(), 1);
  auto reqs = fake.requests();
  EXPECT_EQ(count(reqs, "hello"), 2);
  EXPECT_EQ(count(reqs, "load"), 2);  // replayed in the new worker
}

TEST(WorkerClient, AnExitIsReportedWithItsCode) {
  Fake fake("wc-exit");
  WorkerClient w(fake.command, fast());
  w.start();
  Reply r = w.compile("exit0", "/e.py");
  EXPECT_EQ(r.status, status::crashed);
  EXPECT_NE(r.message.find("code 7"), std::string::npos) << r.message;
}

TEST(WorkerClient, AHangIsKilledAtTheDeadline) {
  Fake fake("wc-hang");
  WorkerClient w(fake.command, fast());
  w.start();
  w.load("/p.py", 0);
  auto t0 = std::chrono::steady_clock::now();
  Reply r = w.compile("hang0", "/h.py");
  auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_EQ(r.status, status::timeout);
  EXPECT_LT(waited, 10s);
  EXPECT_TRUE(w.compile("c1", "/c1.py").ok());
  EXPECT_EQ(w.restarts(), 1);
}

TEST(WorkerClient, AStickyCudaErrorRestartsTheWorkerAndRecompilesWhatIsNeeded) {
  Fake fake("wc-sticky");
  WorkerClient w(fake.command, fast());
  w.start();
  w.load("/p.py", 0);
  ASSERT_TRUE(w.compile("c0", "/c0.py").ok());
  Reply r = w.compile("sticky0", "/s.py");
  EXPECT_EQ(r.status, status::cuda_error);
  EXPECT_TRUE(r.body.value("sticky", false));
  // Timing c0 now needs a new worker that holds the problem and c0 again.
  EXPECT_TRUE(w.time({"c0"}, 10, 1, 50).ok());
  EXPECT_EQ(w.restarts(), 1);
  auto reqs = fake.requests();
  EXPECT_EQ(count(reqs, "compile c0"), 2);
  EXPECT_EQ(reqs.back(), "time");
}

TEST(WorkerClient, GarbageOnTheChannelIsAProtocolError) {
  Fake fake("wc-garbage");
  WorkerClient w(fake.command, fast());
  w.start();
  Reply r = w.check("garbage0", {1}, 1e-4, 1e-4);
  EXPECT_EQ(r.status, status::protocol_error);
  EXPECT_NE(r.message.find("Traceback"), std::string::npos);
  EXPECT_TRUE(w.compile("c1", "/c1.py").ok());
}

TEST(WorkerClient, AWorkerThatNeverSaysHelloIsAnEnvironmentError) {
  Fake fake("wc-nohello", "nohello");
  WorkerClient w(fake.command, fast());
  try {
    w.start();
    FAIL() << "started";
  } catch (const UserError& e) {
    EXPECT_EQ(e.code(), ExitCode::environment);
    EXPECT_NE(std::string(e.what()).find("code 1"), std::string::npos) << e.what();
  }
}

TEST(WorkerClient, AMissingInterpreterIsAnEnvironmentError) {
  Fake fake("wc-nopython");
  fake.command.argv = {"/nonexistent/python3", "-m", "kernelagent_worker"};
  WorkerClient w(fake.command, fast());
  EXPECT_THROW(w.start(), UserError);
}

TEST(WorkerClient, StdoutNoiseBeforeTheHelloIsAProtocolError) {
  Fake fake("wc-noisy", "noisy");
  WorkerClient w(fake.command, fast());
  EXPECT_THROW(w.start(), UserError);
}

TEST(WorkerClient, AProblemThatHangsOrExitsWhileLoadingIsNamedWithWhatItWasDoing) {
  Fake fake("wc-load-phase");
  WorkerTimeouts t = fast();
  t.load = 1500ms;
  WorkerClient w(fake.command, t);
  w.start();
  const auto t0 = std::chrono::steady_clock::now();
  Reply r = w.load("/p/hangimport.py", 0);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);  // the load timeout, not a fixed 600 s
  EXPECT_EQ(r.status, status::timeout);
  EXPECT_EQ(r.phase_name(), "import");
  EXPECT_NE(r.message.find("problem file /p/hangimport.py hung while it was imported"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("1.5 s"), std::string::npos) << r.message;

  r = w.load("/p/exitimport.py", 0);
  EXPECT_EQ(r.status, status::crashed);
  EXPECT_NE(r.message.find("problem file /p/exitimport.py ended its worker while it was imported: worker exited "
                           "with code 9"),
            std::string::npos)
      << r.message;

  r = w.load("/p/hangref.py", 0);
  EXPECT_NE(r.message.find("hung in its first run of Model.forward"), std::string::npos) << r.message;
  EXPECT_TRUE(w.load("/p/fine.py", 0).ok());
}

TEST(WorkerClient, AReferenceThatHangsOrExitsInACheckIsTheProblemsFailureNotTheCandidates) {
  Fake fake("wc-ref-phase");
  WorkerTimeouts t = fast();
  t.load = 1500ms;
  WorkerClient w(fake.command, t);
  w.start();
  ASSERT_TRUE(w.load("/p/fine.py", 0).ok());
  ASSERT_TRUE(w.compile("refhang0", "/r.py").ok());
  Reply r = w.check("refhang0", {1}, 1e-4, 1e-4);
  EXPECT_EQ(r.status, status::bad_problem);
  EXPECT_NE(r.message.find("problem file /p/fine.py hung in its reference (Model.forward) on seed 1 of the check, "
                           "after candidate refhang0 had run"),
            std::string::npos)
      << r.message;
  ASSERT_TRUE(w.compile("refexit0", "/r.py").ok());
  r = w.check("refexit0", {1}, 1e-4, 1e-4);
  EXPECT_EQ(r.status, status::bad_problem);
  EXPECT_NE(r.message.find("ended its worker in its reference"), std::string::npos) << r.message;
}

TEST(WorkerClient, ACandidateThatHangsInACheckIsStillATimeoutOfTheCandidate) {
  Fake fake("wc-cand-phase");
  WorkerClient w(fake.command, fast());
  w.start();
  ASSERT_TRUE(w.load("/p/fine.py", 0).ok());
  Reply r = w.check("hang0", {1}, 1e-4, 1e-4);
  EXPECT_EQ(r.status, status::timeout);
  EXPECT_NE(r.message.find("candidate hang0 was running on seed 1"), std::string::npos) << r.message;
}

TEST(WorkerClient, TheReferencesTimeDoesNotCountAgainstTheCandidatesTimeout) {
  // 0.9 s of candidate and 0.9 s of reference: over the check's 1.5 s together, within it apart.
  Fake fake("wc-clocks");
  WorkerTimeouts t = fast();
  t.load = 1500ms;
  WorkerClient w(fake.command, t);
  w.start();
  ASSERT_TRUE(w.load("/p/fine.py", 0).ok());
  EXPECT_TRUE(w.check("slowboth0", {1}, 1e-4, 1e-4).ok());
}

TEST(WorkerClient, AWorkerKilledFromOutsideIsACrashWithItsSignal) {
  Fake fake("wc-killed");
  WorkerClient w(fake.command, fast());
  w.start();
  Reply killed = w.compile("killed0", "/k.py");  // as the OOM killer or an operator would
  EXPECT_EQ(killed.status, status::crashed);
  EXPECT_EQ(killed.signal, SIGKILL);
  EXPECT_NE(killed.message.find("signal 9"), std::string::npos) << killed.message;
  Reply crashed = w.compile("crash1", "/c.py");  // the candidate's own fault
  EXPECT_EQ(crashed.signal, SIGSEGV);
  Reply exited = w.compile("exit2", "/e.py");
  EXPECT_EQ(exited.status, status::crashed);
  EXPECT_EQ(exited.signal, 0);
  EXPECT_TRUE(w.compile("c3", "/c3.py").ok());
}

namespace {

// The pid of the process the stand-in worker started ("spawned PID" in its log), or 0.
int spawned_pid(const Fake& fake) {
  for (const auto& line : fake.requests())
    if (line.rfind("spawned ", 0) == 0) return std::stoi(line.substr(8));
  return 0;
}

// Whether `pid` still runs (a zombie waiting for its reaper has ended).
bool runs(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && line.size() > close + 2 && line[close + 2] != 'Z';
}

}  // namespace

TEST(WorkerProcess, WhatTheWorkerStartedDiesWithTheEngineEvenWhenItIsKilled) {
  Fake fake("wp-engine-killed");
  // The engine: a child of this test that starts the stand-in worker, has it spawn a process, and waits to be
  // killed. It never returns into the test framework.
  const pid_t engine = ::fork();
  if (engine == 0) {
    try {
      WorkerClient w(fake.command, fast());
      w.start();
      w.compile("spawn0", "/s.py");
      while (true) ::pause();
    } catch (...) {
      ::_exit(1);
    }
  }
  ASSERT_GT(engine, 0);
  int spawned = 0;
  for (int i = 0; i < 300 && !spawned; ++i) {
    std::this_thread::sleep_for(50ms);
    spawned = spawned_pid(fake);
  }
  ASSERT_GT(spawned, 0) << "the helper engine's worker spawned nothing";
  EXPECT_TRUE(runs(spawned));
  ::kill(engine, SIGKILL);  // nothing of the engine runs after this: no destructor, no handler
  int st = 0;
  ::waitpid(engine, &st, 0);
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    std::this_thread::sleep_for(50ms);
    gone = !runs(spawned);
  }
  EXPECT_TRUE(gone) << "process " << spawned << ", spawned by the worker, outlived the killed engine";
  if (!gone) ::kill(spawned, SIGKILL);
}

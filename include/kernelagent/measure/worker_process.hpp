#pragma once
// One worker process and its pipes (docs/protocol.md). Sends a request line, waits for the reply line
// with a deadline, and tells a reply apart from a crash, a hang or garbage. It never throws for a
// failure of the worker: those are outcomes the caller records.
//
// The worker runs under a small watchdog process, the leader of their own process group: when the engine
// dies, however it dies (SIGKILL included), the watchdog kills the whole group, so that nothing the worker
// or the problem started (a compiler, a subprocess of the problem) outlives the run. Otherwise the
// watchdog ends as the worker ended (the same exit code, or the same signal).

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kernelagent {

struct WorkerCommand {
  std::vector<std::string> argv;                 // e.g. {"python3", "-m", "kernelagent_worker"}
  std::map<std::string, std::string> env;        // set on top of the engine's environment
  std::string stderr_path;                       // the worker's stderr is appended here ("" = inherit)
};

struct Exchange {
  enum class Outcome { reply, timeout, crashed, protocol_error };
  Outcome outcome = Outcome::reply;
  nlohmann::json reply;  // outcome == reply
  std::string detail;    // what happened otherwise, e.g. "worker killed by signal 11 (SIGSEGV)"
  int signal = 0;        // outcome == crashed: the signal that ended the worker, 0 for none
};

class WorkerProcess {
 public:
  explicit WorkerProcess(WorkerCommand command);
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Starts the process and waits for its hello line. Returns the hello exchange.
  Exchange start(std::chrono::milliseconds timeout);
  // Sends one request and waits for one reply.
  Exchange request(const nlohmann::json& req, std::chrono::milliseconds timeout);
  // Kills the whole process group (the worker and anything it started) and reaps it.
  void kill();
  bool running() const { return pid_ > 0; }
  int pid() const { return pid_; }

 private:
  Exchange read_reply(std::chrono::milliseconds timeout);
  // Reaps the ended worker and says how it ended; `signal` gets the signal that ended it, if one did.
  std::string describe_exit(int* signal = nullptr);

  WorkerCommand command_;
  int pid_ = -1;
  int to_worker_ = -1;
  int from_worker_ = -1;
  std::string buffer_;  // bytes read past the last complete line
};

}  // namespace kernelagent

#pragma once
// One worker process and its pipes (docs/protocol.md). Sends a request line, waits for the reply line
// with a deadline, and tells a reply apart from a crash, a hang or garbage. It never throws for a
// failure of the worker: those are outcomes the caller records.
//
// The worker leads a process group of its own (it and whatever it starts: compilers, a process the problem
// spawned), under a small watchdog process, its parent: when the engine dies, however it dies (SIGKILL
// included), the watchdog kills the worker's whole group, so that nothing the worker or the problem
// started outlives the run. Otherwise the watchdog reaps the worker and ends as it ended (the same exit
// code, or the same signal), which is what the engine reads.

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
  // Waits for the next line of the current request, after a progress note (docs/protocol.md).
  Exchange receive(std::chrono::milliseconds timeout);
  // Kills the worker's whole process group (the worker and anything it started) and reaps its watchdog.
  void kill();
  bool running() const { return pid_ > 0; }
  int pid() const { return pid_; }  // the watchdog's

 private:
  Exchange read_reply(std::chrono::milliseconds timeout);
  // Reaps the ended worker and says how it ended; `signal` gets the signal that ended it, if one did.
  std::string describe_exit(int* signal = nullptr);

  WorkerCommand command_;
  int pid_ = -1;    // the watchdog
  int group_ = -1;  // the worker's process group (its pid)
  int to_worker_ = -1;
  int from_worker_ = -1;
  std::string buffer_;  // bytes read past the last complete line
};

}  // namespace kernelagent

#pragma once
// A worker session that survives its worker: requests go to the current worker process; when it crashes,
// hangs or hits a sticky CUDA error, the failed request gets that status, and the next request starts a
// fresh worker and replays what it needs (the problem load, the candidates it must have compiled).

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelagent/measure/worker_process.hpp"

namespace kernelagent {

struct Reply {
  std::string status;   // "ok" or a named failure (core/status.hpp)
  std::string message;  // for failures
  nlohmann::json body;  // the whole reply, when there was one
  int signal = 0;       // crashed: the signal that ended the worker (0: it exited, or no crash)
  // The request's last progress note (docs/protocol.md), null when none came: what was running when the
  // worker hung or died, e.g. {"phase": "reference", "seed": 2}.
  nlohmann::json phase;

  bool ok() const { return status == "ok"; }
  std::string phase_name() const;
};

struct WorkerTimeouts {
  std::chrono::milliseconds start{120'000};
  // Loading the problem, tracing it, and each run of its reference during a check: the problem's own time.
  std::chrono::milliseconds load{300'000};
  std::chrono::milliseconds trace{300'000};
  std::chrono::milliseconds compile{180'000};
  std::chrono::milliseconds check{180'000};
  std::chrono::milliseconds time{600'000};
};

class WorkerClient {
 public:
  WorkerClient(WorkerCommand command, WorkerTimeouts timeouts);

  // Starts the first worker; throws UserError(environment) when it cannot start at all.
  const nlohmann::json& start();
  const nlohmann::json& hello() const { return hello_; }
  bool on_gpu() const { return hello_.value("device", std::string()) == "cuda"; }

  // A problem that hangs or ends the worker while it loads or is traced gets a message that names the
  // problem file and what it was doing ("hung while importing it").
  // `precision` ("strict", "tf32" or empty) sets the fp32 modes the worker runs the reference and the
  // baselines in (docs/protocol.md): the reference in IEEE fp32 under either policy.
  Reply load(const std::string& problem_path, int seed, const std::string& precision = "");
  Reply trace();
  // The candidate's runs count against the check's timeout; each run of the reference has the load timeout of
  // its own. When the reference hangs, raises or ends the worker, the reply is bad_problem, naming the
  // problem file: that is not the candidate's doing.

  Reply compile(const std::string& candidate, const std::string& path);
  Reply check(const std::string& candidate, const std::vector<int>& seeds, double atol, double rtol);
  // Times targets ("eager", "compile", "eager_default", "compile_default", candidate names) with the one harness.
  Reply time(const std::vector<std::string>& targets, double min_ms, int rounds, double graph_below_us);
  // The error of the reference run in an fp32 mode ("default": PyTorch's own) against the IEEE reference.
  Reply mode_error(const std::string& mode, const std::vector<int>& seeds, double atol, double rtol);
  // Hands the GPU memory the worker's allocator caches back to the driver (before another process, the
  // profiled one, loads the problem on the same GPU). Does not start a worker that is not running: one
  // that is not running holds no memory.
  Reply release();
  void shutdown();

  int restarts() const { return restarts_; }
  const WorkerTimeouts& timeouts() const { return timeouts_; }
  // Called with each progress note of the requests that follow (a live progress line shows the phase).
  void on_note(std::function<void(const nlohmann::json&)> callback) { on_note_ = std::move(callback); }
  // The last request failed because no worker could be brought up for it: the worker would not restart,
  // could not load the problem again, or came up on another device than at first (a GPU that went away
  // comes back as the CPU). Not the candidate's doing: a pool counts it against the worker's slot.
  bool unavailable() const { return unavailable_; }

 private:
  Reply send(nlohmann::json req, std::chrono::milliseconds timeout);
  // Makes sure a live worker holds the problem and the named candidates; a failure here is the reply.
  std::optional<Reply> ensure_ready(const std::vector<std::string>& candidates);

  WorkerCommand command_;
  WorkerTimeouts timeouts_;
  WorkerProcess process_;
  nlohmann::json hello_;
  int next_id_ = 1;
  int restarts_ = 0;
  bool started_once_ = false;
  bool unavailable_ = false;
  std::optional<nlohmann::json> load_request_;          // replayed after a restart
  std::map<std::string, std::string> candidate_paths_;  // every candidate compiled ok, by name
  std::set<std::string> compiled_here_;                 // those the current process has compiled
  std::function<void(const nlohmann::json&)> on_note_;
};

}  // namespace kernelagent

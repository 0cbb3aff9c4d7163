#pragma once
// What optimize and bench both need: the installation's paths, the history store, the families and a
// started worker.

#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include "kernelagent/cli/commands.hpp"
#include "kernelagent/core/paths.hpp"
#include "kernelagent/explore/worker_pool.hpp"
#include "kernelagent/families/family.hpp"
#include "kernelagent/families/registry.hpp"
#include "kernelagent/history/history_store.hpp"
#include "kernelagent/measure/worker_client.hpp"
#include "kernelagent/orchestrate/optimize_run.hpp"

namespace kernelagent::cli {

struct Session {
  Paths paths;
  std::unique_ptr<HistoryStore> history;
  std::vector<std::unique_ptr<Family>> families;
  std::unique_ptr<WorkerClient> worker;  // the home slot's worker, started first
  // Every worker slot (--gpus, --ray): `worker` and one more per GPU, started; declared after `worker`,
  // which it borrows.
  std::unique_ptr<WorkerPool> pool;
  // Makes another worker like `worker`, not started, whose stderr goes to its own numbered log beside
  // `worker`'s (compile-worker-N.log): the compile pool's.
  std::function<std::unique_ptr<WorkerClient>()> make_worker;
  int compile_workers = 0;  // the compile pool's size: --compile-workers, or its default
};

// The installation's kernel families; UserError(environment) naming the broken file when one cannot be read.
std::vector<std::unique_ptr<Family>> load_families_or_explain(const Paths& paths);

// Sets the compile pool of `opt` from the session (a no-op for a pool of size 0).
void use_compile_pool(const Session& session, OptimizeOptions& opt);

// Sets the profiler of `opt` (Nsight Compute, found as `ncu_flag` says) for `mode`: "off" none; "auto" one
// when ncu is found; "on" one, or UserError(environment) naming what is missing. Profiles and their logs go
// under OUT_DIR/profiles/CANDIDATE.
void use_profiler(const Session& session, const CommonOptions& common, const std::string& mode,
                  const std::string& ncu_flag, OptimizeOptions& opt);

// Opens the history, loads the families and starts the worker slots: the home worker, whose stderr goes to
// `worker_log`, then one per further GPU (--gpus; on --ray a proxy per GPU of the cluster), whose logs are
// worker-slotN.log beside it.
Session open_session(const CommonOptions& common, const std::filesystem::path& worker_log);

// One started worker for a command that needs no history, families or pool (`check`): the same interpreter,
// environment and timeouts as open_session's home worker, pinned to the first GPU --gpus names.
std::unique_ptr<WorkerClient> start_worker(const CommonOptions& common, const Paths& paths,
                                           const std::filesystem::path& worker_log);

// A live progress line on stderr: rewritten in place on a terminal, one line per event otherwise.
class ProgressLine {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine();
  void operator()(const ProgressEvent& e);
  void finish();

 private:
  bool enabled_;
  bool tty_;
  bool dirty_ = false;
};

// "3.05 ms", "812 us"
std::string format_us(double us);

}  // namespace kernelagent::cli

#include "kernelagent/cli/session.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>

#include <fmt/format.h>

#include "kernelagent/cli/slot_plan.hpp"
#include "kernelagent/profile/ncu_runner.hpp"

namespace kernelagent::cli {

namespace fs = std::filesystem;

namespace {
fs::path log_dir_of(const fs::path& log) { return log.has_parent_path() ? log.parent_path() : fs::path("."); }
}  // namespace

std::vector<std::unique_ptr<Family>> load_families_or_explain(const Paths& paths) {
  try {
    return load_families(paths.families_dir());
  } catch (const std::runtime_error& e) {
    throw UserError(ExitCode::environment,
                    fmt::format("the kernel families under {} cannot be read: {}; reinstall them or point --home at a "
                                "complete checkout",
                                paths.families_dir().string(), e.what()));
  }
}

namespace {

void check_worker_flags(const CommonOptions& common) {
  if (common.device != "auto" && common.device != "cpu")
    throw UserError(ExitCode::bad_input, "--device must be 'auto' or 'cpu', not '" + common.device + "'");
  if (common.timeout_s <= 0) throw UserError(ExitCode::bad_input, "--timeout must be a positive number of seconds");
  if (common.load_timeout_s <= 0)
    throw UserError(ExitCode::bad_input, "--load-timeout must be a positive number of seconds");
}

// The local worker's command line and environment, its stderr into `worker_log`.
WorkerCommand worker_command(const CommonOptions& common, const Paths& paths, const fs::path& worker_log) {
  WorkerCommand cmd;
  cmd.argv = {locate_python(common.python, paths), "-u", "-m", "kernelagent_worker"};
  std::string pythonpath = paths.python_dir().string();
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) pythonpath += std::string(":") + old;
  cmd.env["PYTHONPATH"] = pythonpath;
  if (common.device == "cpu") cmd.env["KERNELAGENT_DEVICE"] = "cpu";
  std::error_code ec;
  if (worker_log.has_parent_path()) fs::create_directories(worker_log.parent_path(), ec);
  cmd.stderr_path = worker_log.string();
  return cmd;
}

WorkerTimeouts worker_timeouts(const CommonOptions& common) {
  WorkerTimeouts timeouts;
  const auto candidate_timeout = std::chrono::milliseconds(static_cast<long long>(common.timeout_s * 1000));
  timeouts.compile = timeouts.check = candidate_timeout;
  timeouts.load = timeouts.trace = std::chrono::milliseconds(static_cast<long long>(common.load_timeout_s * 1000));
  return timeouts;
}

UserError no_gpu_behind(int gpu) {
  return UserError(ExitCode::environment,
                   fmt::format("the worker pinned to GPU {} (CUDA_VISIBLE_DEVICES={}) found no CUDA device: --gpus "
                               "takes indices of the GPUs this machine has, or pass --device cpu",
                               gpu, visible_device(gpu)));
}

}  // namespace

std::unique_ptr<WorkerClient> start_worker(const CommonOptions& common, const Paths& paths,
                                           const fs::path& worker_log) {
  check_worker_flags(common);
  WorkerCommand cmd = worker_command(common, paths, worker_log);
  const std::optional<std::vector<int>> gpus = parse_gpus(common.gpus);
  const bool forced_cpu = common.device == "cpu";
  if (gpus && !forced_cpu) cmd.env["CUDA_VISIBLE_DEVICES"] = visible_device(gpus->front());
  auto worker = std::make_unique<WorkerClient>(std::move(cmd), worker_timeouts(common));
  worker->start();
  if (gpus && !forced_cpu && !worker->on_gpu()) throw no_gpu_behind(gpus->front());
  return worker;
}

Session open_session(const CommonOptions& common, const fs::path& worker_log) {
  check_worker_flags(common);
  Session s;
  s.paths = Paths::locate(common.home);
  s.history = std::make_unique<HistoryStore>(common.db.empty() ? default_history_path() : fs::path(common.db));
  s.families = load_families_or_explain(s.paths);

  const std::optional<std::vector<int>> gpus = parse_gpus(common.gpus);
  const WorkerCommand cmd = worker_command(common, s.paths, worker_log);
  const WorkerTimeouts timeouts = worker_timeouts(common);
  // A slot's command: the local worker pinned to a GPU, or a Ray proxy (the compile pool's stays local).
  auto slot_command = [&](int slot, std::optional<int> gpu, const std::string& log) {
    WorkerCommand c = cmd;
    if (!common.ray.empty())
      c.argv = {c.argv.front(), "-u", "-m", "kernelagent_worker.ray_proxy", "--address", common.ray, "--slot",
                std::to_string(slot)};
    else if (gpu)
      c.env["CUDA_VISIBLE_DEVICES"] = visible_device(*gpu);
    c.stderr_path = log;
    return c;
  };
  const bool forced_cpu = common.device == "cpu";
  s.worker = std::make_unique<WorkerClient>(
      slot_command(0, gpus && !forced_cpu ? std::optional(gpus->front()) : std::nullopt, worker_log.string()),
      timeouts);
  s.worker->start();
  const bool on_gpu = s.worker->on_gpu();
  if (gpus && !forced_cpu && !on_gpu && common.ray.empty()) throw no_gpu_behind(gpus->front());
  // How many slots: as many as --gpus names, else every GPU the first worker sees (the cluster's, on Ray),
  // and one on the CPU.
  const int slots = gpus ? static_cast<int>(gpus->size())
                         : (on_gpu ? std::max(1, s.worker->hello().value("gpu_count", 1)) : 1);
  auto label = [&](int slot) {
    const int index = gpus ? gpus->at(slot) : slot;
    if (!common.ray.empty()) return fmt::format("ray/slot{}", slot);  // the hello names the node and GPU
    return on_gpu ? local_gpu_label(index) : fmt::format("cpu{}", index);
  };
  std::vector<SlotSpec> others;
  for (int i = 1; i < slots; ++i) {
    const std::optional<int> gpu = on_gpu ? std::optional(gpus ? gpus->at(i) : i) : std::nullopt;
    others.push_back({label(i), slot_command(i, gpu, (log_dir_of(worker_log) / fmt::format("worker-slot{}.log", i)).string())});
  }
  s.pool = std::make_unique<WorkerPool>(*s.worker, label(0), std::move(others), timeouts);
  s.pool->start_others();
  auto made = std::make_shared<std::atomic<int>>(0);
  const fs::path log_dir = log_dir_of(worker_log);
  std::vector<int> slot_gpus;
  if (on_gpu && common.ray.empty())
    for (int i = 0; i < slots; ++i) slot_gpus.push_back(gpus ? gpus->at(i) : i);
  s.make_worker = [cmd, timeouts, made, log_dir, slot_gpus]() {
    WorkerCommand c = cmd;
    const int n = ++*made;
    if (const auto gpu = compile_worker_gpu(n, slot_gpus)) c.env["CUDA_VISIBLE_DEVICES"] = visible_device(*gpu);
    c.stderr_path = (log_dir / fmt::format("compile-worker-{}.log", n)).string();
    return std::make_unique<WorkerClient>(std::move(c), timeouts);
  };
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  s.compile_workers = common.compile_workers >= 0 ? common.compile_workers : std::clamp(cores - 1, 0, 8);
  // The compile pool fills this machine's Triton cache, which actors on a cluster do not read.
  if (!common.ray.empty()) s.compile_workers = 0;
  return s;
}

void use_compile_pool(const Session& session, OptimizeOptions& opt) {
  opt.compile_workers = session.compile_workers;
  opt.make_compile_worker = session.make_worker;
}

void use_profiler(const Session& session, const CommonOptions& common, const std::string& mode,
                  const std::string& ncu_flag, OptimizeOptions& opt) {
  if (mode == "off") return;
  std::string ncu;
  try {
    ncu = locate_ncu(ncu_flag);
  } catch (const UserError&) {
    if (mode == "on") throw;
    return;  // auto: no ncu here, so the search prescribes from the floor that binds the problem
  }
  NcuProfilerSettings base;
  base.ncu.ncu = ncu;
  base.python = locate_python(common.python, session.paths);
  base.python_dir = session.paths.python_dir();
  base.problem = opt.problem;
  base.out_dir = opt.out_dir / "profiles";
  opt.make_profiler = [base](const ProblemFacts& facts, const GpuSpec& gpu) {
    NcuProfilerSettings s = base;
    s.facts = facts;
    s.gpu = gpu;
    return make_ncu_profiler(s);
  };
}

std::string format_us(double us) {
  if (us >= 1000) return fmt::format("{:.3f} ms", us / 1000);
  return fmt::format("{:.1f} us", us);
}

ProgressLine::ProgressLine(bool enabled) : enabled_(enabled), tty_(::isatty(STDERR_FILENO) != 0) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::operator()(const ProgressEvent& e) {
  if (!enabled_ || (e.live_only && !tty_)) return;
  std::string line = fmt::format("[{}] {}", e.problem, e.stage);
  if (e.trials > 0) line += fmt::format(" {}/{}", e.trial, e.trials);
  if (e.best_us) {
    line += " best " + format_us(*e.best_us);
    if (e.eager_us) line += fmt::format("  {:.2f}x eager", *e.eager_us / *e.best_us);
    if (e.compile_us) line += fmt::format("  {:.2f}x compile", *e.compile_us / *e.best_us);
  }
  if (!e.note.empty()) line += "  (" + e.note + ")";
  if (tty_) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    dirty_ = true;
    if (e.stage == "done") finish();
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
}

void ProgressLine::finish() {
  if (dirty_) std::fputc('\n', stderr);
  dirty_ = false;
}

}  // namespace kernelagent::cli

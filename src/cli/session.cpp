#include "kernelagent/cli/session.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include <fmt/format.h>

namespace kernelagent::cli {

namespace fs = std::filesystem;

Session open_session(const CommonOptions& common, const fs::path& worker_log) {
  if (common.device != "auto" && common.device != "cpu")
    throw UserError(ExitCode::bad_input, "--device must be 'auto' or 'cpu', not '" + common.device + "'");
  if (common.timeout_s <= 0) throw UserError(ExitCode::bad_input, "--timeout must be a positive number of seconds");
  Session s;
  s.paths = Paths::locate(common.home);
  s.history = std::make_unique<HistoryStore>(common.db.empty() ? default_history_path() : fs::path(common.db));
  s.families = load_families(s.paths.families_dir());

  WorkerCommand cmd;
  cmd.argv = {locate_python(common.python, s.paths), "-u", "-m", "kernelagent_worker"};
  std::string pythonpath = s.paths.python_dir().string();
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) pythonpath += std::string(":") + old;
  cmd.env["PYTHONPATH"] = pythonpath;
  if (common.device == "cpu") cmd.env["KERNELAGENT_DEVICE"] = "cpu";
  std::error_code ec;
  if (worker_log.has_parent_path()) fs::create_directories(worker_log.parent_path(), ec);
  cmd.stderr_path = worker_log.string();

  WorkerTimeouts timeouts;
  const auto candidate_timeout = std::chrono::milliseconds(static_cast<long long>(common.timeout_s * 1000));
  timeouts.compile = timeouts.check = candidate_timeout;
  s.worker = std::make_unique<WorkerClient>(cmd, timeouts);
  s.worker->start();
  auto made = std::make_shared<int>(0);
  const fs::path log_dir = worker_log.has_parent_path() ? worker_log.parent_path() : fs::path(".");
  s.make_worker = [cmd, timeouts, made, log_dir]() {
    WorkerCommand c = cmd;
    c.stderr_path = (log_dir / fmt::format("compile-worker-{}.log", ++*made)).string();
    return std::make_unique<WorkerClient>(std::move(c), timeouts);
  };
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  s.compile_workers = common.compile_workers >= 0 ? common.compile_workers : std::clamp(cores - 1, 0, 8);
  return s;
}

void use_compile_pool(const Session& session, OptimizeOptions& opt) {
  opt.compile_workers = session.compile_workers;
  opt.make_compile_worker = session.make_worker;
}

std::string format_us(double us) {
  if (us >= 1000) return fmt::format("{:.3f} ms", us / 1000);
  return fmt::format("{:.1f} us", us);
}

ProgressLine::ProgressLine(bool enabled) : enabled_(enabled), tty_(::isatty(STDERR_FILENO) != 0) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::operator()(const ProgressEvent& e) {
  if (!enabled_) return;
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

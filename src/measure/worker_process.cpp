#include "kernelagent/measure/worker_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace kernelagent {

using Clock = std::chrono::steady_clock;

namespace {

// Runs `fork_child` on one thread that lives as long as the engine. A worker asks to be killed when its
// parent dies (PR_SET_PDEATHSIG), and Linux takes the parent to be the thread that forked: a worker
// started from a short-lived thread (a GPU slot measuring its part of a batch) would be killed when that
// thread ended. Forking on this thread ties every worker to the engine's lifetime instead.
pid_t on_spawner_thread(const std::function<pid_t()>& fork_child) {
  struct Job {
    const std::function<pid_t()>* fork_child;
    std::promise<pid_t> pid;
  };
  // Never destroyed: the thread waits on them until the process ends, and destroying a condition variable
  // that a thread waits on blocks exit.
  struct Spawner {
    std::mutex mu;
    std::condition_variable wake;
    std::deque<Job*> jobs;
  };
  static Spawner* const spawner = [] {
    auto* s = new Spawner;
    std::thread([s]() {
      while (true) {
        std::unique_lock lock(s->mu);
        s->wake.wait(lock, [s] { return !s->jobs.empty(); });
        Job* job = s->jobs.front();
        s->jobs.pop_front();
        lock.unlock();
        job->pid.set_value((*job->fork_child)());
      }
    }).detach();
    return s;
  }();
  Job job{&fork_child, {}};
  std::future<pid_t> pid = job.pid.get_future();
  {
    std::lock_guard lock(spawner->mu);
    spawner->jobs.push_back(&job);
  }
  spawner->wake.notify_one();
  return pid.get();
}

}  // namespace

WorkerProcess::WorkerProcess(WorkerCommand command) : command_(std::move(command)) {
  // A worker that dies while we write to it must not kill the engine.
  ::signal(SIGPIPE, SIG_IGN);
}

WorkerProcess::~WorkerProcess() { kill(); }

Exchange WorkerProcess::start(std::chrono::milliseconds timeout) {
  kill();
  int in_pipe[2], out_pipe[2], pid_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(pid_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error(fmt::format("cannot create pipes for the worker: {}", std::strerror(errno)));

  // Everything the child needs is prepared before fork: after it only async-signal-safe calls.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    std::string kv(*e);
    auto key = kv.substr(0, kv.find('='));
    if (!command_.env.contains(key)) env_strings.push_back(kv);
  }
  for (const auto& [k, v] : command_.env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp, argv;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  for (auto& s : command_.argv) argv.push_back(s.data());
  argv.push_back(nullptr);
  int err_fd = -1;
  if (!command_.stderr_path.empty())
    err_fd = ::open(command_.stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const pid_t parent = ::getpid();

  pid_t pid = on_spawner_thread([&]() -> pid_t {
    // Signals the watchdog waits for: its worker ended, or the engine died (PR_SET_PDEATHSIG). Blocked
    // before the fork, so that neither can arrive before the watchdog waits.
    sigset_t watched, previous;
    sigemptyset(&watched);
    sigaddset(&watched, SIGCHLD);
    sigaddset(&watched, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &watched, &previous);
    const pid_t child = ::fork();
    if (child != 0) {
      const int fork_errno = errno;
      pthread_sigmask(SIG_SETMASK, &previous, nullptr);
      return child < 0 ? -fork_errno : child;  // errno is this thread's: the caller gets it as the result
    }
    // The watchdog, in a process group of its own (a terminal's signals are the engine's to take).
    ::setpgid(0, 0);
    ::signal(SIGCHLD, SIG_DFL);  // an ignored SIGCHLD (inherited from whoever started the engine) would
    ::signal(SIGTERM, SIG_DFL);  // reap the worker unseen
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(126);
    const pid_t watchdog = ::getpid();
    ::dup2(in_pipe[0], STDIN_FILENO);
    ::dup2(out_pipe[1], STDOUT_FILENO);
    if (err_fd >= 0) ::dup2(err_fd, STDERR_FILENO);
    // The worker's pid goes back to the engine on descriptor 3 (closed on exec: the worker never holds it).
    // Nothing else of the engine's stays open here (another worker's pipes, the history, the output
    // folder's lock): the engine must see each worker's pipe close when that worker ends.
    if (pid_pipe[1] != 3) ::dup2(pid_pipe[1], 3);
    ::fcntl(3, F_SETFD, FD_CLOEXEC);
    if (::close_range(4, ~0U, 0) != 0)
      for (int fd = 4; fd < 65536; ++fd) ::close(fd);
    const pid_t worker = ::fork();
    if (worker == 0) {
      // The worker leads the group a kill reaches: it and whatever it starts (compilers, ptxas, a process
      // the problem spawned).
      ::setpgid(0, 0);
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // and should the watchdog be killed, the worker goes too
      if (::getppid() != watchdog) ::_exit(126);
      pthread_sigmask(SIG_SETMASK, &previous, nullptr);
      ::execvpe(argv[0], argv.data(), envp.data());
      const char msg[] = "kernelagent: cannot execute the worker's Python interpreter\n";
      [[maybe_unused]] auto n = ::write(STDERR_FILENO, msg, sizeof msg - 1);
      ::_exit(127);
    }
    if (worker < 0) ::_exit(127);
    ::setpgid(worker, worker);  // also from here, so the group exists once the engine knows it
    [[maybe_unused]] auto n = ::write(3, &worker, sizeof worker);
    ::close(3);
    // Only the worker reads and writes the pipes.
    ::close(STDIN_FILENO);
    ::close(STDOUT_FILENO);
    int st = 0;
    while (true) {
      siginfo_t info;
      const int sig = ::sigwaitinfo(&watched, &info);
      if (sig == SIGTERM) {  // the engine is gone: so is the worker's group
        ::kill(-worker, SIGKILL);
        while (::waitpid(worker, &st, 0) < 0 && errno == EINTR) {
        }
        ::_exit(137);
      }
      if (sig != SIGCHLD) continue;
      const pid_t r = ::waitpid(worker, &st, WNOHANG);
      if (r != worker || !(WIFEXITED(st) || WIFSIGNALED(st))) continue;
      if (WIFEXITED(st)) ::_exit(WEXITSTATUS(st));
      // End by the same signal, so the engine reads the worker's end; no core file of the watchdog.
      const int end = WTERMSIG(st);
      const rlimit no_core{0, 0};
      ::setrlimit(RLIMIT_CORE, &no_core);
      ::signal(end, SIG_DFL);
      sigset_t only;
      sigemptyset(&only);
      sigaddset(&only, end);
      pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
      ::kill(::getpid(), end);
      ::_exit(128 + end);
    }
  });
  ::close(pid_pipe[1]);
  if (pid < 0) {
    ::close(pid_pipe[0]);
    throw std::runtime_error(fmt::format("cannot start the worker: fork: {}", std::strerror(-pid)));
  }
  ::setpgid(pid, pid);  // also from the parent, so a kill right after fork cannot miss the watchdog
  // The worker's pid, which is its group's: nothing comes when the watchdog ended before it could start one.
  pid_t worker = 0;
  std::size_t got = 0;
  while (got < sizeof worker) {
    const ssize_t n = ::read(pid_pipe[0], reinterpret_cast<char*>(&worker) + got, sizeof worker - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(pid_pipe[0]);
  if (err_fd >= 0) ::close(err_fd);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  pid_ = pid;
  group_ = got == sizeof worker && worker > 0 ? worker : pid;
  to_worker_ = in_pipe[1];
  from_worker_ = out_pipe[0];
  buffer_.clear();
  return read_reply(timeout);
}

Exchange WorkerProcess::request(const nlohmann::json& req, std::chrono::milliseconds timeout) {
  if (!running()) return {Exchange::Outcome::crashed, {}, "worker is not running"};
  std::string line = req.dump() + "\n";
  std::size_t written = 0;
  while (written < line.size()) {
    ssize_t n = ::write(to_worker_, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Exchange ex{Exchange::Outcome::crashed, {}, "worker closed its input: " + describe_exit()};
      return ex;
    }
    written += static_cast<std::size_t>(n);
  }
  return read_reply(timeout);
}

Exchange WorkerProcess::receive(std::chrono::milliseconds timeout) {
  if (!running()) return {Exchange::Outcome::crashed, {}, "worker is not running"};
  return read_reply(timeout);
}

Exchange WorkerProcess::read_reply(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      auto parsed = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (parsed.is_discarded() || !parsed.is_object() || !parsed.contains("status")) {
        std::string shown = line.substr(0, 200);
        kill();
        return {Exchange::Outcome::protocol_error, {}, "worker wrote a line that is not a reply: " + shown};
      }
      return {Exchange::Outcome::reply, std::move(parsed), {}};
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      kill();
      return {Exchange::Outcome::timeout, {}, fmt::format("no reply within {:.1f} s; worker killed",
                                                          static_cast<double>(timeout.count()) / 1000.0)};
    }
    pollfd pfd{from_worker_, POLLIN, 0};
    int r = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    char chunk[65536];
    ssize_t n = ::read(from_worker_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int signal = 0;
      std::string why = describe_exit(&signal);
      return {Exchange::Outcome::crashed, {}, why, signal};
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

std::string WorkerProcess::describe_exit(int* signal) {
  if (!running()) return "worker is not running";
  int st = 0;
  pid_t r = ::waitpid(pid_, &st, 0);
  while (r < 0 && errno == EINTR) r = ::waitpid(pid_, &st, 0);
  std::string why;
  if (r == pid_ && WIFSIGNALED(st)) {
    why = fmt::format("worker killed by signal {} ({})", WTERMSIG(st), ::strsignal(WTERMSIG(st)));
    if (signal) *signal = WTERMSIG(st);
  } else if (r == pid_ && WIFEXITED(st))
    why = fmt::format("worker exited with code {}", WEXITSTATUS(st));
  else
    why = "worker ended";
  ::kill(-group_, SIGKILL);  // anything the worker left behind in its group
  pid_ = group_ = -1;
  ::close(to_worker_);
  ::close(from_worker_);
  to_worker_ = from_worker_ = -1;
  return why;
}

void WorkerProcess::kill() {
  if (!running()) return;
  // The worker's group: the watchdog reaps the worker and ends as it did. (Killing the watchdog too would
  // leave the worker to be reaped by whoever adopts it.)
  ::kill(-group_, SIGKILL);
  if (group_ == pid_) ::kill(pid_, SIGKILL);
  int st = 0;
  while (::waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
  }
  ::close(to_worker_);
  ::close(from_worker_);
  to_worker_ = from_worker_ = -1;
  pid_ = group_ = -1;
}

}  // namespace kernelagent

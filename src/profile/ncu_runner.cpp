#include "kernelagent/profile/ncu_runner.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "kernelagent/core/error.hpp"
#include "kernelagent/core/template.hpp"

extern char** environ;

namespace kernelagent {

namespace fs = std::filesystem;

namespace {

// The sections the diagnosis reads (docs/diagnosis.md), not `--set full`, which is several times slower.
const std::vector<std::string> kSections = {
    "SpeedOfLight",        "MemoryWorkloadAnalysis", "MemoryWorkloadAnalysis_Tables", "Occupancy", "LaunchStats",
    "WarpStateStats",      "ComputeWorkloadAnalysis", "SourceCounters",               "InstructionStats"};

bool executable(const fs::path& p) { return ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); }

std::string tail_of(const fs::path& p, std::size_t max_chars) {
  std::string text;
  try {
    text = read_text_file(p);
  } catch (...) {
    return "";
  }
  return text.size() > max_chars ? text.substr(text.size() - max_chars) : text;
}

}  // namespace

std::string locate_ncu(const std::string& flag) {
  if (!flag.empty()) {
    if (executable(flag) || flag.find('/') == std::string::npos) return flag;
    throw UserError(ExitCode::environment, fmt::format("--ncu {} is not an executable file", flag));
  }
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    for (std::string dir; std::getline(ss, dir, ':');)
      if (!dir.empty() && executable(fs::path(dir) / "ncu")) return (fs::path(dir) / "ncu").string();
  }
  for (const char* p : {"/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/ncu"})
    if (executable(p)) return p;
  std::error_code ec;
  if (fs::is_directory("/opt/nvidia/nsight-compute", ec))
    for (const auto& e : fs::directory_iterator("/opt/nvidia/nsight-compute", ec))
      if (executable(e.path() / "ncu")) return (e.path() / "ncu").string();
  throw UserError(ExitCode::environment,
                  "Nsight Compute (ncu) was not found on PATH, in /usr/local/cuda/bin or /opt/nvidia/nsight-compute; "
                  "install it (it ships with the CUDA toolkit) or pass --ncu PATH");
}

std::vector<std::string> ncu_command(const NcuOptions& o, const std::string& ncu, const std::string& python,
                                     const fs::path& problem, const fs::path& kernel) {
  std::vector<std::string> argv = {ncu, "--csv", "--page", "raw", "--clock-control", o.clock_control,
                                   "--nvtx", "--nvtx-include", "kernelagent_profile/", "--print-units", "base"};
  if (o.full_set) {
    argv.insert(argv.end(), {"--set", "full"});
  } else {
    for (const auto& s : kSections) argv.insert(argv.end(), {"--section", s});
  }
  argv.insert(argv.end(), {python, "-m", "kernelagent_worker.profile_target", problem.string(), kernel.string(),
                           "--warmup", std::to_string(o.warmup)});
  return argv;
}

NcuRun run_ncu(const NcuOptions& o, const std::string& python, const fs::path& python_dir, const fs::path& problem,
               const fs::path& kernel, const fs::path& out_dir) {
  NcuRun run;
  run.argv = ncu_command(o, locate_ncu(o.ncu), python, fs::absolute(problem), fs::absolute(kernel));
  fs::create_directories(out_dir);
  run.csv = out_dir / "profile.ncu.csv";
  run.log = out_dir / "profile.log";

  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e)
    if (std::string_view(*e).substr(0, 11) != "PYTHONPATH=") env_strings.emplace_back(*e);
  std::string pythonpath = python_dir.string();
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) pythonpath += std::string(":") + old;
  env_strings.push_back("PYTHONPATH=" + pythonpath);
  std::vector<char*> envp, argv;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  for (auto& s : run.argv) argv.push_back(s.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, run.csv.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, run.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw UserError(ExitCode::environment, fmt::format("cannot start {}: {}", run.argv[0], std::strerror(rc)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

  // ncu reports its own failures on stdout (==ERROR==) and the program's on stderr.
  const std::string out = tail_of(run.csv, 4000), err = tail_of(run.log, 2000);
  if (out.find("ERR_NVGPUCTRPERM") != std::string::npos || out.find("LibraryNotLoaded") != std::string::npos)
    throw UserError(ExitCode::environment,
                    "ncu cannot read the GPU's performance counters on this machine (permission or driver); see " +
                        run.csv.string());
  if (auto p = err.rfind("kernelagent_profile:"); p != std::string::npos)
    throw UserError(ExitCode::bad_input, "the profiled program failed: " + err.substr(p + 21, err.find('\n', p) - p - 21));
  if (out.find("No kernels were profiled") != std::string::npos)
    throw UserError(ExitCode::bad_input, "ncu profiled no kernel in the marked call: the kernel file launched nothing "
                                         "on the GPU (see " + run.log.string() + ")");
  if (run.exit_code != 0)
    throw UserError(ExitCode::environment, fmt::format("ncu exited with {}; see {} and {}", run.exit_code,
                                                       run.csv.string(), run.log.string()));
  return run;
}

}  // namespace kernelagent

#include "kernelagent/core/paths.hpp"

#include <unistd.h>

#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "kernelagent/core/error.hpp"

namespace kernelagent {

namespace fs = std::filesystem;

namespace {

bool holds_worker(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p / "python" / "kernelagent_worker" / "__main__.py", ec) && fs::exists(p / "families", ec);
}

fs::path executable_dir() {
  std::error_code ec;
  auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

}  // namespace

Paths Paths::locate(const std::string& explicit_home) {
  std::vector<fs::path> tried;
  auto accept = [&](const fs::path& p) {
    tried.push_back(p);
    return holds_worker(p);
  };
  if (!explicit_home.empty()) {
    if (accept(explicit_home)) return {fs::absolute(explicit_home)};
    throw UserError(ExitCode::environment,
                    fmt::format("--home {} does not hold python/kernelagent_worker and families/", explicit_home));
  }
  if (const char* env = std::getenv("KERNELAGENT_HOME"); env && *env) {
    if (accept(env)) return {fs::absolute(env)};
    throw UserError(ExitCode::environment,
                    fmt::format("KERNELAGENT_HOME={} does not hold python/kernelagent_worker and families/", env));
  }
  fs::path dir = executable_dir();
  for (int up = 0; up < 4 && !dir.empty(); ++up, dir = dir.parent_path()) {
    if (accept(dir)) return {dir};
    if (accept(dir / "share" / "kernelagent")) return {dir / "share" / "kernelagent"};
  }
#ifdef KA_SOURCE_DIR
  if (accept(KA_SOURCE_DIR)) return {KA_SOURCE_DIR};
#endif
  std::string where;
  for (const auto& t : tried) where += "\n  " + t.string();
  throw UserError(ExitCode::environment,
                  "cannot find the KernelAgent worker (python/kernelagent_worker) and families/; looked in:" + where +
                      "\nPass --home DIR or set KERNELAGENT_HOME to the checkout.");
}

std::string locate_python(const std::string& flag, const Paths& paths) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("KERNELAGENT_PYTHON"); env && *env) return env;
  std::error_code ec;
  fs::path venv = paths.home / ".venv" / "bin" / "python";
  if (fs::exists(venv, ec)) return venv.string();
  return "python3";
}

}  // namespace kernelagent

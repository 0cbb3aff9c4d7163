#pragma once
// Where the installation's parts live: the Python worker (python/) and the kernel families (families/).

#include <filesystem>
#include <string>

namespace kernelagent {

struct Paths {
  std::filesystem::path home;  // holds python/kernelagent_worker and families/

  std::filesystem::path python_dir() const { return home / "python"; }
  std::filesystem::path families_dir() const { return home / "families"; }

  // `explicit_home` (--home) first, then $KERNELAGENT_HOME, then the folders above the executable
  // (a build tree inside the checkout), then the source tree the binary was built from.
  // Throws UserError(environment) when none holds the worker.
  static Paths locate(const std::string& explicit_home);
};

// The Python interpreter for the worker: `flag` (--python) if given, else $KERNELAGENT_PYTHON, else
// the checkout's .venv, else "python3" from PATH.
std::string locate_python(const std::string& flag, const Paths& paths);

}  // namespace kernelagent

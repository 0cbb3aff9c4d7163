#include <fmt/format.h>

#include "kernelagent/core/hash.hpp"
#include "kernelagent/core/output_dir.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/orchestrate/stages/optimize_stages.hpp"

namespace kernelagent {

namespace fs = std::filesystem;
using nlohmann::json;

std::optional<RunEnd> load_stage(OptimizeState& s) {
  // Without its output folder or its problem file a run has nowhere to write and nothing to say: a
  // UserError, not a result. A problem where the run would write is refused before anything is written;
  // what an earlier run left in the folder goes, so that its kernel.py and result.json are this run's.
  refuse_to_write_over(s.problem, s.opt.out_dir);
  clear_earlier_run(s.opt.out_dir);
  std::error_code ec;
  fs::create_directories(s.opt.out_dir / "candidates", ec);
  if (ec)
    throw UserError(ExitCode::bad_input, fmt::format("cannot create {}: {}", s.opt.out_dir.string(), ec.message()));
  std::string problem_text;
  try {
    problem_text = read_text_file(s.problem);
  } catch (const std::exception&) {
    throw UserError(ExitCode::bad_input, fmt::format("cannot read the problem file {}", s.problem.string()));
  }
  s.info.problem_hash = hash_hex(problem_text);
  s.result["problem"]["hash"] = s.info.problem_hash;

  s.progress({.stage = "load"});
  Reply loaded = s.worker.load(s.problem.string(), 0);
  if (!loaded.ok()) {
    // The failed run is recorded too, so the history says what was tried.
    s.begin_run();
    return RunEnd{ExitCode::bad_input, loaded.status, loaded.message.empty() ? loaded.status : loaded.message};
  }
  s.result["problem"]["inputs"] = loaded.body.value("inputs", json::array());
  s.result["problem"]["outputs"] = loaded.body.value("outputs", json::array());
  return std::nullopt;
}

}  // namespace kernelagent

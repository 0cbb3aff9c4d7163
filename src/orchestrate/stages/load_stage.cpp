#include <fmt/format.h>

#include "kernelagent/core/hash.hpp"
#include "kernelagent/core/output_dir.hpp"
#include "kernelagent/core/status.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/orchestrate/stages/optimize_stages.hpp"

namespace kernelagent {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A load's progress note in words, for the live line.
std::string load_phase_words(const json& note, const std::string& problem) {
  const json field = note.is_object() ? note.value("phase", json()) : json();
  const std::string phase = field.is_string() ? field.get<std::string>() : "";
  if (phase == "import") return "importing " + problem;
  if (phase == "init_inputs") return "get_init_inputs()";
  if (phase == "model") return "building Model";
  if (phase == "inputs") return "get_inputs()";
  if (phase == "reference") return "running the reference once";
  return phase;
}

}  // namespace

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

  // The problem runs its own code here (import, get_inputs, a first forward): the live line says which part
  // and how long it may take, and a problem that hangs or ends the worker is named with that part.
  const double limit_s = static_cast<double>(s.worker.timeouts().load.count()) / 1000.0;
  s.progress({.stage = "load", .note = fmt::format("at most {:g} s", limit_s)});
  s.worker.on_note([&](const json& note) {
    s.progress({.stage = "load",
                .note = fmt::format("{}; at most {:g} s", load_phase_words(note, s.label), limit_s),
                .live_only = true});
  });
  Reply loaded = s.worker.load(s.problem.string(), 0, to_string(s.opt.precision));
  s.worker.on_note({});
  if (!loaded.ok()) {
    // The failed run is recorded too, so the history says what was tried.
    s.begin_run();
    std::string message = loaded.message.empty() ? loaded.status : loaded.message;
    if (loaded.status == status::timeout) message += " (--load-timeout sets how long loading may take)";
    return RunEnd{ExitCode::bad_input, loaded.status, message};
  }
  s.result["problem"]["inputs"] = loaded.body.value("inputs", json::array());
  s.result["problem"]["outputs"] = loaded.body.value("outputs", json::array());
  return std::nullopt;
}

}  // namespace kernelagent

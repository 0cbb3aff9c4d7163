// `kernelagent replay PROBLEM S.json`: the search loop run against a recorded sweep instead of a
// GPU. No worker starts; every measurement is the record's, so the run is deterministic and shows what
// the strategy would have measured, in which order and why.

#include <fmt/format.h>

#include <iostream>

#include "kernelagent/cli/arg_checks.hpp"
#include "kernelagent/cli/commands.hpp"
#include "kernelagent/cli/session.hpp"
#include "kernelagent/cli/slot_plan.hpp"
#include "kernelagent/core/hash.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/explore/sweep_record.hpp"
#include "kernelagent/orchestrate/replay_context.hpp"
#include "kernelagent/orchestrate/search_strategy.hpp"

namespace kernelagent::cli {

namespace fs = std::filesystem;
using nlohmann::json;

int run_replay_command(const CommonOptions& common, const ReplayArgs& args) {
  require_problem_file(args.problem);
  SweepRecord rec = SweepRecord::load(args.sweep);
  // --gpus 0,1,2,3 replays the search as four GPUs would run it: proposals in batches of four.
  if (const auto gpus = parse_gpus(common.gpus)) rec.set_slots(static_cast<int>(gpus->size()));
  const std::string recorded_hash = rec.raw().at("problem").value("hash", "");
  std::vector<std::string> warnings;
  if (!recorded_hash.empty() && recorded_hash != hash_hex(read_text_file(args.problem)))
    warnings.push_back(fmt::format("{} differs from the problem the sweep recorded ({}): replaying the record as it is",
                                   args.problem, rec.name()));
  if (rec.raw().value("precision", "") != args.precision)
    warnings.push_back(fmt::format("the sweep was recorded under --precision {}, not {}",
                                   rec.raw().value("precision", ""), args.precision));

  auto strategy = make_search(args.search, args.seed);
  SearchContext ctx = replay_context(rec);
  SearchLimits limits;
  limits.max_trials = args.trials;
  limits.plateau = args.plateau;  // a replay runs to the space's end unless told otherwise (--plateau 0)
  const auto sweep_best = rec.best_us();
  if (args.target_fraction > 0 && rec.raw().contains("roofline") && rec.raw().at("roofline").contains("floor_us"))
    limits.target_us = rec.raw().at("roofline").at("floor_us").get<double>() / args.target_fraction;

  for (const auto& w : warnings) std::cerr << "warning: " << w << "\n";
  int n = 0;
  std::optional<int> near_best;
  auto on_trial = [&](const Trial& t) {
    ++n;
    if (!near_best && sweep_best && t.result.ok() && *t.result.median_us <= *sweep_best * 1.02) near_best = n;
    if (!common.json)
      fmt::print("{:>4}  {:>10}  {:<14} {}  {}\n", n, t.result.median_us ? format_us(*t.result.median_us) : "-",
                 t.result.status, t.config.dump(), t.reason);
  };
  if (!common.json)
    fmt::print("replay      {} ({} of {}, {} configurations) with the {} search{}\n", args.sweep,
               rec.raw().value("family", ""), rec.name(), rec.configs().size(), strategy->name(),
               rec.profiled() ? ", prescribing from the recorded diagnoses" : "");
  SearchOutcome out = run_search(*strategy, rec, ctx, limits, on_trial);

  json trials = json::array();
  for (const auto& t : out.trials) {
    json j = {{"config", t.config}, {"status", t.result.status}, {"reason", t.reason}};
    if (t.result.median_us) j["median_us"] = *t.result.median_us;
    trials.push_back(std::move(j));
  }
  const Trial* best = out.best();
  json result = {
      {"schema", "kernelagent.replay/1"},
      {"sweep", args.sweep},
      {"strategy", strategy->name()},
      {"stop_reason", out.stop_reason},
      {"trials", trials},
      {"best", best ? json{{"config", best->config}, {"median_us", *best->result.median_us}} : json(nullptr)},
      {"sweep_best_us", sweep_best ? json(*sweep_best) : json(nullptr)},
      {"trials_to_within_2pct", near_best ? json(*near_best) : json(nullptr)},
      {"warnings", warnings}};
  if (rec.capacity() > 1) result["slots"] = rec.capacity();  // a one-GPU replay's document is as it always was
  if (common.json) {
    std::cout << result.dump(2) << "\n";
  } else {
    fmt::print("stopped     {} after {} trials\n", out.stop_reason, out.trials.size());
    if (best)
      fmt::print("best        {} {} (the sweep's best {}; {})\n", format_us(*best->result.median_us),
                 best->config.dump(), sweep_best ? format_us(*sweep_best) : "n/a",
                 near_best ? fmt::format("within 2 % after {} trials", *near_best) : std::string("never within 2 %"));
  }
  return best ? 0 : static_cast<int>(ExitCode::no_valid_kernel);
}

}  // namespace kernelagent::cli

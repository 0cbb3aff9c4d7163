#include "kernelagent/cli/optimize_options.hpp"

#include <fmt/format.h>

namespace kernelagent::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// What every subcommand's runs share: the problem, where its files go, the precision policy and the
// timing method's threshold.
OptimizeOptions common_options(const CommonOptions& common, const fs::path& problem, const fs::path& out_dir,
                               const std::string& precision) {
  OptimizeOptions opt;
  opt.problem = problem;
  opt.out_dir = out_dir;
  opt.precision = parse_precision(precision);
  opt.graph_below_us = common.graph_below_us;
  return opt;
}

// --where KNOB=VALUE: VALUE is read as JSON (96, "tf32x3") or, failing that, as a bare string (tf32x3).
// Values of one knob are alternatives: --where split_r=96 --where split_r=192 keeps both splits. Whether the
// knobs and values exist is checked once the families are loaded (sweep_command.cpp).
Config parse_where(const std::vector<std::string>& where) {
  Config only = Config::object();
  for (const auto& w : where) {
    const auto eq = w.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == w.size())
      throw UserError(ExitCode::bad_input, fmt::format("--where {}: expected KNOB=VALUE, e.g. split_r=96", w));
    const std::string value = w.substr(eq + 1);
    json v = json::parse(value, nullptr, false);
    only[w.substr(0, eq)].push_back(v.is_discarded() ? json(value) : v);
  }
  return only;
}

}  // namespace

OptimizeOptions optimize_options(const CommonOptions& common, const OptimizeArgs& args) {
  const fs::path out_dir =
      args.out.empty() ? fs::path("kernelagent-out") / fs::path(args.problem).stem() : fs::path(args.out);
  OptimizeOptions opt = common_options(common, args.problem, out_dir, args.precision);
  opt.max_trials = args.trials;
  opt.search = args.search;
  opt.seed = args.seed;
  opt.plateau = args.plateau;
  opt.target_fraction = args.target_fraction;
  opt.search_budget_s = args.search_budget_s;
  opt.fresh = args.fresh;
  opt.finalists = args.finalists;
  return opt;
}

OptimizeOptions optimize_options(const CommonOptions& common, const SweepArgs& args) {
  const fs::path work = args.work.empty() ? fs::path(args.out + ".d") : fs::path(args.work);
  OptimizeOptions opt = common_options(common, args.problem, work, args.precision);
  // Every configuration, measured now: a record holds one run's measurements, never resumed ones.
  opt.search = "exhaustive";
  opt.whole_space = true;
  opt.fresh = true;
  opt.family = args.family;
  opt.only = parse_where(args.where);
  return opt;
}

OptimizeOptions optimize_options(const CommonOptions& common, const BenchArgs& args, const fs::path& problem) {
  OptimizeOptions opt = common_options(common, problem, bench_out_dir(args) / problem.stem(), args.precision);
  opt.max_trials = args.trials;
  opt.search_budget_s = args.search_budget_s;
  return opt;
}

fs::path bench_out_dir(const BenchArgs& args) {
  return args.out.empty() ? fs::path("kernelagent-bench") : fs::path(args.out);
}

}  // namespace kernelagent::cli

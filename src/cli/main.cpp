// kernelagent: turns a slow PyTorch operation into a verified, fast Triton kernel.
// Subcommands: optimize, sweep, replay, bench, check, report, history, diagnose, profile (see README.md).

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>
#include <string_view>

#include "kernelagent/cli/arg_checks.hpp"
#include "kernelagent/cli/commands.hpp"
#include "kernelagent/core/error.hpp"

namespace kernelagent::cli {

namespace {
constexpr const char* kTrialsHint = "leave --trials out for the default limit";
constexpr const char* kDbHint = "leave --db out for $KERNELAGENT_DB or the default database";
}  // namespace

void add_common_options(CLI::App& cmd, CommonOptions& o, SharedFlags which) {
  const bool all = which == SharedFlags::all;
  cmd.add_option("--home", o.home, "folder holding python/kernelagent_worker and families/ (default: found)")
      ->check(nonempty_path("leave --home out to find it from the binary's location"));
  cmd.add_option("--python", o.python, "Python interpreter with torch and triton for the worker")
      ->check(nonempty_path("leave --python out for the default interpreter"));
  if (all)
    cmd.add_option("--db", o.db, "history database (default: $KERNELAGENT_DB or ~/.local/share/kernelagent)")
        ->check(nonempty_path(kDbHint));
  cmd.add_option("--device", o.device, "auto: the GPU when there is one; cpu: Triton's interpreter")
      ->check(one_of({"auto", "cpu"}));
  cmd.add_option("--timeout", o.timeout_s,
                 "seconds a candidate may take to compile or check before it is killed (default 180)")
      ->check(real_number(0, false, std::nullopt, "a number of seconds"));
  cmd.add_option("--load-timeout", o.load_timeout_s,
                 "seconds the problem may take to load (import, build its inputs, run its reference once) and "
                 "then to be traced, each, before its worker is killed (default 300)")
      ->check(real_number(0, false, std::nullopt, "a number of seconds"));
  cmd.add_option("--graph-below-us", o.graph_below_us,
                 "calls faster than this many microseconds are timed by CUDA-graph replay (all targets together)")
      ->check(real_number(0, true, std::nullopt, "a number of microseconds"));
  if (all)
    cmd.add_option("--compile-workers", o.compile_workers,
                   "processes that compile an exhaustive search's candidates before they are timed, on a GPU "
                   "(default: min(8, CPU cores - 1); 0: none)")
        ->check(whole_number(0, 1024));
  cmd.add_option("--gpus", o.gpus,
                 all ? "GPUs to measure on, one worker each: 'all' (default: every GPU the worker sees; one slot on "
                       "the CPU) or indices such as 0,1,2,3 (with --device cpu: that many interpreter workers)"
                     : "the GPU to measure on: an index such as 1 (default: the first the worker sees)");
  if (all)
    cmd.add_option("--ray", o.ray,
                   "measure on a Ray cluster, one actor per GPU: its address (HOST:PORT) or 'auto' (the cluster "
                   "`ray start` runs on this machine)");
  cmd.add_flag("--json", o.json, "print the result as JSON on stdout");
}

}  // namespace kernelagent::cli

int main(int argc, char** argv) {
  using namespace kernelagent;
  using namespace kernelagent::cli;
  CLI::App app{"KernelAgent: a verified, fast Triton kernel for a slow PyTorch operation"};
  app.require_subcommand(1);
  app.set_version_flag("--version", KA_VERSION_STRING);

  CommonOptions common;
  OptimizeArgs opt;
  auto* optimize = app.add_subcommand("optimize", "search for the fastest correct kernel for a KernelBench problem");
  optimize->add_option("problem", opt.problem, "problem file (Model, get_inputs, get_init_inputs)")->required();
  optimize->add_option("--out", opt.out, "output folder for kernel.py and result.json (default: kernelagent-out/NAME)");
  optimize
      ->add_option("--precision", opt.precision, "strict: fp32 stays fp32-accurate; tf32: TF32 tensor cores allowed")
      ->check(one_of({"strict", "tf32"}));
  optimize
      ->add_option("--trials", opt.trials,
                   "most trials, at least 1, counting those resumed from the history (default: the whole space; "
                   "1 on CPU)")
      ->check(whole_number(1, INT32_MAX, kTrialsHint));
  optimize->add_option("--finalists", opt.finalists, "candidates re-measured against the baselines at the end")
      ->check(whole_number(1));
  optimize->add_option("--search", opt.search, "search strategy: guided, random or exhaustive")
      ->check(one_of({"guided", "random", "exhaustive"}));
  optimize->add_option("--seed", opt.seed, "seed of --search random")->check(seed_number());
  optimize->add_option("--profile", opt.profile,
                       "Nsight Compute diagnoses of the guided search's beam parents: auto (when ncu is found on a "
                       "GPU), on, off")
      ->check(one_of({"auto", "on", "off"}));
  optimize->add_option("--ncu", opt.ncu, "the ncu executable (default: found on PATH or in the CUDA folders)");
  optimize->add_option("--plateau", opt.plateau,
                       "stop after N trials without a 1 % improvement (default: 10 for the guided search on a GPU "
                       "without --trials, else never; 0: never)")
      ->check(whole_number(0));
  optimize
      ->add_option("--search-budget", opt.search_budget_s,
                   "start no trial after this many seconds of search (default: 120 for the guided search on a GPU "
                   "without --trials, else none; 0: none)")
      ->check(real_number(0, true, std::nullopt, "a number of seconds"));
  optimize
      ->add_option("--target", opt.target_fraction,
                   "stop once the best reaches this fraction of the roofline floor, e.g. 0.9 (needs a GPU)")
      ->check(real_number(0, true, 1.0, "a fraction"));
  optimize->add_flag("--fresh", opt.fresh,
                     "ignore the history: measure again what earlier runs measured, no warm start");
  optimize
      ->add_option("--kernel", opt.kernel,
                   "your own kernel file (a ModelNew) to tune over the constants it marks with "
                   "'# kernelagent: V1, V2, ...' instead of a kernel family (docs/user-kernels.md)")
      ->check(nonempty_path("leave --kernel out to let a kernel family write the kernel"));
  add_common_options(*optimize, common);

  SweepArgs sweep;
  auto* sweep_cmd =
      app.add_subcommand("sweep", "measure every configuration of a family's knob space and record it for replay");
  sweep_cmd->add_option("problem", sweep.problem, "problem file")->required();
  sweep_cmd->add_option("--out", sweep.out, "the sweep record to write (kernelagent.sweep/1 JSON)")->required();
  sweep_cmd->add_option("--family", sweep.family, "kernel family (default: the first that implements the problem)");
  sweep_cmd->add_option("--precision", sweep.precision, "strict or tf32")->check(one_of({"strict", "tf32"}));
  sweep_cmd->add_flag("--profile", sweep.profile,
                      "profile every configuration that passed with Nsight Compute; the record keeps each diagnosis");
  sweep_cmd->add_option("--ncu", sweep.ncu, "the ncu executable (default: found on PATH or in the CUDA folders)");
  sweep_cmd->add_option("--where", sweep.where,
                        "only the configurations with this knob value, KNOB=VALUE (a JSON value or a bare string; "
                        "repeatable; one knob's values are alternatives), e.g. --where split_r=96 --where split_r=192");
  sweep_cmd->add_option("--work", sweep.work,
                        "folder for the candidates, result.json and the worker log (default: S.json's name + .d)");
  add_common_options(*sweep_cmd, common);

  ReplayArgs replay;
  auto* replay_cmd = app.add_subcommand(
      "replay", "run the search against a recorded sweep (kernelagent sweep) instead of a GPU; nothing is measured");
  replay_cmd->add_option("problem", replay.problem, "problem file the sweep recorded")->required();
  replay_cmd->add_option("sweep", replay.sweep, "the sweep record (kernelagent.sweep/1 JSON)")->required();
  replay_cmd->add_option("--search", replay.search, "search strategy: guided, random or exhaustive")
      ->check(one_of({"guided", "random", "exhaustive"}));
  replay_cmd->add_option("--seed", replay.seed, "seed of --search random")->check(seed_number());
  replay_cmd
      ->add_option("--trials", replay.trials, "most trials, at least 1 (default: no limit but the record's space)")
      ->check(whole_number(1, INT32_MAX, kTrialsHint));
  replay_cmd
      ->add_option("--plateau", replay.plateau, "stop after N trials without a 1 % improvement (default 0: never)")
      ->check(whole_number(0));
  replay_cmd
      ->add_option("--target", replay.target_fraction,
                   "stop once the best reaches this fraction of the record's roofline floor, e.g. 0.9")
      ->check(real_number(0, true, 1.0, "a fraction"));
  replay_cmd
      ->add_option("--precision", replay.precision,
                   "the policy replayed under: strict or tf32 (a record made under the other is replayed with a "
                   "warning)")
      ->check(one_of({"strict", "tf32"}));
  replay_cmd->add_option("--gpus", common.gpus,
                         "replay the search as these GPUs would run it, one proposal per GPU at a time: indices "
                         "such as 0,1,2,3 (default: one)");
  replay_cmd->add_flag("--json", common.json, "print the replay as JSON on stdout");

  BenchArgs bench;
  auto* bench_cmd = app.add_subcommand("bench", "optimize every problem in a folder and print one table");
  bench_cmd->add_option("dir", bench.dir, "folder of problem files")->required();
  bench_cmd->add_option("--out", bench.out, "output folder (default: kernelagent-bench)");
  bench_cmd->add_option("--precision", bench.precision, "strict or tf32")->check(one_of({"strict", "tf32"}));
  bench_cmd->add_option("--trials", bench.trials, "most candidates per problem, at least 1")
      ->check(whole_number(1, INT32_MAX, kTrialsHint));
  bench_cmd
      ->add_option("--search-budget", bench.search_budget_s,
                   "seconds of search per problem after which no trial starts (default: optimize's)")
      ->check(real_number(0, true, std::nullopt, "a number of seconds"));
  bench_cmd->add_flag("--resume", bench.resume,
                      "keep the problems the bench.json in --out finished (same GPU and precision) and run the "
                      "others: a bench spread over several sittings");
  add_common_options(*bench_cmd, common);

  DiagnoseArgs diag;
  auto* diagnose =
      app.add_subcommand("diagnose", "diagnose kernels from a saved Nsight Compute raw CSV (no GPU needed)");
  diagnose->add_option("--ncu-csv", diag.csv, "output of `ncu --csv --page raw ...`")->required();
  diagnose->add_option("--gpu", diag.gpu,
                       "GPU name (default: the one the profile names), e.g. 'NVIDIA H100 80GB HBM3'");
  diagnose->add_option("--kernel", diag.kernel, "regex selecting kernels by name");
  diagnose->add_flag("--all-kernels", diag.all_kernels, "also diagnose PyTorch and library kernels");
  diagnose->add_option("--bytes", diag.bytes, "the problem's compulsory bytes (judges useful traffic)")
      ->check(real_number(0, true, std::nullopt, "a number of bytes"));
  diagnose->add_option("--input-bytes", diag.input_bytes, "the part of --bytes the inputs are (judges DRAM re-reads)")
      ->check(real_number(0, true, std::nullopt, "a number of bytes"));
  diagnose->add_option("--flops", diag.flops, "the problem's FLOPs")
      ->check(real_number(0, true, std::nullopt, "a number of FLOPs"));
  diagnose->add_flag("--matmul", diag.matmul, "the kernel computes a matrix product (tensor cores could do it)");
  diagnose->add_flag("--json", diag.json, "print JSON");

  ProfileArgs prof;
  auto* profile =
      app.add_subcommand("profile", "profile a kernel for a problem with Nsight Compute on the GPU and diagnose it");
  profile->add_option("problem", prof.problem, "problem file")->required();
  profile->add_option("--kernel", prof.kernel, "kernel file with ModelNew (default: the best kernel in the history)");
  profile->add_option("--out", prof.out, "folder for the ncu CSV and log");
  profile->add_option("--ncu", prof.ncu, "the ncu executable (default: found on PATH or in the CUDA folders)");
  profile->add_option("--clock-control", prof.clock_control, "ncu's --clock-control (none reads counters here)")
      ->check(one_of({"none", "base"}));
  profile->add_flag("--matmul", prof.matmul, "the kernel computes a matrix product (tensor-core verdicts apply)");
  profile->add_flag("--set-full", prof.full_set, "collect `--set full` instead of the sections the diagnosis needs");
  profile
      ->add_option("--bytes", prof.bytes,
                   "the problem's compulsory bytes (default: from the history's last optimize of the problem; "
                   "`kernelagent check` reports them)")
      ->check(real_number(0, true, std::nullopt, "a number of bytes"));
  profile->add_option("--input-bytes", prof.input_bytes, "the part of --bytes the inputs are (default: as --bytes)")
      ->check(real_number(0, true, std::nullopt, "a number of bytes"));
  profile->add_option("--flops", prof.flops, "the problem's FLOPs (default: as --bytes)")
      ->check(real_number(0, true, std::nullopt, "a number of FLOPs"));
  profile->add_option("--home", common.home, "folder holding python/ and families/")
      ->check(nonempty_path("leave --home out to find it from the binary's location"));
  profile->add_option("--python", common.python, "Python interpreter with torch and triton")
      ->check(nonempty_path("leave --python out for the default interpreter"));
  profile->add_option("--db", common.db, "history database")->check(nonempty_path(kDbHint));
  profile->add_flag("--json", common.json, "print JSON");

  CheckArgs check;
  auto* check_cmd = app.add_subcommand(
      "check",
      "check a kernel file of your own (ModelNew) against a problem: correctness on fresh seeds, every "
      "known cheat, and on a GPU its speed against eager and torch.compile");
  check_cmd->add_option("problem", check.problem, "problem file (Model, get_inputs, get_init_inputs)")->required();
  check_cmd->add_option("kernel", check.kernel, "kernel file with ModelNew (same constructor and forward as Model)")
      ->required();
  check_cmd->add_option("--out", check.out,
                        "folder for check.json and the worker's log (default: "
                        "kernelagent-out/NAME/check)");
  check_cmd
      ->add_option("--precision", check.precision, "strict: fp32 stays fp32-accurate; tf32: TF32 tensor cores allowed")
      ->check(one_of({"strict", "tf32"}));
  auto* seeds_opt = check_cmd->add_option("--seeds", check.seeds, "how many fresh random seeds to check on (default 3)")
                        ->check(whole_number(1, 1000));
  check_cmd
      ->add_option("--seed-list", check.seed_list,
                   "check on these seeds instead of fresh ones, e.g. 11,22,33 (to repeat a check)")
      ->delimiter(',')
      ->check(whole_number(0, INT32_MAX))
      ->excludes(seeds_opt);
  add_common_options(*check_cmd, common, SharedFlags::one_worker);

  ReportArgs rep;
  auto* report_cmd = app.add_subcommand("report",
                                        "write one self-contained HTML page (charts, no script, nothing loaded) of "
                                        "an optimize's or a bench's output");
  report_cmd
      ->add_option("dir", rep.dir, "an optimize's output folder (result.json) or a bench's (bench.json), or that file")
      ->required();
  report_cmd->add_option("--out", rep.out, "the HTML file to write (default: report.html in DIR)");

  HistoryArgs hist;
  auto* history = app.add_subcommand("history", "list past runs from the history database");
  history->add_option("--limit", hist.limit, "most runs to list")->check(whole_number(1));
  history->add_option("--db", common.db, "history database")->check(nonempty_path(kDbHint));
  history->add_flag("--json", common.json, "print JSON");

  // A word where the subcommand goes that is none of them: CLI11 would say "A subcommand is required".
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  const std::string listed = fmt::format("{}", fmt::join(names, ", "));
  if (argc < 2) {
    std::cerr << "kernelagent: a subcommand is required: " << listed << " (kernelagent --help)\n";
    return static_cast<int>(ExitCode::bad_input);
  }
  if (const std::string first = argv[1];
      !first.starts_with("-") && std::find(names.begin(), names.end(), first) == names.end()) {
    const auto near = closest(first, names);
    std::cerr << "kernelagent: unknown subcommand '" << first << "'"
              << (near ? fmt::format(" (did you mean '{}'?)", *near) : std::string()) << "; the subcommands are "
              << listed << " (kernelagent --help)\n";
    return static_cast<int>(ExitCode::bad_input);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help, --version
    // One line and exit code 2 for every argument error, naming where the flags are described.
    const auto chosen = app.get_subcommands();
    const CLI::App* sub = chosen.empty() ? nullptr : chosen.front();
    std::string message = short_parse_message(e);
    if (dynamic_cast<const CLI::ExtrasError*>(&e) && sub) {  // a misspelled flag: name it, and the nearest one
      std::vector<std::string> flags;
      for (const CLI::Option* o : sub->get_options())
        for (const auto& name : o->get_lnames()) flags.push_back("--" + name);
      for (int i = 2; i < argc; ++i) {
        const std::string arg = std::string(argv[i]).substr(0, std::string_view(argv[i]).find('='));
        if (!arg.starts_with("--") || std::find(flags.begin(), flags.end(), arg) != flags.end()) continue;
        const auto near = closest(arg, flags);
        message = fmt::format("unknown option '{}'{}", arg, near ? fmt::format(" (did you mean '{}'?)", *near) : "");
        break;
      }
    }
    const std::string name = sub ? sub->get_name() : "";
    std::cerr << "kernelagent: " << (name.empty() ? "" : name + ": ") << message << "; see kernelagent "
              << (name.empty() ? "" : name + " ") << "--help\n";
    // A replay is a subcommand of its own: whoever asks optimize for one is told where it is.
    auto is_replay_flag = [](const char* arg) { return std::string_view(arg).starts_with("--replay"); };
    if (*optimize && std::any_of(argv + 1, argv + argc, is_replay_flag))
      std::cerr << "kernelagent: a sweep is replayed by its own subcommand: kernelagent replay PROBLEM.py S.json\n";
    return static_cast<int>(ExitCode::bad_input);
  }
  try {
    if (*optimize) return run_optimize_command(common, opt);
    if (*replay_cmd) return run_replay_command(common, replay);
    if (*bench_cmd) return run_bench_command(common, bench);
    if (*sweep_cmd) return run_sweep_command(common, sweep);
    if (*report_cmd) return run_report_command(rep);
    if (*history) return run_history_command(common, hist);
    if (*diagnose) return run_diagnose_command(diag);
    if (*profile) return run_profile_command(common, prof);
    if (*check_cmd) return run_check_command(common, check);
  } catch (const UserError& e) {
    std::cerr << "kernelagent: " << e.what() << "\n";
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::cerr << "kernelagent: internal error: " << e.what() << "\n";
    return 70;
  }
  return 0;
}

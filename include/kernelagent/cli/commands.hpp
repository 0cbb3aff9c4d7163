#pragma once
// The CLI's subcommands. Each registers its flags on a CLI11 app and returns the process exit code.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "kernelagent/profile/ncu_report.hpp"

namespace kernelagent::cli {

// Flags every command that talks to a worker shares.
struct CommonOptions {
  std::string home;             // --home
  std::string python;           // --python
  std::string db;               // --db
  std::string device = "auto";  // --device auto|cpu
  bool json = false;            // --json
  double timeout_s = 180;       // --timeout: per compile/check request of a candidate
  double load_timeout_s = 300;  // --load-timeout: loading the problem, and tracing it, each
  double graph_below_us = 50;   // --graph-below-us: calls faster than this are timed by CUDA-graph replay
  int compile_workers = -1;     // --compile-workers: the compile pool's size (-1: min(8, cores - 1))
  std::string gpus = "all";     // --gpus: worker slots, "all" or indices "0,1,2,3" (one worker per GPU)
  std::string ray;              // --ray ADDRESS|auto: the slots are actors of this Ray cluster ("": local)
};

// Which of the shared flags a command takes: all of them, or only those of a command with one worker and no
// history (`check`: no --db, --compile-workers or --ray).
enum class SharedFlags { all, one_worker };
void add_common_options(CLI::App& cmd, CommonOptions& o, SharedFlags which = SharedFlags::all);

struct OptimizeArgs {
  std::string problem;
  std::string out;
  std::string precision = "strict";
  int trials = 0;  // --trials N (at least 1 when given; 0: not given, the default limit)
  int finalists = 3;
  std::string search = "guided";  // --search: guided, random or exhaustive
  std::uint64_t seed = 1;         // --seed: for --search random
  int plateau = -1;               // --plateau N: stop after N trials without a 1 % gain (0: never; -1: default)
  double target_fraction = 0;     // --target F: stop at this fraction of the roofline (0: never)
  double search_budget_s = -1;    // --search-budget S: start no trial after S seconds of search (-1: default)
  bool fresh = false;             // --fresh: ignore the history (no resume, no warm start)
  std::string profile = "auto";   // --profile auto|on|off: Nsight Compute diagnoses of the beam parents
  std::string ncu;                // --ncu: the ncu executable
  std::string kernel;             // --kernel K.py: tune this file's marked constants instead of a family's knobs
};

// `replay PROBLEM S.json`: the search against a recorded sweep, no worker. Of the common options only --gpus
// (the batch size: one proposal per GPU) and --json apply.
struct ReplayArgs {
  std::string problem;
  std::string sweep;                 // S.json: a kernelagent.sweep/1 record
  std::string precision = "strict";  // --precision: a record made under another policy is replayed with a warning
  std::string search = "guided";     // --search: guided, random or exhaustive
  std::uint64_t seed = 1;            // --seed: for --search random
  int trials = 0;                    // --trials N: most trials (at least 1 when given; 0: not given, no limit)
  int plateau = 0;                   // --plateau N: stop after N trials without a 1 % gain (0: never)
  double target_fraction = 0;        // --target F: stop at this fraction of the record's roofline floor (0: never)
};
int run_replay_command(const CommonOptions& common, const ReplayArgs& args);

struct SweepArgs {
  std::string problem;
  std::string out;     // --out S.json
  std::string family;  // --family: default the first family that implements the problem
  std::string precision = "strict";
  std::string work;  // --work: folder for the candidates and result.json (default: beside S.json)
  bool profile = false;  // --profile: each passed configuration's Nsight Compute diagnosis in the record
  std::string ncu;       // --ncu: the ncu executable
  std::vector<std::string> where;  // --where KNOB=VALUE: only the configurations with these values
};
int run_sweep_command(const CommonOptions& common, const SweepArgs& args);

struct BenchArgs {
  std::string dir;
  std::string out;
  std::string precision = "strict";
  int trials = 0;
  double search_budget_s = -1;  // --search-budget S, each problem's (-1: optimize's default)
  bool resume = false;          // --resume: keep the rows of the bench.json in --out, run only the others
};

struct DiagnoseArgs {
  std::string csv;           // --ncu-csv
  std::string gpu;           // --gpu: overrides the GPU the profile names
  std::string kernel;        // --kernel: regex over kernel names
  bool all_kernels = false;  // --all-kernels: keep PyTorch/library kernels
  double bytes = 0;          // --bytes: the problem's compulsory bytes
  double input_bytes = 0;    // --input-bytes: the part of them its inputs are
  double flops = 0;          // --flops
  bool matmul = false;       // --matmul: the kernel computes a matrix product
  bool json = false;
};

struct HistoryArgs {
  int limit = 20;
};

int run_optimize_command(const CommonOptions& common, const OptimizeArgs& args);
int run_bench_command(const CommonOptions& common, const BenchArgs& args);
int run_diagnose_command(const DiagnoseArgs& args);
// Prints (or writes as JSON) the diagnosis of the report's selected kernels; shared by diagnose and profile.
int report_diagnosis(const NcuReport& report, const DiagnoseArgs& args);

struct ProfileArgs {
  std::string problem;
  std::string kernel;  // --kernel: a kernel file with ModelNew; default: the best kernel in the history
  std::string out;     // --out: where the ncu CSV and log go
  std::string ncu;     // --ncu
  std::string clock_control = "none";
  bool full_set = false;  // --set-full
  bool matmul = false;    // --matmul: the kernel computes a matrix product (implied by a matmul-family result)
  // --bytes, --flops: the problem's compulsory work, as diagnose takes it; default: what the history's last
  // optimize of the problem measured (a kernel of your own: `kernelagent check` reports both)
  double bytes = 0;
  double input_bytes = 0;
  double flops = 0;
};
int run_profile_command(const CommonOptions& common, const ProfileArgs& args);

// `check PROBLEM KERNEL`: an honest evaluation of a kernel file with a ModelNew (docs/check.md).
struct CheckArgs {
  std::string problem;
  std::string kernel;
  std::string out;  // --out DIR: check.json and the worker's log (default kernelagent-out/NAME/check)
  std::string precision = "strict";
  int seeds = 3;               // --seeds N: how many fresh random seeds
  std::vector<int> seed_list;  // --seed-list S,..: these seeds instead (to repeat a check)
};
int run_check_command(const CommonOptions& common, const CheckArgs& args);

// `report DIR`: the self-contained HTML page of an optimize's or a bench's output.
struct ReportArgs {
  std::string dir;  // an optimize's output folder, a bench's, or its result.json / bench.json
  std::string out;  // --out FILE: default DIR/report.html
};
int run_report_command(const ReportArgs& args);
int run_history_command(const CommonOptions& common, const HistoryArgs& args);

}  // namespace kernelagent::cli

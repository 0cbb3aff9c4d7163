#pragma once
// The CLI's subcommands. Each registers its flags on a CLI11 app and returns the process exit code.

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

namespace kernelagent::cli {

// Flags every command that talks to a worker shares.
struct CommonOptions {
  std::string home;          // --home
  std::string python;        // --python
  std::string db;            // --db
  std::string device = "auto";  // --device auto|cpu
  bool json = false;         // --json
  double timeout_s = 180;    // --timeout: per compile/check request of a candidate
  double graph_below_us = 50;   // --graph-below-us: calls faster than this are timed by CUDA-graph replay
};

void add_common_options(CLI::App& cmd, CommonOptions& o);

struct OptimizeArgs {
  std::string problem;
  std::string out;
  std::string precision = "strict";
  int trials = 0;
  int finalists = 3;
};

struct BenchArgs {
  std::string dir;
  std::string out;
  std::string precision = "strict";
  int trials = 0;
};

struct HistoryArgs {
  int limit = 20;
};

int run_optimize_command(const CommonOptions& common, const OptimizeArgs& args);
int run_bench_command(const CommonOptions& common, const BenchArgs& args);
int run_history_command(const CommonOptions& common, const HistoryArgs& args);

}  // namespace kernelagent::cli

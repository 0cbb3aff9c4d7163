// The one mapping from a subcommand's parsed flags to OptimizeOptions: what optimize, sweep and bench each
// ask of a run.

#include "kernelagent/cli/optimize_options.hpp"

#include <gtest/gtest.h>

#include "kernelagent/core/error.hpp"

using namespace kernelagent;
using nlohmann::json;

TEST(OptimizeOptions, OptimizeTakesItsFlagsAndWritesUnderKernelagentOutByDefault) {
  cli::CommonOptions common;
  common.graph_below_us = 20;
  cli::OptimizeArgs args{.problem = "problems/19_ReLU.py",
                         .precision = "tf32",
                         .trials = 6,
                         .finalists = 2,
                         .search = "random",
                         .seed = 7,
                         .plateau = 4,
                         .target_fraction = 0.9,
                         .fresh = true};
  const OptimizeOptions opt = cli::optimize_options(common, args);
  EXPECT_EQ(opt.problem, "problems/19_ReLU.py");
  EXPECT_EQ(opt.out_dir, std::filesystem::path("kernelagent-out") / "19_ReLU");
  EXPECT_EQ(opt.precision, Precision::tf32);
  EXPECT_EQ(opt.max_trials, 6);
  EXPECT_EQ(opt.finalists, 2);
  EXPECT_EQ(opt.search, "random");
  EXPECT_EQ(opt.seed, 7u);
  EXPECT_EQ(opt.plateau, 4);
  EXPECT_DOUBLE_EQ(opt.target_fraction, 0.9);
  EXPECT_TRUE(opt.fresh);
  EXPECT_DOUBLE_EQ(opt.graph_below_us, 20);
  EXPECT_FALSE(opt.whole_space);
  args.out = "elsewhere";
  EXPECT_EQ(cli::optimize_options(common, args).out_dir, "elsewhere");
}

TEST(OptimizeOptions, ASweepMeasuresTheWholeSpaceAnewUnderWhere) {
  cli::SweepArgs args{.problem = "p.py",
                      .out = "records/p.sweep.json",
                      .family = "reduction",
                      .where = {"split_r=96", "split_r=192", "exchange=spin"}};
  const OptimizeOptions opt = cli::optimize_options({}, args);
  EXPECT_EQ(opt.out_dir, "records/p.sweep.json.d");
  EXPECT_EQ(opt.search, "exhaustive");
  EXPECT_TRUE(opt.whole_space);
  EXPECT_TRUE(opt.fresh);
  EXPECT_EQ(opt.family, "reduction");
  EXPECT_EQ(opt.only, json::parse(R"({"split_r": [96, 192], "exchange": ["spin"]})"));
  args.work = "work";
  EXPECT_EQ(cli::optimize_options({}, args).out_dir, "work");
  args.where = {"split_r"};
  EXPECT_THROW(cli::optimize_options({}, args), UserError);
}

TEST(OptimizeOptions, ABenchProblemWritesUnderTheBenchFolder) {
  cli::BenchArgs args{.dir = "problems", .trials = 3};
  OptimizeOptions opt = cli::optimize_options({}, args, "problems/21_Sigmoid.py");
  EXPECT_EQ(opt.problem, "problems/21_Sigmoid.py");
  EXPECT_EQ(opt.out_dir, std::filesystem::path("kernelagent-bench") / "21_Sigmoid");
  EXPECT_EQ(opt.max_trials, 3);
  EXPECT_EQ(opt.search, "guided");
  args.out = "b";
  EXPECT_EQ(cli::optimize_options({}, args, "problems/21_Sigmoid.py").out_dir,
            std::filesystem::path("b") / "21_Sigmoid");
}

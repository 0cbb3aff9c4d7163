// --gpus: all, or indices of visible GPUs; and which device a slot's worker is pinned to.

#include "kernelagent/cli/slot_plan.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "kernelagent/core/error.hpp"
#include "kernelagent/explore/worker_pool.hpp"

using namespace kernelagent;

TEST(SlotPlan, GpusIsAllOrDistinctIndices) {
  EXPECT_FALSE(cli::parse_gpus("all").has_value());
  EXPECT_EQ(*cli::parse_gpus("0,1,3"), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(*cli::parse_gpus("2"), (std::vector<int>{2}));
  for (const char* bad : {"0,x", "0,,1", "1,", "-1", "0,0", "gpu0", ","})
    EXPECT_THROW(cli::parse_gpus(bad), UserError) << bad;
}

TEST(SlotPlan, CompileWorkersTakeTheSlotsGpusInTurn) {
  EXPECT_EQ(cli::compile_worker_gpu(1, {0, 2}), 0);
  EXPECT_EQ(cli::compile_worker_gpu(2, {0, 2}), 2);
  EXPECT_EQ(cli::compile_worker_gpu(3, {0, 2}), 0);
  EXPECT_EQ(cli::compile_worker_gpu(8, {3}), 3);
  EXPECT_FALSE(cli::compile_worker_gpu(1, {}).has_value());  // the CPU or a Ray cluster: not pinned
}

TEST(SlotPlan, ASlotIsPinnedThroughTheEnginesOwnVisibleDevices) {
  const char* old = std::getenv("CUDA_VISIBLE_DEVICES");
  const std::string saved = old ? old : "";
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  EXPECT_EQ(visible_device(2), "2");
  EXPECT_EQ(local_gpu_label(2), "gpu2");
  ::setenv("CUDA_VISIBLE_DEVICES", "4,6", 1);
  EXPECT_EQ(visible_device(1), "6");
  EXPECT_EQ(local_gpu_label(0), "gpu4");
  EXPECT_EQ(visible_device(5), "5");  // past the list: the index itself, which the worker will not find
  if (old)
    ::setenv("CUDA_VISIBLE_DEVICES", saved.c_str(), 1);
  else
    ::unsetenv("CUDA_VISIBLE_DEVICES");
}

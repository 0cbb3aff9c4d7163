// `kernelagent check`'s engine (measure/kernel_check) against the stand-in worker: the GPU path (timings,
// speedups, the roofline fraction, the check after the timing, a cheat caught in the timing) on a machine
// without a GPU, and the floors and seeds it uses. The real worker's side is tests/e2e/test_check_*.py.

#include "kernelagent/measure/kernel_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "fake_worker.hpp"
#include "kernelagent/core/status.hpp"

namespace kernelagent {
namespace {

using test::FakeWorker;

KernelCheckOptions options(const FakeWorker& fake) {
  KernelCheckOptions o;
  o.problem = fake.dir / "problem.py";
  o.kernel = fake.dir / "kernel.py";
  o.seeds = {101, 202, 303};
  o.seed_after_timing = 404;
  return o;
}

TEST(KernelCheck, OnAGpuTimesTheBaselinesAndTheKernelThenChecksAgain) {
  FakeWorker fake("kernel-check-gpu", "gpu");
  WorkerClient worker(fake.command, {});
  worker.start();
  const KernelCheckOutcome out = check_kernel(options(fake), worker);
  ASSERT_EQ(out.code, ExitCode::ok) << out.result.dump(2);
  const auto& r = out.result;
  EXPECT_EQ(r.at("status"), "ok");
  EXPECT_EQ(r.at("gpu").at("name"), "H200 SXM");
  EXPECT_EQ(r.at("timing").at("kernel").at("median_us"), 10.0);
  EXPECT_EQ(r.at("timing").at("rounds"), 5);
  EXPECT_DOUBLE_EQ(r.at("speedup").at("vs_eager").get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(r.at("speedup").at("vs_compile").get<double>(), 1.5);
  // 2 MB of compulsory traffic over the H200's 4.8 TB/s is the floor; the kernel takes 10 us.
  const auto& roof = r.at("roofline");
  EXPECT_EQ(roof.at("bound"), "memory");
  EXPECT_NEAR(roof.at("floor_us").get<double>(), 2e6 / 4.8e12 * 1e6, 1e-9);
  EXPECT_NEAR(roof.at("fraction").get<double>(), roof.at("floor_us").get<double>() / 10.0, 1e-12);
  EXPECT_EQ(r.at("after_timing").at("seeds"), nlohmann::json::array({404}));
  // The baselines are warmed on their own first, then all three are timed together; two checks in all.
  EXPECT_EQ(fake.count_op("time"), 2);
  EXPECT_EQ(fake.count("check kernel"), 2);
}

TEST(KernelCheck, AConvolutionUnderStrictIsTimedAgainstPyTorchsTf32DefaultsToo) {
  FakeWorker fake("kernel-check-conv", "gpu,conv");
  WorkerClient worker(fake.command, {});
  worker.start();
  const KernelCheckOutcome out = check_kernel(options(fake), worker);
  ASSERT_EQ(out.code, ExitCode::ok) << out.result.dump(2);
  const auto& t = out.result.at("timing");
  ASSERT_TRUE(t.contains("pytorch_default")) << out.result.dump(2);
  EXPECT_EQ(t.at("baseline_settings").at("cudnn_allow_tf32"), false);
  const auto& d = t.at("pytorch_default");
  EXPECT_NE(d.at("why").get<std::string>().find("convolutions on TF32 tensor cores"), std::string::npos);
  EXPECT_EQ(d.at("eager").at("median_us"), 12.0);
  EXPECT_DOUBLE_EQ(d.at("speedup").at("vs_compile").get<double>(), 1.1);
  // The verdict is still counted against the accuracy-matched baselines.
  EXPECT_DOUBLE_EQ(out.result.at("speedup").at("vs_compile").get<double>(), 1.5);
  // Without a convolution nothing is added.
  FakeWorker plain("kernel-check-plain", "gpu");
  WorkerClient plain_worker(plain.command, {});
  plain_worker.start();
  EXPECT_FALSE(check_kernel(options(plain), plain_worker).result.at("timing").contains("pytorch_default"));
}

TEST(KernelCheck, ACheatCaughtInTheTimingFailsTheKernel) {
  FakeWorker fake("kernel-check-timecheat", "gpu,timecheat");
  WorkerClient worker(fake.command, {});
  worker.start();
  const KernelCheckOutcome out = check_kernel(options(fake), worker);
  EXPECT_EQ(out.code, ExitCode::no_valid_kernel);
  EXPECT_EQ(out.result.at("status"), status::cheat_tampering);
  EXPECT_EQ(out.result.at("failed_in"), "the timing");
  EXPECT_FALSE(out.result.at("passed").get<bool>());
  EXPECT_FALSE(out.result.contains("speedup"));  // a faked timing gives no speedup
}

TEST(KernelCheck, AKernelThatGoesWrongAfterTheTimingFails) {
  FakeWorker fake("kernel-check-latefail", "gpu,latefail");
  WorkerClient worker(fake.command, {});
  worker.start();
  const KernelCheckOutcome out = check_kernel(options(fake), worker);
  EXPECT_EQ(out.code, ExitCode::no_valid_kernel);
  EXPECT_EQ(out.result.at("status"), status::wrong_result);
  EXPECT_EQ(out.result.at("failed_in"), "the check after the timing");
  EXPECT_EQ(out.result.at("message"), "seed 404: output 0: 3 of 9 elements differ");  // the worker's label dropped
}

TEST(KernelCheck, OnTheCpuNothingIsTimed) {
  FakeWorker fake("kernel-check-cpu");
  WorkerClient worker(fake.command, {});
  worker.start();
  const KernelCheckOutcome out = check_kernel(options(fake), worker);
  EXPECT_EQ(out.code, ExitCode::ok);
  EXPECT_TRUE(out.result.at("timing").is_null());
  EXPECT_EQ(fake.count_op("time"), 0);
  EXPECT_NE(out.result.at("note").get<std::string>().find("nothing was timed"), std::string::npos);
}

TEST(KernelCheck, FreshSeedsAreDistinctAndNeverTheFixedOnes) {
  const auto a = fresh_seeds(50), b = fresh_seeds(50);
  EXPECT_EQ(std::set<int>(a.begin(), a.end()).size(), 50u);
  EXPECT_TRUE(std::all_of(a.begin(), a.end(), [](int s) { return s >= 16; }));
  EXPECT_NE(a, b);
}

TEST(KernelCheck, TheFloorIsTheFastestUnitThePolicyAllows) {
  const GpuSpec h200 = *find_gpu_spec("NVIDIA H200");
  std::string unit;
  // A large fp32 product: 3xTF32 on the tensor cores beats the FP32 pipe, so strict's floor is 3xTF32's.
  const double flops = 2.0 * 8192 * 8192 * 8192;
  const Roofline strict = allowed_floor(3 * 8192LL * 8192 * 4, flops, "float32", Precision::strict, h200, &unit);
  EXPECT_EQ(unit, "3xTF32 tensor cores");
  EXPECT_NEAR(strict.compute_floor_us, 3 * flops / h200.peak_tf32 * 1e6, 1e-6);
  const Roofline tf32 = allowed_floor(3 * 8192LL * 8192 * 4, flops, "float32", Precision::tf32, h200, &unit);
  EXPECT_EQ(unit, "TF32 tensor cores");
  EXPECT_NEAR(tf32.compute_floor_us * 3, strict.compute_floor_us, 1e-6);
  allowed_floor(1000, 0, "bfloat16", Precision::strict, h200, &unit);
  EXPECT_EQ(unit, "tensor cores");
}

// Every cheat status the engine knows is documented where users look it up.
TEST(KernelCheck, EveryCheatStatusIsDocumented) {
  for (const char* doc : {"docs/check.md", "docs/errors.md", "docs/protocol.md"}) {
    std::ifstream in(test::source_dir() / doc);
    std::stringstream text;
    text << in.rdbuf();
    for (std::string_view s : cheat_statuses())
      EXPECT_NE(text.str().find("`" + std::string(s) + "`"), std::string::npos) << s << " is not in " << doc;
  }
}

}  // namespace
}  // namespace kernelagent

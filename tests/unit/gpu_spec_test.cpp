#include <gtest/gtest.h>

#include "kernelagent/gpu/gpu_spec.hpp"
#include "kernelagent/measure/roofline.hpp"
#include "kernelagent/measure/tolerance.hpp"
#include "kernelagent/core/error.hpp"

using namespace kernelagent;

TEST(GpuSpec, DeviceNamesMapToTheRightEntry) {
  EXPECT_EQ(find_gpu_spec("NVIDIA H200")->name, "H200 SXM");
  EXPECT_EQ(find_gpu_spec("NVIDIA H100 80GB HBM3")->name, "H100 SXM");
  EXPECT_EQ(find_gpu_spec("NVIDIA H100 PCIe")->name, "H100 PCIe");
  EXPECT_EQ(find_gpu_spec("NVIDIA H100 NVL")->name, "H100 NVL");
  EXPECT_EQ(find_gpu_spec("NVIDIA A100-SXM4-40GB")->name, "A100 40GB");
  EXPECT_EQ(find_gpu_spec("NVIDIA A100-SXM4-80GB")->name, "A100 80GB SXM");
  EXPECT_EQ(find_gpu_spec("NVIDIA L40S")->name, "L40S");
  EXPECT_EQ(find_gpu_spec("NVIDIA L4")->name, "L4");
  EXPECT_EQ(find_gpu_spec("NVIDIA GeForce RTX 4090")->name, "RTX 4090");
  EXPECT_EQ(find_gpu_spec("NVIDIA B200")->name, "B200");
  EXPECT_FALSE(find_gpu_spec("Some Future GPU").has_value());
}

TEST(GpuSpec, TableHoldsDensePeaksThatOrderSensibly) {
  for (const auto& g : gpu_table()) {
    EXPECT_GT(g.dram_bytes_per_s, 0) << g.name;
    EXPECT_GT(g.peak_fp32, 0) << g.name;
    EXPECT_GE(g.peak_tf32, g.peak_fp32) << g.name;
    EXPECT_GE(g.peak_bf16, g.peak_tf32) << g.name;
    EXPECT_GT(g.sm_count, 0) << g.name;
  }
  auto h200 = *find_gpu_spec("NVIDIA H200");
  EXPECT_DOUBLE_EQ(h200.dram_bytes_per_s, 4.8e12);
  EXPECT_NEAR(h200.peak_bf16, 989.4e12, 1e9);  // dense, not the 1979 of the sparsity data sheet
  EXPECT_TRUE(h200.has_tma);
}

TEST(GpuSpec, DeviceAttributesWinOverTheTable) {
  std::string warning;
  auto g = describe_gpu({{"name", "NVIDIA H200"}, {"sm_count", 132}, {"l2_bytes", 62914560}, {"cc_major", 9}, {"cc_minor", 0}},
                        &warning);
  EXPECT_TRUE(warning.empty());
  EXPECT_EQ(g.l2_bytes, 62914560);
  EXPECT_EQ(g.name, "H200 SXM");
}

TEST(GpuSpec, UnknownGpuIsDescribedWithAWarningNotACrash) {
  std::string warning;
  auto g = describe_gpu({{"name", "Mystery Accelerator"}, {"sm_count", 10}, {"cc_major", 9}}, &warning);
  EXPECT_NE(warning.find("Mystery Accelerator"), std::string::npos);
  EXPECT_EQ(g.sm_count, 10);
  EXPECT_EQ(g.dram_bytes_per_s, 0);
  EXPECT_FALSE(g.from_table);
  Roofline r = roofline_for(1000, 0, "float32", false, g);
  EXPECT_FALSE(r.fraction(1.0).has_value());
}

TEST(Roofline, MemoryBoundFloorOfTheLevelOneActivations) {
  auto h200 = *find_gpu_spec("NVIDIA H200");
  const std::int64_t bytes = 2LL * 4096 * 393216 * 4;  // fp32 in and out
  Roofline r = roofline_for(bytes, 0, "float32", false, h200);
  EXPECT_EQ(r.bound, "memory");
  EXPECT_NEAR(r.floor_us, 2684.35, 0.01);
  EXPECT_NEAR(*r.fraction(3084.0), 0.8704, 1e-4);
  EXPECT_NEAR(r.bandwidth_bytes_per_s(2684.35) / 1e12, 4.8, 1e-4);
}

TEST(Roofline, ComputeBoundFloorUsesTheUnitThePolicyAllows) {
  auto h200 = *find_gpu_spec("NVIDIA H200");
  const double flops = 2.0 * 4096.0 * 4096.0 * 4096.0;
  Roofline fp32 = roofline_for(3 * 4096LL * 4096 * 4, flops, "float32", false, h200);
  Roofline tf32 = roofline_for(3 * 4096LL * 4096 * 4, flops, "float32", true, h200);
  EXPECT_EQ(fp32.bound, "compute");
  EXPECT_NEAR(fp32.floor_us, flops / 67e12 * 1e6, 1e-6);
  EXPECT_LT(tf32.floor_us, fp32.floor_us);
}

TEST(Tolerance, ByDtypeAndPrecisionPolicy) {
  EXPECT_DOUBLE_EQ(tolerance_for("float32", Precision::strict).atol, 1e-4);
  EXPECT_DOUBLE_EQ(tolerance_for("float32", Precision::tf32).atol, 1e-2);
  EXPECT_DOUBLE_EQ(tolerance_for("bfloat16", Precision::strict).rtol, 1e-2);
  EXPECT_DOUBLE_EQ(tolerance_for("float16", Precision::strict).rtol, 1e-2);
  EXPECT_EQ(parse_precision("tf32"), Precision::tf32);
  EXPECT_THROW(parse_precision("fast"), UserError);
}

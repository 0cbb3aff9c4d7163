// Which fp32 settings the baselines run under per policy, and when PyTorch's defaults are timed beside
// them: a convolution under strict (cuDNN's default TF32), a product under tf32 (cuBLAS's default IEEE).

#include "kernelagent/measure/baseline_precision.hpp"

#include <gtest/gtest.h>

#include "family_support.hpp"

namespace kernelagent {
namespace {

using nlohmann::json;

const json kTorchDefaults = {{"fp32_matmul", "highest"}, {"cudnn_allow_tf32", true}};

TEST(BaselinePrecision, TheBaselinesAreIeeeUnderStrictAndTf32UnderTf32) {
  EXPECT_EQ(baseline_settings(Precision::strict), (json{{"fp32_matmul", "highest"}, {"cudnn_allow_tf32", false}}));
  EXPECT_EQ(baseline_settings(Precision::tf32), (json{{"fp32_matmul", "high"}, {"cudnn_allow_tf32", true}}));
}

TEST(BaselinePrecision, AConvolutionUnderStrictIsTimedWithPyTorchsTf32DefaultsBeside) {
  const TraceResult conv = test::family_trace("conv", "conv2d_bias_strided");
  const auto why = pytorch_default_differs(Precision::strict, kTorchDefaults, conv.graph, "float32");
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("convolutions on TF32 tensor cores"), std::string::npos) << *why;
  // Under tf32 the baselines allow TF32 as PyTorch's defaults do for a convolution: nothing to add.
  EXPECT_FALSE(pytorch_default_differs(Precision::tf32, kTorchDefaults, conv.graph, "float32"));
  // Defaults an environment set to IEEE convolutions match strict's baselines.
  EXPECT_FALSE(pytorch_default_differs(Precision::strict, {{"fp32_matmul", "highest"}, {"cudnn_allow_tf32", false}},
                                       conv.graph, "float32"));
  // TF32 does not touch other dtypes.
  EXPECT_FALSE(pytorch_default_differs(Precision::strict, kTorchDefaults, conv.graph, "float16"));
}

TEST(BaselinePrecision, AProductDiffersWhereTheMatmulPrecisionDoes) {
  const TraceResult mm = test::family_trace("matmul", "1_Square_matrix_multiplication_");
  EXPECT_FALSE(pytorch_default_differs(Precision::strict, kTorchDefaults, mm.graph, "float32"));
  const auto why = pytorch_default_differs(Precision::tf32, kTorchDefaults, mm.graph, "float32");
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("products in IEEE fp32"), std::string::npos) << *why;
  const auto high = pytorch_default_differs(Precision::strict, {{"fp32_matmul", "high"}, {"cudnn_allow_tf32", true}},
                                            mm.graph, "float32");
  ASSERT_TRUE(high.has_value());
  EXPECT_NE(high->find("TF32 tensor cores (float32_matmul_precision 'high')"), std::string::npos) << *high;
}

TEST(BaselinePrecision, NoProductOrConvolutionNoDefaultsAndUnknownDefaultsAreIgnored) {
  const TraceResult relu = test::family_trace("elementwise", "19_ReLU");
  EXPECT_FALSE(pytorch_default_differs(Precision::strict, kTorchDefaults, relu.graph, "float32"));
  const TraceResult conv = test::family_trace("conv", "conv2d_bias_strided");
  EXPECT_FALSE(pytorch_default_differs(Precision::strict, json(nullptr), conv.graph, "float32"));
  EXPECT_FALSE(pytorch_default_differs(Precision::strict, json::object(), conv.graph, "float32"));
}

}  // namespace
}  // namespace kernelagent

// The attention family's suggestion of its materialized variant for heads too wide for the fused variants to
// compute each score once: at KernelBench 97's shape (a shapes-only trace: 32 x 32 heads, 512 tokens, head
// dimension 1024), on the tensor cores the policy allows, and at a short sequence of another shape.

#include <gtest/gtest.h>

#include "family_support.hpp"
#include "kernelagent/orchestrate/stages/search_request.hpp"
#include "test_data.hpp"

using namespace kernelagent;

namespace {

TraceResult kernelbench_97() {
  return TraceResult::from_json(test::read_json(test::data_dir() / "families" / "attention" / "kernelbench" /
                                                "97_ScaledDotProductAttention.json"));
}

}  // namespace

TEST(AttentionFamily, WideHeadsSuggestTheMaterializedVariantOnTheTensorCoresThePolicyAllows) {
  const auto h200 = find_gpu_spec("NVIDIA H200");
  ASSERT_TRUE(h200);
  auto p = test::recognised(test::family("attention"), kernelbench_97());
  const auto sugs = p->suggestions();
  ASSERT_EQ(sugs.size(), 3u);
  EXPECT_NE(sugs[0].reason.find("head dimension (1024)"), std::string::npos) << sugs[0].reason;
  const KnobSpace& space = p->family().knob_space();
  for (const auto& [precision, first_precision] :
       {std::pair{Precision::strict, "tf32x3"}, std::pair{Precision::tf32, "tf32"}}) {
    std::vector<Config> valid;
    for (const auto& c : space.enumerate())
      if (p->valid(c, &*h200, precision)) valid.push_back(c);
    const auto configs = suggested_configs(*p, space, valid);
    ASSERT_FALSE(configs.empty());
    const Config& c = configs.front().first;
    EXPECT_EQ(c.at("variant"), "materialized");
    EXPECT_EQ(c.at("input_precision"), first_precision);
    EXPECT_EQ(c.at("block_m"), 128);
    EXPECT_EQ(c.at("block_dv"), 128);
    // Both products as the matmul family's best tile: 128 x 128, steps of 64, three stages.
    EXPECT_EQ(c.at("block_n"), 128);
    EXPECT_EQ(c.at("block_d"), 64);
    EXPECT_EQ(c.at("num_stages"), 3);
    // Three kernels, and the workspace of every score: 1024 heads x 512 x 512 fp32; the second product sums
    // the keys in steps of block_d.
    const std::string src = p->emit(c, {"97.py"});
    for (const char* k : {"ka_scores_kernel[(1024, 4, 4)]", "ka_softmax_rows_kernel[(524288,)]",
                          "ka_probs_values_kernel[(1024, 4, 8)]", "torch.empty((1024, 512, 512), dtype=torch.float32",
                          "BLOCK_N=128, BLOCK_D=64", "BLOCK_N=64, BLOCK_DV=128"})
      EXPECT_NE(src.find(k), std::string::npos) << k;
  }
}

TEST(AttentionFamily, TheSuggestedTilesFitAShortSequence) {
  // 37 queries and keys, value heads of 290: a block of 128 queries would not be valid; 64 is.
  auto p = test::recognised(test::family("attention"), test::family_trace("attention", "sdpa_wide_values"));
  std::vector<Config> valid;
  for (const auto& c : p->family().knob_space().enumerate())
    if (p->valid(c, nullptr, Precision::strict)) valid.push_back(c);
  const auto configs = suggested_configs(*p, p->family().knob_space(), valid);
  ASSERT_EQ(configs.size(), 2u);  // 3xTF32 and IEEE: plain TF32 is not allowed under strict
  EXPECT_EQ(configs.front().first.at("variant"), "materialized");
  EXPECT_EQ(configs.front().first.at("block_m"), 64);
  EXPECT_EQ(configs.front().first.at("block_n"), 64);
}

TEST(AttentionFamily, NarrowHeadsSuggestNothing) {
  const TraceResult t = test::family_trace("attention", "sdpa");
  EXPECT_TRUE(test::recognised(test::family("attention"), t)->suggestions().empty());
}

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
  // TF32, 3xTF32 (each without, then with the values' K-major copy) and IEEE.
  ASSERT_EQ(sugs.size(), 5u);
  EXPECT_NE(sugs[0].reason.find("head dimension (1024)"), std::string::npos) << sugs[0].reason;
  for (std::size_t i : {0u, 2u, 4u}) EXPECT_EQ(sugs[i].knobs.at("v_k_major"), 0);
  for (std::size_t i : {1u, 3u}) EXPECT_EQ(sugs[i].knobs.at("v_k_major"), 1);
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
    for (const char* k : {"ka_scores_kernel[(1024 * 4 * 4,)]", "ka_softmax_rows_kernel[(524288,)]",
                          "ka_probs_values_kernel[(1024 * 4 * 8,)]", "torch.empty((1024, 512, 512), dtype=torch.float32",
                          "BLOCK_N=128, BLOCK_D=64", "BLOCK_N=64, BLOCK_DV=128"})
      EXPECT_NE(src.find(k), std::string::npos) << k;
    EXPECT_EQ(src.find("ka_k_major("), std::string::npos);
    // Next, the same with the values copied keys-contiguous (97's are [32, 32, 512, 1024], contiguous): one
    // copy of the 1024 heads' values, read by the second product with the keys as its fastest stride.
    ASSERT_GE(configs.size(), 2u);
    const Config& copied = configs[1].first;
    EXPECT_EQ(differing_knobs(c, copied), std::vector<std::string>{"v_k_major"});
    const std::string with_copy = p->emit(copied, {"97.py"});
    for (const char* k : {"v = ka_k_major(v, 1024, 1024, 512, (524288, 1, 1024), 512)",
                          "V_SB=16777216, V_SH=524288, V_SN=1, V_SD=512"})
      EXPECT_NE(with_copy.find(k), std::string::npos) << k;
  }
}

TEST(AttentionFamily, TheSuggestedTilesFitAShortSequence) {
  // 37 queries and keys, value heads of 290: a block of 128 queries would not be valid; 64 is.
  auto p = test::recognised(test::family("attention"), test::family_trace("attention", "sdpa_wide_values"));
  std::vector<Config> valid;
  for (const auto& c : p->family().knob_space().enumerate())
    if (p->valid(c, nullptr, Precision::strict)) valid.push_back(c);
  const auto configs = suggested_configs(*p, p->family().knob_space(), valid);
  // 3xTF32 without and with the values' K-major copy, and IEEE: plain TF32 is not allowed under strict.
  ASSERT_EQ(configs.size(), 3u);
  EXPECT_EQ(configs.front().first.at("variant"), "materialized");
  EXPECT_EQ(configs.front().first.at("block_m"), 64);
  EXPECT_EQ(configs.front().first.at("block_n"), 64);
}

TEST(AttentionFamily, TheValuesKMajorCopyIsForTheMaterializedProductOnTheTensorCoresOnly) {
  const auto sdpa = test::recognised(test::family("attention"), test::family_trace("attention", "sdpa"));
  Config c = sdpa->family().knob_space().default_config();
  c["variant"] = "materialized";
  c["block_m"] = 16;
  c["block_n"] = 16;
  c["block_d"] = 16;
  c["block_dv"] = 16;
  c["input_precision"] = "tf32x3";
  c["v_k_major"] = 1;
  EXPECT_TRUE(sdpa->valid(c, nullptr, Precision::strict));
  Config ieee = c;
  ieee["input_precision"] = "ieee";  // an IEEE dot reads either layout alike
  EXPECT_FALSE(sdpa->valid(ieee, nullptr, Precision::strict));
  Config online = c;
  online["variant"] = "online";
  EXPECT_FALSE(sdpa->valid(online, nullptr, Precision::strict));
  // Values given as a [2, 40, 3, 24] tensor seen as [2, 3, 40, 24] (heads one row apart): no one stride walks
  // their (batch, head) pairs in order, and the copy is not offered.
  auto raw = test::read_json(test::data_dir() / "families" / "attention" / "traces" / "sdpa.json");
  raw["graph"]["inputs"][2]["stride"] = {2880, 24, 72, 1};
  const auto interleaved = test::recognised(test::family("attention"), TraceResult::from_json(raw));
  c["v_k_major"] = 0;
  ASSERT_TRUE(interleaved->valid(c, nullptr, Precision::strict));
  c["v_k_major"] = 1;
  EXPECT_FALSE(interleaved->valid(c, nullptr, Precision::strict));
}

TEST(AttentionFamily, NarrowHeadsSuggestTheFusedTileOfEveryColumn) {
  // A head of at most 256 columns: the online variant on the tensor cores, every output column of a block of
  // queries in one program (no score computed twice), never the workspace of the scores.
  const TraceResult t = test::family_trace("attention", "sdpa");
  const auto sdpa = test::recognised(test::family("attention"), t);
  const auto suggestions = sdpa->suggestions();
  ASSERT_EQ(suggestions.size(), 4u);
  for (const auto& s : suggestions) {
    EXPECT_EQ(s.knobs.at("variant"), "online");
    EXPECT_NE(s.knobs.at("input_precision"), "ieee");
    EXPECT_GE(s.knobs.at("block_dv").get<std::int64_t>(), 16);
    EXPECT_NE(s.reason.find("computes its scores once"), std::string::npos) << s.reason;
  }
  // Under strict the TF32 ones are not valid; the 3xTF32 ones are, once the search maps them to the space.
  int strict_valid = 0;
  for (const auto& s : suggestions) {
    Config c = test::family("attention").knob_space().default_config();
    for (const auto& [k, v] : s.knobs.items()) c[k] = v;
    if (sdpa->valid(c, nullptr, Precision::strict)) ++strict_valid;
  }
  EXPECT_EQ(strict_valid, 2);
  // From a head of 128 the workspace of the scores follows, on the tensor cores only.
  auto raw = test::read_json(test::data_dir() / "families" / "attention" / "traces" / "sdpa.json");
  for (auto& in : raw["graph"]["inputs"]) in["shape"] = {2, 3, 40, 128}, in["stride"] = {15360, 5120, 128, 1};
  raw["graph"]["nodes"][1]["shape"] = {2, 3, 40, 128};
  const auto wide = test::recognised(test::family("attention"), TraceResult::from_json(raw))->suggestions();
  ASSERT_GT(wide.size(), 4u);
  EXPECT_EQ(wide[0].knobs.at("variant"), "online");
  for (std::size_t i = 4; i < wide.size(); ++i) {
    EXPECT_EQ(wide[i].knobs.at("variant"), "materialized");
    EXPECT_NE(wide[i].knobs.at("input_precision"), "ieee");
  }
}

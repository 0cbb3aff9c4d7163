// The conv family's own rules at KernelBench's shapes (tests/data/families/conv/kernelbench: traces recorded
// with scripts/record-trace --meta from examples/convolutions): every one of the 35 convolutions (18 forward,
// 17 transposed) is the conv family's and no other's, a transposed one splits into its stride phases, each stage runs as the kind its channels call for, the knobs of a kind
// the problem does not run are pruned, and offsets widen to 64 bits where a tensor passes 2^30 elements.
// Its small problems' golden kernels are the conformance test's.

#include <algorithm>
#include <gtest/gtest.h>

#include <filesystem>

#include "family_support.hpp"
#include "kernelagent/families/conv/conv_problem.hpp"
#include "kernelagent/orchestrate/stages/search_request.hpp"

using namespace kernelagent;
namespace fs = std::filesystem;

namespace {

TraceResult kernelbench(const std::string& name) {
  return TraceResult::from_json(test::read_json(test::data_dir() / "families" / "conv" / "kernelbench" / (name + ".json")));
}

ConvChain chain(const std::string& name) {
  auto r = recognise_conv_chain(kernelbench(name));
  if (auto* why = std::get_if<std::string>(&r)) throw std::runtime_error(name + ": " + *why);
  return std::get<ConvChain>(std::move(r));
}

Config with(Config c, const nlohmann::json& changes) {
  for (const auto& [k, v] : changes.items()) c[k] = v;
  return c;
}

}  // namespace

TEST(ConvFamily, EveryKernelBenchConvolutionIsTheConvFamilysAndNoEarlierFamilys) {
  int seen = 0;
  for (const auto& e : fs::directory_iterator(test::data_dir() / "families" / "conv" / "kernelbench")) {
    const std::string name = e.path().stem().string();
    SCOPED_TRACE(name);
    const TraceResult t = kernelbench(name);
    const Family* first = nullptr;
    for (const auto& f : test::families())
      if (f->recognise(t)) {
        first = f.get();
        break;
      }
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->name(), "conv");
    auto p = test::recognised(*first, t);
    // Some configuration is valid on the H200 at every one of these shapes: a one-trial run works.
    const auto h200 = find_gpu_spec("NVIDIA H200");
    ASSERT_TRUE(h200);
    const Config c = test::first_valid(*p, &*h200);
    const std::string src = p->emit(c, {name + ".py"});
    EXPECT_NE(src.find("class ModelNew"), std::string::npos);
    ++seen;
  }
  EXPECT_EQ(seen, 35);
}

TEST(ConvFamily, ATransposedConvolutionIsOneDenseGemmPerStridePhase) {
  const ConvStage s72 = chain("72_tconv3d_strided_grouped").stages.at(0);
  EXPECT_TRUE(s72.transposed);
  EXPECT_FALSE(s72.direct());
  EXPECT_EQ(s72.groups, 4);
  EXPECT_EQ(s72.cg(), 8);
  EXPECT_EQ(s72.cog(), 8);
  EXPECT_EQ(s72.phases(), 8);
  // (12 - 1) * 2 - 2 * 1 + 2 + 1 + 1 output padding = 24: each phase holds half of each axis.
  EXPECT_EQ((std::array<std::int64_t, 3>{24, 48, 96}), s72.out);
  EXPECT_EQ(s72.gemm_m(), 8 * 12 * 24 * 48);
  // FLOPs count only the products that happen, as the worker's FLOP counter does.
  EXPECT_EQ(s72.flops(), kernelbench("72_tconv3d_strided_grouped").flops);
  EXPECT_EQ(chain("75_tconv2d_strided_grouped_dilated").stages.at(0).flops(),
            kernelbench("75_tconv2d_strided_grouped_dilated").flops);
  const ConvStage s74 = chain("74_tconv1d_dilated").stages.at(0);
  EXPECT_EQ(s74.phases(), 1);
  EXPECT_EQ(s74.out[2], 131072 + 3 * 4);

  const Family& f = test::family("conv");
  auto p = test::recognised(f, kernelbench("81_tconv2d_strided_dilated"));
  const std::string src = p->emit(test::first_valid(*p), {"81"});
  EXPECT_NE(src.find("ka_tconv_gemm_kernel[(triton.cdiv("), std::string::npos);
  // One grid axis, the 25 phases of one group fastest (stride 5 x 5).
  EXPECT_NE(src.find("* 1 * 25,)]("), std::string::npos) << "stride 5 x 5: 25 phases of one group";
  EXPECT_EQ(src.find("ka_conv_gemm_kernel["), std::string::npos);
  // A transposed convolution walks the window outer whatever K_ORDER says, so K_ORDER stays at its default.
  Config window = f.knob_space().default_config();
  window["K_ORDER"] = "window";
  EXPECT_FALSE(p->valid(window, nullptr, Precision::strict));
}

TEST(ConvFamily, DepthwiseStagesRunDirectAndTheRestAsImplicitGemms) {
  for (const auto* name : {"82_depthwise_3x3", "83_depthwise_3x1", "84_depthwise_wide_input", "85_depthwise_3x7"}) {
    const ConvChain c = chain(name);
    ASSERT_EQ(c.stages.size(), 1u) << name;
    EXPECT_TRUE(c.stages[0].direct()) << name;
  }
  const ConvChain sep = chain("86_depthwise_separable");
  ASSERT_EQ(sep.stages.size(), 2u);
  EXPECT_TRUE(sep.stages[0].direct());
  EXPECT_FALSE(sep.stages[1].direct());
  EXPECT_EQ(sep.stages[1].window(), 1);
  EXPECT_EQ(sep.stages[1].input_expr, sep.stages[0].out_name);  // the pointwise reads the depthwise output
  EXPECT_EQ(sep.stages[1].gemm_m(), 16 * 512 * 512);
  EXPECT_EQ(sep.stages[1].gemm_k(), 64);

  const ConvStage s50 = chain("50_conv2d_alexnet_stem").stages.at(0);
  EXPECT_FALSE(s50.direct());
  EXPECT_EQ(s50.gemm_k(), 3 * 11 * 11);
  EXPECT_EQ((std::array<std::int64_t, 3>{1, 55, 55}), s50.out);
  EXPECT_EQ((std::array<std::int64_t, 3>{1, 4, 4}), s50.stride);
  EXPECT_FALSE(s50.bias_expr.empty());

  // A 1-D convolution is one of depth and height 1.
  const ConvStage s76 = chain("76_conv1d_dilated_strided").stages.at(0);
  EXPECT_EQ((std::array<std::int64_t, 3>{1, 1, 3}), s76.kernel);
  EXPECT_EQ((std::array<std::int64_t, 3>{1, 1, 4}), s76.dilation);
  EXPECT_EQ(s76.out[2], (524280 - 4 * 2 - 1) / 3 + 1);
  EXPECT_EQ(s76.flops(), kernelbench("76_conv1d_dilated_strided").flops);
}

TEST(ConvFamily, KnobsOfAKindTheProblemDoesNotRunArePruned) {
  const Family& f = test::family("conv");
  const Config def = f.knob_space().default_config();
  auto valid = [&](const std::string& name, const nlohmann::json& knobs) {
    return test::recognised(f, kernelbench(name))->valid(with(def, knobs), nullptr, Precision::strict);
  };
  // Depthwise only: the GEMM's tiles stay at their defaults; the direct tile moves.
  EXPECT_FALSE(valid("82_depthwise_3x3", {{"BLOCK_M", 64}}));
  EXPECT_TRUE(valid("82_depthwise_3x3", {{"BLOCK_H", 16}, {"BLOCK_W", 128}}));
  // GEMM only: the direct tile stays at its default.
  EXPECT_FALSE(valid("55_conv2d_wide_input", {{"BLOCK_W", 128}}));
  // The window order needs channels to fill a K step: 64 channels do, 3 do not.
  EXPECT_TRUE(valid("55_conv2d_wide_input", {{"K_ORDER", "window"}}));
  EXPECT_FALSE(valid("50_conv2d_alexnet_stem", {{"K_ORDER", "window"}}));
  // Channels-last pays with the window order or a 1 x 1 window.
  EXPECT_FALSE(valid("55_conv2d_wide_input", {{"CHANNELS_LAST", 1}}));
  EXPECT_TRUE(valid("55_conv2d_wide_input", {{"CHANNELS_LAST", 1}, {"K_ORDER", "window"}}));
  EXPECT_TRUE(valid("87_pointwise", {{"CHANNELS_LAST", 1}}));
  // The gather's axis matters only for a channels-first input: a channels-last copy is read along channels.
  EXPECT_TRUE(valid("55_conv2d_wide_input", {{"GATHER_ALONG", "depth"}}));
  EXPECT_FALSE(valid("87_pointwise", {{"CHANNELS_LAST", 1}, {"GATHER_ALONG", "depth"}}));
  EXPECT_FALSE(valid("82_depthwise_3x3", {{"GATHER_ALONG", "depth"}}));
  // The window rows: 2 to 7 channels in one group, no dilation along the columns, over the padded copy.
  EXPECT_TRUE(valid("50_conv2d_alexnet_stem", {{"K_ORDER", "rows"}, {"CHANNELS_LAST", 1}}));
  EXPECT_FALSE(valid("50_conv2d_alexnet_stem", {{"K_ORDER", "rows"}}));
  EXPECT_FALSE(valid("55_conv2d_wide_input", {{"K_ORDER", "rows"}, {"CHANNELS_LAST", 1}}));
  EXPECT_TRUE(valid("60_conv3d_asymmetric", {{"K_ORDER", "rows"}, {"CHANNELS_LAST", 1}}));
  // The separable chain runs both kinds, so both sets of knobs move.
  EXPECT_TRUE(valid("86_depthwise_separable", {{"BLOCK_M", 64}, {"BLOCK_H", 16}}));
  // The outer-product direct kernel: only for 2 to 8 input channels, not transposed; with it no stage of a
  // single convolution runs as a GEMM, so the GEMM's knobs stay at their defaults and the direct tile moves; at
  // most 128 outputs a thread (64 channels x 8 x 64 at 8 warps is 128).
  EXPECT_TRUE(valid("54_conv3d_square", {{"DIRECT_CO", 64}}));
  EXPECT_FALSE(valid("54_conv3d_square", {{"DIRECT_CO", 64}, {"BLOCK_M", 64}}));
  EXPECT_TRUE(valid("54_conv3d_square", {{"DIRECT_CO", 32}, {"BLOCK_H", 16}}));
  EXPECT_FALSE(valid("54_conv3d_square", {{"DIRECT_CO", 64}, {"BLOCK_H", 16}}));
  EXPECT_FALSE(valid("54_conv3d_square", {{"BLOCK_H", 16}}));
  EXPECT_FALSE(valid("55_conv2d_wide_input", {{"DIRECT_CO", 64}}));
  EXPECT_FALSE(valid("57_tconv2d", {{"DIRECT_CO", 64}}));
  EXPECT_FALSE(valid("82_depthwise_3x3", {{"DIRECT_CO", 16}}));
  // TF32 at TF32 accuracy only under --precision tf32.
  EXPECT_FALSE(valid("87_pointwise", {{"input_precision", "tf32"}}));
  EXPECT_TRUE(valid("87_pointwise", {{"input_precision", "tf32x3"}}));
  EXPECT_TRUE(test::recognised(f, kernelbench("87_pointwise"))
                  ->valid(with(def, {{"input_precision", "tf32"}}), nullptr, Precision::tf32));
}

TEST(ConvFamily, OffsetsWidenPastTwoToTheThirtyElements) {
  const Family& f = test::family("conv");
  auto emitted = [&](const std::string& name) {
    auto p = test::recognised(f, kernelbench(name));
    return p->emit(f.knob_space().default_config(), {name});
  };
  EXPECT_NE(emitted("76_conv1d_dilated_strided").find("WIDE=True"), std::string::npos);  // 2^31 input elements
  EXPECT_NE(emitted("63_conv2d_large_image").find("WIDE=True"), std::string::npos);      // 2.1e9 outputs
  EXPECT_NE(emitted("66_conv3d_asymmetric_input").find("WIDE=False"), std::string::npos);
  EXPECT_EQ(emitted("66_conv3d_asymmetric_input").find("WIDE=True"), std::string::npos);
}

TEST(ConvFamily, Fp32GemmsSuggestTheTensorCoresThePolicyAllowsOnAChannelsLastCopy) {
  const Family& f = test::family("conv");
  const auto h200 = find_gpu_spec("NVIDIA H200");
  ASSERT_TRUE(h200);
  const std::vector<Config> space = f.knob_space().enumerate();
  auto suggested = [&](const std::string& name, Precision precision) {
    auto p = test::recognised(f, kernelbench(name));
    std::vector<Config> valid;
    for (const auto& c : space)
      if (p->valid(c, &*h200, precision)) valid.push_back(c);
    std::vector<Config> out;
    for (const auto& [c, why] : suggested_configs(*p, f.knob_space(), valid)) out.push_back(c);
    return out;
  };
  // 16 -> 128 channels in a 3 x 3 window: the window order over a channels-last copy in 128-channel tiles,
  // then channels-first in 128-channel tiles (no copy), then the copy and 3xTF32 alone in the default 64.
  auto s63 = suggested("63_conv2d_large_image", Precision::strict);
  ASSERT_EQ(s63.size(), 4u);
  EXPECT_EQ(s63[0].at("CHANNELS_LAST"), 1);
  EXPECT_EQ(s63[0].at("K_ORDER"), "window");
  EXPECT_EQ(s63[0].at("BLOCK_N"), 128);
  EXPECT_EQ(s63[0].at("input_precision"), "tf32x3");
  EXPECT_EQ(s63[1].at("CHANNELS_LAST"), 0);
  EXPECT_EQ(s63[1].at("BLOCK_N"), 128);
  EXPECT_EQ(s63[1].at("input_precision"), "tf32x3");
  EXPECT_EQ(s63[2].at("K_ORDER"), "window");
  EXPECT_EQ(s63[2].at("BLOCK_N"), 64);
  EXPECT_EQ(s63[3].at("CHANNELS_LAST"), 0);
  EXPECT_EQ(s63[3].at("BLOCK_N"), 64);
  EXPECT_EQ(s63[3].at("input_precision"), "tf32x3");
  // Under --precision tf32, TF32 first.
  auto t63 = suggested("63_conv2d_large_image", Precision::tf32);
  ASSERT_EQ(t63.size(), 8u);
  EXPECT_EQ(t63[0].at("input_precision"), "tf32");
  EXPECT_EQ(t63[0].at("CHANNELS_LAST"), 1);
  // A pointwise convolution reads its channels-first input without a copy, gathered along depth at 4 warps,
  // with 3xTF32; with TF32 the copy in 128-channel tiles comes first (it was the faster of the two).
  auto s87 = suggested("87_pointwise", Precision::strict);
  ASSERT_FALSE(s87.empty());
  EXPECT_EQ(s87[0].at("CHANNELS_LAST"), 0);
  EXPECT_EQ(s87[0].at("GATHER_ALONG"), "depth");
  EXPECT_EQ(s87[0].at("num_warps"), 4);
  EXPECT_EQ(s87[0].at("input_precision"), "tf32x3");
  auto t87 = suggested("87_pointwise", Precision::tf32);
  ASSERT_FALSE(t87.empty());
  EXPECT_EQ(t87[0].at("CHANNELS_LAST"), 1);
  EXPECT_EQ(t87[0].at("BLOCK_N"), 128);
  EXPECT_EQ(t87[0].at("input_precision"), "tf32");
  EXPECT_TRUE(std::any_of(t87.begin(), t87.end(), [](const Config& c) {
    return c.at("GATHER_ALONG") == "depth" && c.at("input_precision") == "tf32x3";
  }));
  // A transposed 64 -> 128 channels: 128-channel tiles on the copy first.
  auto s69 = suggested("69_tconv2d_3x5", Precision::strict);
  ASSERT_FALSE(s69.empty());
  EXPECT_EQ(s69[0].at("CHANNELS_LAST"), 1);
  EXPECT_EQ(s69[0].at("BLOCK_N"), 128);
  // 3 -> 96 channels, K 363: no window order; the window rows over a copy padded to 4 channels in one
  // 128-channel tile and steps of 16, then channels-first in 128-channel tiles, then the rows in the default
  // tile, then 3xTF32 in the weight's order; the outer-product direct kernel (blocks of 32 channels, tiles of
  // 8 x 64 at 4 warps: 128 outputs a thread) last, as K is long.
  auto s50 = suggested("50_conv2d_alexnet_stem", Precision::strict);
  ASSERT_EQ(s50.size(), 5u);
  EXPECT_EQ(s50[0].at("DIRECT_CO"), 0);
  EXPECT_EQ(s50[0].at("K_ORDER"), "rows");
  EXPECT_EQ(s50[0].at("CHANNELS_LAST"), 1);
  EXPECT_EQ(s50[0].at("BLOCK_N"), 128);
  EXPECT_EQ(s50[0].at("BLOCK_K"), 16);
  EXPECT_EQ(s50[0].at("input_precision"), "tf32x3");
  EXPECT_EQ(s50[1].at("CHANNELS_LAST"), 0);
  EXPECT_EQ(s50[1].at("BLOCK_N"), 128);
  EXPECT_EQ(s50[2].at("K_ORDER"), "rows");
  EXPECT_EQ(s50[2].at("BLOCK_N"), 64);
  EXPECT_EQ(s50[2].at("BLOCK_K"), 32);
  EXPECT_EQ(s50[3].at("K_ORDER"), "channels");
  EXPECT_EQ(s50[3].at("input_precision"), "tf32x3");
  EXPECT_EQ(s50[4].at("DIRECT_CO"), 32);
  EXPECT_EQ(s50[4].at("BLOCK_H"), 8);
  EXPECT_EQ(s50[4].at("BLOCK_W"), 64);
  EXPECT_EQ(s50[4].at("num_warps"), 4);
  EXPECT_EQ(s50[4].at("BLOCK_M"), 128);  // the GEMM's knobs at their defaults: no stage runs as one
  // 3 -> 64 channels in a 3x3x3 window, K 81: the outer products first, under tf32 too (exact fp32 and no
  // padded K). A window over an axis of 10 outputs (59) would leave most of a 32-wide tile idle.
  auto s54 = suggested("54_conv3d_square", Precision::strict);
  ASSERT_FALSE(s54.empty());
  EXPECT_EQ(s54[0].at("DIRECT_CO"), 32);
  EXPECT_EQ(s54[0].at("BLOCK_H"), 8);
  EXPECT_EQ(s54[0].at("num_warps"), 4);
  EXPECT_EQ(suggested("54_conv3d_square", Precision::tf32)[0].at("DIRECT_CO"), 32);
  for (const auto& c : suggested("59_conv3d_flat_window", Precision::strict)) EXPECT_EQ(c.at("DIRECT_CO"), 0);
  // A transposed convolution reads the copy in any order; depthwise alone runs no GEMM and suggests nothing.
  auto s57 = suggested("57_tconv2d", Precision::strict);
  ASSERT_FALSE(s57.empty());
  EXPECT_EQ(s57[0].at("CHANNELS_LAST"), 1);
  EXPECT_TRUE(suggested("82_depthwise_3x3", Precision::strict).empty());
}

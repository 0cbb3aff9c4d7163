// The reduction family's own rules against its recorded traces (tests/data/families/reduction): the shapes
// it recognises, its pruning and its launch variants. Its golden kernels are the conformance test's.

#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "kernelagent/core/template.hpp"
#include "kernelagent/families/reduction/reduction_family.hpp"
#include "family_support.hpp"
#include "kernelagent/gpu/gpu_spec.hpp"
#include "kernelagent/orchestrate/stages/search_request.hpp"
#include "test_data.hpp"

using namespace kernelagent;
namespace fs = std::filesystem;

namespace {

test::FamilyCalls family() { return {test::family("reduction")}; }

TraceResult trace(const std::string& name) { return test::family_trace("reduction", name); }

}  // namespace

TEST(ReductionFamily, RecognisesEachRecordedReductionWithItsShape) {
  struct Expect { const char* name; const char* op; std::int64_t outer, r, inner; };
  for (const Expect& e : {Expect{"softmax", "softmax", 8, 1000, 1}, Expect{"log_softmax", "log_softmax", 8, 1500, 1},
                          Expect{"sum_middle", "sum", 4, 300, 33}, Expect{"mean_middle", "mean", 4, 300, 33},
                          Expect{"max_middle", "max", 4, 300, 33}, Expect{"min_last", "min", 16, 5000, 1},
                          Expect{"argmax_middle", "argmax", 4, 300, 33}, Expect{"argmin_middle", "argmin", 4, 300, 33}}) {
    std::string why;
    auto s = recognise_reduction_shape(trace(e.name), &why);
    ASSERT_TRUE(s.has_value()) << e.name << ": " << why;
    EXPECT_EQ(s->op, e.op) << e.name;
    EXPECT_EQ(s->outer, e.outer) << e.name;
    EXPECT_EQ(s->r, e.r) << e.name;
    EXPECT_EQ(s->inner, e.inner) << e.name;
  }
  EXPECT_EQ(recognise_reduction_shape(trace("argmax_middle"), nullptr)->out_dtype, "int64");
  EXPECT_EQ(recognise_reduction_shape(trace("sum_middle"), nullptr)->out_shape, (std::vector<std::int64_t>{4, 1, 33}));
}

TEST(ReductionFamily, TakesTheValuesAndIndicesOfAMinTogetherInTheOrderReturned) {
  // torch.min(x, dim=-2) unpacked and returned as (indices, values): the arg-reduction writing both.
  std::string why;
  auto s = recognise_reduction_shape(trace("min_indices_and_values"), &why);
  ASSERT_TRUE(s.has_value()) << why;
  EXPECT_EQ(s->op, "argmin");
  EXPECT_TRUE(s->values_too);
  EXPECT_FALSE(s->values_first);
  EXPECT_EQ(s->out_dtype, "int64");
  EXPECT_EQ(s->values_dtype, "float32");
  EXPECT_EQ(s->out_shape, (std::vector<std::int64_t>{4, 33}));
  // One output alone stays what it was: the values a max, the indices an arg-reduction.
  EXPECT_FALSE(recognise_reduction_shape(trace("max_middle"), nullptr)->values_too);
  EXPECT_FALSE(recognise_reduction_shape(trace("argmax_middle"), nullptr)->values_too);
}

TEST(ReductionFamily, PrunesByLayoutTileSizeAndLength) {
  auto f = family();
  auto last = trace("softmax"), middle = trace("sum_middle");
  auto cfg = [](int r, int i, int w) { return Config{{"block_r", r}, {"block_i", i}, {"num_warps", w}, {"split_r", 1}}; };
  EXPECT_TRUE(f.valid(cfg(1024, 1, 8), last, nullptr, Precision::strict));
  EXPECT_FALSE(f.valid(cfg(1024, 16, 8), last, nullptr, Precision::strict));   // columns only for an inner dim
  EXPECT_FALSE(f.valid(cfg(256, 1, 8), middle, nullptr, Precision::strict));   // strided rows need column blocks
  EXPECT_TRUE(f.valid(cfg(256, 64, 8), middle, nullptr, Precision::strict));
  EXPECT_FALSE(f.valid(cfg(4096, 16, 8), middle, nullptr, Precision::strict));  // 64K elements in registers
  EXPECT_FALSE(f.valid(cfg(4096, 1, 8), last, nullptr, Precision::strict));     // a tile 4x the 1000-long row
}

TEST(ReductionFamily, SplitsRowsOnlyWhenFewProgramsWouldRun) {
  auto f = family();
  const GpuSpec h200 = *find_gpu_spec("NVIDIA H200");
  auto cfg = [](int r, int i, int w, int split) {
    return Config{{"block_r", r}, {"block_i", i}, {"num_warps", w}, {"split_r", split}};
  };
  // min over the last dimension of [16, 5000]: 16 programs leave the GPU idle; 64-element tiles give 79 steps.
  auto few = trace("min_last");
  EXPECT_TRUE(f.valid(cfg(64, 1, 8, 16), few, &h200, Precision::strict));
  EXPECT_FALSE(f.valid(cfg(1024, 1, 8, 4), few, &h200, Precision::strict));  // 5 tiles cannot feed 4 splits twice
  EXPECT_FALSE(f.valid(cfg(64, 1, 32, 4), few, &h200, Precision::strict));   // 32 warps: the cooperative softmax's
  // softmax of 8 x 1000: the row fits one tile, and without a GPU its programs could not wait on each other.
  EXPECT_FALSE(f.valid(cfg(1024, 1, 8, 12), trace("softmax"), &h200, Precision::strict));
  EXPECT_FALSE(f.valid(cfg(1024, 1, 8, 12), trace("softmax"), nullptr, Precision::strict));
  const std::string split = f.emit(few, cfg(64, 1, 8, 16), {"x"});
  EXPECT_NE(split.find("ka_reduce_combine_kernel[(16,)]"), std::string::npos) << split;
  EXPECT_NE(split.find("SPLIT=16,"), std::string::npos);
  EXPECT_NE(split.find("R_STEPS=5,"), std::string::npos);  // 79 tiles over 16 splits
}

TEST(ReductionFamily, LongSoftmaxRowsAreSharedByCoResidentPrograms) {
  auto f = family();
  const GpuSpec h200 = *find_gpu_spec("NVIDIA H200");
  // A 4096 x 393216 softmax, as KernelBench's 23_Softmax: the trace of the small one with a longer row.
  auto t = trace("softmax");
  for (auto& in : t.graph.inputs) in.meta.shape = {4096, 393216}, in.meta.stride = {393216, 1};
  for (auto& n : t.graph.nodes) n.meta.shape = {4096, 393216};
  auto cfg = [](int w, int split) {
    return Config{{"block_r", 1024}, {"block_i", 1}, {"num_warps", w}, {"split_r", split}};
  };
  EXPECT_TRUE(f.valid(cfg(16, 24), t, &h200, Precision::strict));    // 16384 per program, 32 per thread
  EXPECT_FALSE(f.valid(cfg(8, 24), t, &h200, Precision::strict));    // 64 per thread: too many registers
  EXPECT_FALSE(f.valid(cfg(4, 48), t, &h200, Precision::strict));    // 8192 over 128 threads: 64 each
  EXPECT_TRUE(f.valid(cfg(4, 96), t, &h200, Precision::strict));     // 4096 per program, 32 per thread
  EXPECT_FALSE(f.valid(cfg(16, 24), t, nullptr, Precision::strict));  // never on the interpreter
  // 16 parts of 32768 (chunks are powers of two) cover 393216 with the last four parts empty: a waste
  // the H200 sweep showed as NaN before the kernel learnt to sum an empty part to 0.
  EXPECT_FALSE(f.valid(cfg(32, 16), t, &h200, Precision::strict));
  EXPECT_TRUE(f.valid(cfg(32, 12), t, &h200, Precision::strict));
  Config bad = cfg(16, 24);
  bad["block_r"] = 256;  // block_r does not apply: one configuration, not five
  EXPECT_FALSE(f.valid(bad, t, &h200, Precision::strict));
  const std::string src = f.emit(t, cfg(16, 24), {"x"});
  EXPECT_NE(src.find("ka_softmax_coop_kernel[(self.ka_groups * 24,)]"), std::string::npos) << src;
  EXPECT_NE(src.find("CHUNK=16384"), std::string::npos);
  EXPECT_NE(src.find("SPLIT_P2=32"), std::string::npos);
  EXPECT_NE(src.find("EXCHANGE=0,"), std::string::npos);  // the counter
  EXPECT_NE(src.find("(count, rows, 0, BLOCK=1024)"), std::string::npos) << src;  // the counters start at 0

  // 192 programs a row: 2048 each, 32 per thread at 2 warps; at most two programs of a row per SM.
  EXPECT_TRUE(f.valid(cfg(2, 192), t, &h200, Precision::strict));
  EXPECT_FALSE(f.valid(cfg(1, 384), t, &h200, Precision::strict));  // 384 > 2 x 132 SMs (and no 1 warp)
  // The tagged exchange: a 64-bit slot per program of a row, all at -1 before the call.
  Config tagged = cfg(4, 96);
  tagged["exchange"] = "tagged";
  EXPECT_TRUE(f.valid(tagged, t, &h200, Precision::strict));
  const std::string tsrc = f.emit(t, tagged, {"x"});
  EXPECT_NE(tsrc.find("EXCHANGE=1,"), std::string::npos) << tsrc;
  EXPECT_NE(tsrc.find("dtype=torch.int64"), std::string::npos) << tsrc;
  EXPECT_NE(tsrc.find("(stats, rows * 96, -1, BLOCK=1024)"), std::string::npos) << tsrc;
  // The spin exchange: the same slots, waited on per thread.
  Config spin = cfg(4, 96);
  spin["exchange"] = "spin";
  EXPECT_TRUE(f.valid(spin, t, &h200, Precision::strict));
  const std::string ssrc = f.emit(t, spin, {"x"});
  EXPECT_NE(ssrc.find("EXCHANGE=2,"), std::string::npos) << ssrc;
  EXPECT_NE(ssrc.find("(stats, rows * 96, -1, BLOCK=1024)"), std::string::npos) << ssrc;
  // Only a cooperative softmax has an exchange: anything else with "tagged" is a duplicate configuration.
  Config one_program = cfg(8, 1);
  one_program["exchange"] = "tagged";
  EXPECT_FALSE(f.valid(one_program, t, &h200, Precision::strict));
  one_program["exchange"] = "spin";
  EXPECT_FALSE(f.valid(one_program, t, &h200, Precision::strict));
  Config two_warps = cfg(2, 1);
  EXPECT_FALSE(f.valid(two_warps, t, &h200, Precision::strict));  // 2 warps only for the cooperative softmax
}

TEST(ReductionFamily, SoftmaxKeepsARowInRegistersOnlyWhenItFits) {
  auto f = family();
  Config c{{"block_r", 1024}, {"block_i", 1}, {"num_warps", 8}, {"split_r", 1}};
  EXPECT_NE(f.emit(trace("softmax"), c, {"x"}).find("ONE_TILE=True"), std::string::npos);      // 1000 <= 1024
  EXPECT_NE(f.emit(trace("log_softmax"), c, {"x"}).find("ONE_TILE=False"), std::string::npos);  // 1500 > 1024
}


TEST(ReductionFamily, AReductionOverAnOuterDimensionSuggestsBlocksOfWholeLines) {
  // KernelBench 47: a sum over the middle of [128, 4096, 4095]; 4095 kept inner elements.
  const TraceResult t = TraceResult::from_json(
      test::read_json(test::data_dir() / "families" / "reduction" / "kernelbench" / "47_Sum_reduction_over_a_dimension.json"));
  auto p = test::recognised(test::family("reduction"), t);
  const auto sugs = p->suggestions();
  ASSERT_EQ(sugs.size(), 1u);
  EXPECT_EQ(sugs[0].knobs, (Config{{"block_i", 64}, {"block_r", 256}, {"num_warps", 8}}));
  EXPECT_NE(sugs[0].reason.find("4095 kept inner elements"), std::string::npos) << sugs[0].reason;
  // It is a valid configuration: the search's second trial.
  const KnobSpace& space = p->family().knob_space();
  std::vector<Config> valid;
  for (const auto& c : space.enumerate())
    if (p->valid(c, nullptr, Precision::strict)) valid.push_back(c);
  const auto configs = suggested_configs(*p, space, valid);
  ASSERT_EQ(configs.size(), 1u);
  EXPECT_EQ(configs[0].first.at("block_i"), 64);
  EXPECT_EQ(configs[0].first.at("block_r"), 256);
  // Fewer than 64 inner elements (sum_middle: 33), or a reduction over the innermost: nothing to suggest.
  EXPECT_TRUE(test::recognised(test::family("reduction"), trace("sum_middle"))->suggestions().empty());
  EXPECT_TRUE(test::recognised(test::family("reduction"), trace("softmax"))->suggestions().empty());
}

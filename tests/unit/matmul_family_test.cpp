// The matmul family's own rules against its recorded traces (tests/data/families/matmul): the products
// it recognises, its knob space and pruning, transposes, triangles and diagonal scalings. Its golden kernels
// are the conformance test's.

#include "kernelagent/families/matmul/matmul_family.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>

#include "family_support.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/orchestrate/stages/search_request.hpp"
#include "test_data.hpp"

using namespace kernelagent;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

test::FamilyCalls family() { return {test::family("matmul")}; }

TraceResult trace(const std::string& name) { return test::family_trace("matmul", name); }

MatmulProblem problem(const std::string& name) {
  auto r = recognise_matmul(trace(name));
  if (auto* why = std::get_if<std::string>(&r)) throw std::runtime_error(name + ": " + *why);
  return std::get<MatmulProblem>(r);
}

Config with(Config c, const json& changes) {
  for (const auto& [k, v] : changes.items()) c[k] = v;
  return c;
}

}  // namespace

TEST(MatmulFamily, KMajorCopiesOnlyForATf32ProductWithAnOperandNotKMajor) {
  auto f = family();
  // The recorded traces are small (64 x 64): 64 x 64 tiles.
  const Config base = with(f.knob_space().default_config(), {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"K_MAJOR", 1}});
  const Config x3 = with(base, {{"input_precision", "tf32x3"}});
  // 1_: B is (K, N) N-contiguous, so it is copied; IEEE reads either layout alike.
  EXPECT_TRUE(f.valid(x3, trace("1_Square_matrix_multiplication_"), nullptr, Precision::strict));
  EXPECT_FALSE(f.valid(base, trace("1_Square_matrix_multiplication_"), nullptr, Precision::strict));
  // 17_ (A @ B^T): both operands are K-major already: nothing to copy.
  EXPECT_FALSE(f.valid(x3, trace("17_Matmul_with_transposed_B"), nullptr, Precision::strict));
  // The copies in the emitted kernel: B of 1_, A of 16_ (A^T @ B: A read along M), and the kernel reads
  // the copy with K as its contiguous dimension.
  const std::string square = f.emit(trace("1_Square_matrix_multiplication_"), x3, {"1.py"});
  EXPECT_NE(square.find("        b = ka_k_major(b, "), std::string::npos);
  EXPECT_EQ(square.find("        a = ka_k_major(a, "), std::string::npos);
  const std::string ta = f.emit(trace("16_Matmul_with_transposed_A"), x3, {"16.py"});
  EXPECT_NE(ta.find("        a = ka_k_major(a, "), std::string::npos);
}

TEST(MatmulFamily, KnobSpaceIsSmallTaggedAndDefaultFirst) {
  auto f = family();
  const auto& space = f.knob_space();
  std::set<std::string> names;
  for (const auto& k : space.knobs) {
    names.insert(k.name);
    EXPECT_FALSE(k.tags.empty()) << k.name;
    EXPECT_FALSE(k.purpose.empty()) << k.name;
    for (const auto& tag : k.tags)
      EXPECT_NE(std::find(knob_tags().begin(), knob_tags().end(), tag), knob_tags().end()) << k.name << " " << tag;
  }
  for (const auto* n :
       {"BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "num_warps", "num_stages", "SPLIT_K", "K_MAJOR", "ALIGN", "input_precision"})
    EXPECT_TRUE(names.contains(n)) << n;
  auto all = space.enumerate();
  EXPECT_EQ(all.size(), 1536u);
  EXPECT_EQ(all.front(), space.default_config());
  EXPECT_EQ(all.front(), (json{{"BLOCK_M", 128},
                               {"BLOCK_N", 128},
                               {"BLOCK_K", 32},
                               {"GROUP_M", 8},
                               {"num_warps", 8},
                               {"num_stages", 3},
                               {"SPLIT_K", 1},
                               {"K_MAJOR", 0},
                               {"ALIGN", 0},
                               {"input_precision", "ieee"}}));
  std::set<std::string> distinct;
  for (const auto& c : all) distinct.insert(c.dump());
  EXPECT_EQ(distinct.size(), all.size());
}

TEST(MatmulFamily, PrecisionPolicyDecidesTheInputPrecision) {
  auto f = family();
  auto t = trace("2_Standard_matrix_multiplication_");
  Config c = with(f.knob_space().default_config(), {{"BLOCK_M", 64}, {"BLOCK_N", 64}});
  EXPECT_TRUE(f.valid(with(c, {{"input_precision", "ieee"}}), t, nullptr, Precision::strict));
  EXPECT_TRUE(f.valid(with(c, {{"input_precision", "tf32x3"}}), t, nullptr, Precision::strict));
  EXPECT_FALSE(f.valid(with(c, {{"input_precision", "tf32"}}), t, nullptr, Precision::strict));
  EXPECT_TRUE(f.valid(with(c, {{"input_precision", "tf32"}}), t, nullptr, Precision::tf32));
  EXPECT_NE(f.emit(t, with(c, {{"input_precision", "tf32x3"}}), {"x"}).find("INPUT_PRECISION=\"tf32x3\""),
            std::string::npos);
  // Half-precision inputs go to tensor cores anyway: the TF32 modes do not apply.
  for (auto& in : t.graph.inputs) in.meta.dtype = "float16";
  t.graph.nodes.back().meta.dtype = "float16";
  EXPECT_TRUE(f.valid(c, t, nullptr, Precision::strict));
  EXPECT_FALSE(f.valid(with(c, {{"input_precision", "tf32x3"}}), t, nullptr, Precision::tf32));
  EXPECT_FALSE(f.valid(with(c, {{"input_precision", "tf32"}}), t, nullptr, Precision::tf32));
}

TEST(MatmulFamily, PrunesBySharedMemory) {
  auto f = family();
  auto t = trace("1_Square_matrix_multiplication_");
  for (auto* shape : {&t.graph.inputs[0].meta.shape, &t.graph.inputs[1].meta.shape, &t.graph.nodes[0].meta.shape})
    *shape = {4096, 4096};
  t.graph.inputs[0].meta.stride = t.graph.inputs[1].meta.stride = {4096, 1};
  const Config big = with(f.knob_space().default_config(), {{"num_stages", 4}});  // 128x128x32 fp32, 4 stages
  EXPECT_EQ(matmul_smem_bytes(big, "float32"), (128 * 32 + 32 * 128) * 4 * 4);
  EXPECT_EQ(matmul_smem_bytes(big, "bfloat16"), (128 * 32 + 32 * 128) * 2 * 4);
  GpuSpec small_gpu;
  small_gpu.smem_per_block_optin = 99 * 1024;
  EXPECT_FALSE(f.valid(big, t, &small_gpu, Precision::strict));
  EXPECT_TRUE(f.valid(with(big, {{"num_stages", 3}}), t, &small_gpu, Precision::strict));  // 96 KiB
  EXPECT_TRUE(f.valid(big, t, nullptr, Precision::strict));
  auto h200 = find_gpu_spec("NVIDIA H200");
  ASSERT_TRUE(h200.has_value());
  EXPECT_TRUE(f.valid(big, t, &*h200, Precision::strict));
}

TEST(MatmulFamily, SplitsKOnlyWhenKDominates) {
  auto f = family();
  const Config split = with(f.knob_space().default_config(), {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"SPLIT_K", 4}});
  auto long_k = trace("6_Matmul_with_large_K_dimension_");  // 32 x 48, K = 2048
  EXPECT_TRUE(f.valid(split, long_k, nullptr, Precision::strict));
  auto h200 = find_gpu_spec("NVIDIA H200");
  EXPECT_TRUE(f.valid(split, long_k, &*h200, Precision::strict));
  EXPECT_FALSE(f.valid(split, trace("2_Standard_matrix_multiplication_"), nullptr, Precision::strict));
  EXPECT_FALSE(f.valid(split, trace("7_Matmul_with_small_K_dimension_"), nullptr, Precision::strict));
  // Enough output tiles to fill every SM: splitting K would only add a second pass.
  GpuSpec tiny;
  tiny.sm_count = 1;
  EXPECT_FALSE(f.valid(split, long_k, &tiny, Precision::strict));
  const std::string src = f.emit(long_k, split, {"x"});
  EXPECT_NE(src.find("split_k = 4"), std::string::npos);
  EXPECT_NE(src.find("ka_splitk_reduce_kernel[(triton.cdiv(total, 1024),)]"), std::string::npos);
  EXPECT_EQ(src.find("torch.zeros"), std::string::npos);
}

TEST(MatmulFamily, PrunesTilesMuchLargerThanTheProblem) {
  auto f = family();
  const Config def = f.knob_space().default_config();
  EXPECT_FALSE(f.valid(def, trace("1_Square_matrix_multiplication_"), nullptr, Precision::strict));  // 64 x 64
  EXPECT_TRUE(f.valid(with(def, {{"BLOCK_M", 64}, {"BLOCK_N", 64}}), trace("1_Square_matrix_multiplication_"), nullptr,
                      Precision::strict));
  EXPECT_TRUE(f.valid(def, trace("9_Tall_skinny_matrix_multiplication_"), nullptr, Precision::strict));  // 160 x 160
  // Matrix-vector: N = 1, so only the smallest column tile.
  EXPECT_FALSE(
      f.valid(with(def, {{"BLOCK_M", 64}}), trace("4_Matrix_vector_multiplication_"), nullptr, Precision::strict));
  EXPECT_TRUE(f.valid(with(def, {{"BLOCK_M", 64}, {"BLOCK_N", 64}}), trace("4_Matrix_vector_multiplication_"), nullptr,
                      Precision::strict));
}

TEST(MatmulFamily, ReadsTransposedOperandsThroughTheirStrides) {
  auto a_t = problem("16_Matmul_with_transposed_A");  // A stored [K=80, M=64]
  EXPECT_EQ(a_t.a.input, "in0");
  EXPECT_EQ(std::make_pair(a_t.a.stride_row, a_t.a.stride_col), std::make_pair(std::int64_t{1}, std::int64_t{64}));
  EXPECT_EQ(std::make_pair(a_t.b.stride_row, a_t.b.stride_col), std::make_pair(std::int64_t{96}, std::int64_t{1}));
  auto b_t = problem("17_Matmul_with_transposed_B");  // B stored [N=96, K=80]
  EXPECT_EQ(std::make_pair(b_t.b.stride_row, b_t.b.stride_col), std::make_pair(std::int64_t{1}, std::int64_t{80}));
  auto both = problem("18_Matmul_with_transposed_both");
  EXPECT_EQ(both.m, 64);
  EXPECT_EQ(both.n, 96);
  EXPECT_EQ(both.k, 80);
  EXPECT_EQ(both.a.stride_row, 1);
  EXPECT_EQ(both.b.stride_row, 1);
  auto bmm_t = problem("3b_Batched_transposed_B");  // B stored [3, 56, 48], read as [3, 48, 56]
  EXPECT_EQ(bmm_t.batch, 3);
  EXPECT_EQ(bmm_t.b.stride_batch, 2688);
  EXPECT_EQ(std::make_pair(bmm_t.b.stride_row, bmm_t.b.stride_col), std::make_pair(std::int64_t{1}, std::int64_t{48}));
  auto f = family();
  const std::string src = f.emit(trace("18_Matmul_with_transposed_both"), f.knob_space().default_config(), {"x"});
  EXPECT_NE(src.find("            0, 1, 64,\n            0, 1, 80,\n"), std::string::npos) << src;
}

TEST(MatmulFamily, FlattensThreeAndFourDimensionalProducts) {
  auto three = problem("10_3D_tensor_matrix_multiplication");  // [4, 24, 40] @ [40, 36] as one [96, 40] @ [40, 36]
  EXPECT_EQ(three.batch, 1);
  EXPECT_EQ(three.m, 96);
  EXPECT_EQ(three.a.stride_row, 40);
  EXPECT_EQ(three.output.shape, (std::vector<std::int64_t>{4, 24, 36}));
  EXPECT_TRUE(three.row_major_output());
  auto four = problem("11_4D_tensor_matrix_multiplication");  // einsum bijl,lk->bijk: bmm of batch 1
  EXPECT_EQ(four.batch, 1);
  EXPECT_EQ(four.m, 96);
  EXPECT_EQ(four.k, 40);
  EXPECT_EQ(four.n, 24);
  EXPECT_EQ(std::make_pair(four.a.stride_row, four.a.stride_col), std::make_pair(std::int64_t{40}, std::int64_t{1}));
  EXPECT_EQ(std::make_pair(four.b.stride_row, four.b.stride_col), std::make_pair(std::int64_t{24}, std::int64_t{1}));
  auto f = family();
  EXPECT_NE(f.emit(trace("11_4D_tensor_matrix_multiplication"), f.knob_space().default_config(), {"x"})
                .find("return c.view((2, 6, 8, 24))"),
            std::string::npos);
  auto mv = problem("4b_Matrix_vector_1d");
  EXPECT_EQ(mv.n, 1);
  EXPECT_EQ(mv.output.shape, (std::vector<std::int64_t>{64}));
}

// torch.matmul of [2, 1, 24, 12] by [1, 3, 12, 20]: PyTorch expands both operands to a batch of 2 x 3 and
// copies them to run one bmm; the family reads each batch as two levels of strides instead, with no copy.
TEST(MatmulFamily, BroadcastBatchDimsAreTwoLevelsOfStridesAndNeverCopied) {
  auto p = problem("broadcast_batch_dims");
  EXPECT_EQ(p.batch, 6);
  EXPECT_EQ(std::make_pair(p.a.batch_inner, p.a.stride_batch), std::make_pair(std::int64_t{3}, std::int64_t{288}));
  EXPECT_EQ(p.a.stride_batch_inner, 0);  // x is shared by y's three matrices
  EXPECT_EQ(std::make_pair(p.b.batch_inner, p.b.stride_batch), std::make_pair(std::int64_t{3}, std::int64_t{0}));
  EXPECT_EQ(p.b.stride_batch_inner, 240);
  EXPECT_EQ(p.a.batch_offset("batch", "stride_ab"), "(batch // 3) * stride_ab + (batch % 3) * 0");
  auto f = family();
  const Config x3 = with(f.knob_space().default_config(),
                         {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"input_precision", "tf32x3"}});
  EXPECT_TRUE(f.valid(x3, trace("broadcast_batch_dims"), nullptr, Precision::strict));
  // The K-major and aligned copies read a batch as one dim: not offered here.
  EXPECT_FALSE(f.valid(with(x3, {{"K_MAJOR", 1}}), trace("broadcast_batch_dims"), nullptr, Precision::strict));
  EXPECT_NE(f.emit(trace("broadcast_batch_dims"), x3, {"x"}).find("return c.view((2, 3, 24, 20))"), std::string::npos);
}

TEST(MatmulFamily, FusesTrilAndTriuAsAnEpilogueMask) {
  auto upper = problem("14_Matmul_for_upper_triangular_matrices");
  EXPECT_EQ(upper.mask, TriangleMask::triu);
  EXPECT_EQ(upper.diagonal, 0);
  EXPECT_EQ(problem("15_Matmul_for_lower_triangular_matrices").mask, TriangleMask::tril);
  EXPECT_EQ(problem("13_Matmul_for_symmetric_matrices").mask, TriangleMask::none);
  // tril of a re-viewed product is not the same mask: declined.
  auto t = trace("10_3D_tensor_matrix_multiplication");
  Node tril;
  tril.name = "n3";
  tril.target = "aten.tril.default";
  tril.args = {Arg{Arg::Kind::ref, "n2", {}, {}}, Arg{Arg::Kind::value, "", 0, {}}};
  tril.meta = t.graph.nodes.back().meta;
  t.graph.nodes.push_back(tril);
  t.graph.outputs = {"n3"};
  auto why = family().why_not(t);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("not applied directly to the product"), std::string::npos) << *why;
}

TEST(MatmulFamily, DiagonalTimesMatrixIsAScaling) {
  auto f = family();
  auto rows = problem("12_Matmul_with_diagonal_matrices_");
  EXPECT_EQ(rows.kind, MatmulProblem::Kind::diag_rows);
  EXPECT_EQ(problem("12b_Matmul_with_diagonal_right").kind, MatmulProblem::Kind::diag_cols);
  auto t = trace("12_Matmul_with_diagonal_matrices_");
  const Config c = with(f.knob_space().default_config(), {{"BLOCK_M", 64}, {"BLOCK_N", 64}});
  EXPECT_TRUE(f.valid(c, t, nullptr, Precision::strict));
  EXPECT_TRUE(f.valid(with(c, {{"num_warps", 4}}), t, nullptr, Precision::strict));
  // Knobs the scaling kernel does not have would only repeat the same kernel.
  EXPECT_FALSE(f.valid(with(c, {{"num_stages", 4}}), t, nullptr, Precision::strict));
  EXPECT_FALSE(f.valid(with(c, {{"input_precision", "tf32x3"}}), t, nullptr, Precision::strict));
  const std::string src = f.emit(t, c, {"x"});
  EXPECT_NE(src.find("SCALE_ROWS=True"), std::string::npos);
  EXPECT_EQ(src.find("tl.dot"), std::string::npos);
}

TEST(MatmulFamily, StridedViewFollowsPyTorchViewRules) {
  auto contiguous = StridedView::contiguous({4, 6, 8});
  EXPECT_EQ(contiguous.stride, (std::vector<std::int64_t>{48, 8, 1}));
  EXPECT_EQ(view_strides(contiguous, {24, 8}), (std::vector<std::int64_t>{8, 1}));
  EXPECT_EQ(view_strides(contiguous, {4, 48}), (std::vector<std::int64_t>{48, 1}));
  StridedView transposed{{8, 6}, {1, 8}};  // a [6, 8] tensor transposed
  EXPECT_FALSE(view_strides(transposed, {48}).has_value());
  EXPECT_EQ(view_strides(transposed, {8, 2, 3}), (std::vector<std::int64_t>{1, 24, 8}));
  StridedView expanded{{3, 5}, {0, 1}};
  EXPECT_EQ(view_strides(expanded, {3, 5, 1}), (std::vector<std::int64_t>{0, 1, 1}));
  EXPECT_TRUE(StridedView({{2, 1, 5}, {5, 99, 1}}).row_major());
  EXPECT_FALSE(transposed.row_major());
}

TEST(MatmulFamily, SourceHashCoversBothTemplates) {
  auto f = family();
  EXPECT_EQ(f.source_hash().size(), 16u);
  EXPECT_EQ(f.name(), "matmul");
}

TEST(MatmulFamily, AlignsOnlyOperandsWithMisalignedStrides) {
  auto f = family();
  const Config base = with(f.knob_space().default_config(), {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"ALIGN", 1}});
  // 8_: A [67, 91] and B [91, 53] in the fixture: rows of 91 and 53 elements, not 16-element aligned.
  const auto irregular = trace("8_Matmul_with_irregular_shapes_");
  ASSERT_TRUE(f.valid(base, irregular, nullptr, Precision::strict));
  const std::string src = f.emit(irregular, base, {"8.py"});
  EXPECT_NE(src.find("a = ka_k_major(a, "), std::string::npos) << src;
  EXPECT_NE(src.find("b = ka_k_major(b, "), std::string::npos) << src;
  // The square fixture (64 x 64) is aligned already: the copy would only repeat the plain configuration.
  EXPECT_FALSE(f.valid(base, trace("1_Square_matrix_multiplication_"), nullptr, Precision::strict));
}

// KernelBench's products at their own shapes (tests/data/families/matmul/kernelbench: traces recorded with
// scripts/record-trace --meta from examples/matmul): each has a family, and that family has a configuration
// valid on the H200 at that shape, so a one-trial run of each works. The products proper are the matmul
// family's; a matrix-vector product, a scaling or a diagonal one may be another's.
TEST(MatmulFamily, EveryKernelBenchProductHasAFamilyAndAValidConfigurationAtItsShape) {
  const auto h200 = find_gpu_spec("NVIDIA H200");
  ASSERT_TRUE(h200);
  int seen = 0, products = 0;
  for (const auto& e : fs::directory_iterator(test::data_dir() / "families" / "matmul" / "kernelbench")) {
    const std::string name = e.path().stem().string();
    SCOPED_TRACE(name);
    const TraceResult t = TraceResult::from_json(test::read_json(e.path()));
    const Family* first = nullptr;
    for (const auto& f : test::families())
      if (f->recognise(t)) {
        first = f.get();
        break;
      }
    ASSERT_NE(first, nullptr);
    auto p = test::recognised(*first, t);
    const Config c = test::first_valid(*p, &*h200);
    EXPECT_NE(p->emit(c, {name + ".py"}).find("class ModelNew"), std::string::npos);
    products += first->name() == "matmul";
    ++seen;
  }
  EXPECT_EQ(seen, 16);
  EXPECT_GE(products, 12);
}

TEST(MatmulFamily, AProductWithUnalignedRowsSuggestsTheAlignedCopyOnTheTensorCoresThePolicyAllows) {
  // 8205 x 2949 @ 2949 x 5921 (KernelBench 8): neither A's rows (2949) nor B's (5921) are 16-element aligned.
  const auto h200 = find_gpu_spec("NVIDIA H200");
  const auto dir = test::data_dir() / "families" / "matmul" / "kernelbench";
  const TraceResult t = TraceResult::from_json(test::read_json(dir / "8_Matmul_with_irregular_shapes_.json"));
  auto p = test::recognised(test::family("matmul"), t);
  const auto sugs = p->suggestions();
  ASSERT_EQ(sugs.size(), 3u);
  EXPECT_EQ(sugs[0].knobs, (Config{{"ALIGN", 1}, {"input_precision", "tf32"}}));
  EXPECT_NE(sugs[0].reason.find("A's strides (2949, 1) are not multiples of 16 elements and B's strides (5921, 1)"),
            std::string::npos)
      << sugs[0].reason;
  // As configurations of the valid space: under strict the TF32 one has none and is dropped; each is the
  // default with only the suggested knobs changed.
  const KnobSpace& space = p->family().knob_space();
  for (const auto& [precision, expected] : {std::pair{Precision::strict, 2u}, std::pair{Precision::tf32, 3u}}) {
    std::vector<Config> valid;
    for (const auto& c : space.enumerate())
      if (p->valid(c, &*h200, precision)) valid.push_back(c);
    const auto configs = suggested_configs(*p, space, valid);
    ASSERT_EQ(configs.size(), expected);
    const Config& first = configs.front().first;
    EXPECT_EQ(first.at("ALIGN"), 1);
    EXPECT_EQ(first.at("input_precision"), precision == Precision::strict ? "tf32x3" : "tf32");
    for (const auto& k : differing_knobs(space.default_config(), first))
      EXPECT_TRUE(k == "ALIGN" || k == "input_precision") << k;
  }
}

TEST(MatmulFamily, ALongKUnderFewOutputTilesSuggestsSplittingKFirst) {
  const auto h200 = find_gpu_spec("NVIDIA H200");
  const auto dir = test::data_dir() / "families" / "matmul" / "kernelbench";
  // KernelBench 6: 256 x 256 from K = 524288: four tiles of 128 x 128, so the split that makes 128 programs or
  // more (64, of 1, 4, 16, 64) comes with the K-major copy first, then alone, then the copy unsplit.
  const TraceResult t = TraceResult::from_json(test::read_json(dir / "6_Matmul_with_large_K_dimension_.json"));
  auto p = test::recognised(test::family("matmul"), t);
  const auto sugs = p->suggestions();
  ASSERT_EQ(sugs.size(), 5u);
  EXPECT_EQ(sugs[0].knobs, (Config{{"K_MAJOR", 1}, {"SPLIT_K", 64}, {"input_precision", "tf32"}}));
  EXPECT_EQ(sugs[1].knobs, (Config{{"K_MAJOR", 1}, {"SPLIT_K", 64}, {"input_precision", "tf32x3"}}));
  EXPECT_EQ(sugs[2].knobs, (Config{{"SPLIT_K", 64}}));
  EXPECT_EQ(sugs[4].knobs, (Config{{"K_MAJOR", 1}, {"input_precision", "tf32x3"}}));
  EXPECT_NE(sugs[2].reason.find("K (524288) is long and the output has 4 tile(s) of the default's 128 x 128: "
                                "SPLIT_K=64 gives 256 programs"),
            std::string::npos)
      << sugs[2].reason;
  // Under strict the first valid suggestion, the search's second trial, is the split 3xTF32 tile.
  const KnobSpace& space = p->family().knob_space();
  std::vector<Config> valid;
  for (const auto& c : space.enumerate())
    if (p->valid(c, &*h200, Precision::strict)) valid.push_back(c);
  const auto configs = suggested_configs(*p, space, valid);
  ASSERT_GE(configs.size(), 2u);
  EXPECT_EQ(configs.front().first.at("SPLIT_K"), 64);
  EXPECT_EQ(configs.front().first.at("input_precision"), "tf32x3");
  EXPECT_EQ(configs.front().first.at("K_MAJOR"), 1);
  // A square product (K = M = N = 4096) has tiles enough: no split is suggested.
  const TraceResult square = TraceResult::from_json(test::read_json(dir / "1_Square_matrix_multiplication_.json"));
  for (const auto& s : test::recognised(test::family("matmul"), square)->suggestions())
    EXPECT_FALSE(s.knobs.contains("SPLIT_K"));
}

TEST(MatmulFamily, AnAlignedProductWithAnOperandNotKMajorSuggestsTheKMajorCopyOnTheTensorCores) {
  const auto h200 = find_gpu_spec("NVIDIA H200");
  const auto dir = test::data_dir() / "families" / "matmul" / "kernelbench";
  // KernelBench 1: A and B row-major, so B's K is not contiguous.
  const TraceResult square = TraceResult::from_json(test::read_json(dir / "1_Square_matrix_multiplication_.json"));
  auto p = test::recognised(test::family("matmul"), square);
  const auto sugs = p->suggestions();
  ASSERT_EQ(sugs.size(), 2u);
  EXPECT_EQ(sugs[0].knobs, (Config{{"K_MAJOR", 1}, {"input_precision", "tf32"}}));
  EXPECT_EQ(sugs[1].knobs, (Config{{"K_MAJOR", 1}, {"input_precision", "tf32x3"}}));
  // Under strict the TF32 one is dropped; the 3xTF32 one is the default with only those two knobs changed.
  const KnobSpace& space = p->family().knob_space();
  std::vector<Config> valid;
  for (const auto& c : space.enumerate())
    if (p->valid(c, &*h200, Precision::strict)) valid.push_back(c);
  const auto configs = suggested_configs(*p, space, valid);
  ASSERT_EQ(configs.size(), 1u);
  EXPECT_EQ(configs.front().first.at("input_precision"), "tf32x3");
  EXPECT_EQ(differing_knobs(space.default_config(), configs.front().first),
            (std::vector<std::string>{"K_MAJOR", "input_precision"}));
  // KernelBench 17 multiplies by B transposed: both operands are K-major already, nothing to suggest.
  const TraceResult bt = TraceResult::from_json(test::read_json(dir / "17_Matmul_with_transposed_B.json"));
  EXPECT_TRUE(test::recognised(test::family("matmul"), bt)->suggestions().empty());
}

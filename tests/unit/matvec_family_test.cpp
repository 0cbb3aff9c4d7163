// The matvec family's own rules against the recorded matrix-vector traces (tests/data/families/matmul/
// traces/4*): which products it takes and how it prunes. Its golden kernels are the conformance test's.

#include "family_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "kernelagent/core/template.hpp"
#include "kernelagent/gpu/gpu_spec.hpp"
#include "test_data.hpp"

using namespace kernelagent;
namespace fs = std::filesystem;

namespace {

test::FamilyCalls family() { return {test::family("matvec")}; }

TraceResult trace(const std::string& name) { return test::family_trace("matmul", name); }

Config cfg(int bm, int bk, int split, int warps) {
  return Config{{"BLOCK_M", bm}, {"BLOCK_K", bk}, {"SPLIT_K", split}, {"num_warps", warps}};
}

}  // namespace

TEST(MatvecFamily, TakesOnlyProductsWithOneOutputColumn) {
  auto f = family();
  EXPECT_FALSE(f.why_not(trace("4_Matrix_vector_multiplication_")).has_value());
  EXPECT_FALSE(f.why_not(trace("4b_Matrix_vector_1d")).has_value());
  auto square = f.why_not(trace("1_Square_matrix_multiplication_"));
  ASSERT_TRUE(square.has_value());
  EXPECT_NE(square->find("output columns, not one"), std::string::npos) << *square;
  EXPECT_TRUE(f.why_not(trace("12_Matmul_with_diagonal_matrices_")).has_value());
}

TEST(MatvecFamily, PrunesTilesByRegistersSizeAndSplitsByParallelism) {
  auto f = family();
  const GpuSpec h200 = *find_gpu_spec("NVIDIA H200");
  // The recorded trace is A [64, 200] @ x [200, 1]; KernelBench's is A [2048, 1048576].
  auto small = trace("4_Matrix_vector_multiplication_");
  EXPECT_TRUE(f.valid(cfg(4, 512, 1, 4), small, &h200, Precision::strict));
  EXPECT_FALSE(f.valid(cfg(4, 1024, 1, 4), small, &h200, Precision::strict));  // 1024 > 200 rounded up (or 512)
  EXPECT_FALSE(f.valid(cfg(1, 512, 1, 8), small, &h200, Precision::strict));   // 2 elements per thread
  auto big = small;
  for (auto& in : big.graph.inputs)
    if (in.meta.shape == std::vector<std::int64_t>{64, 200}) in.meta.shape = {2048, 1048576}, in.meta.stride = {1048576, 1};
    else in.meta.shape = {1048576, 1}, in.meta.stride = {1, 1};
  for (auto& n : big.graph.nodes) n.meta.shape = {2048, 1}, n.meta.stride = {1, 1};
  ASSERT_FALSE(f.why_not(big).has_value()) << *f.why_not(big);
  EXPECT_TRUE(f.valid(cfg(4, 1024, 1, 4), big, &h200, Precision::strict));
  EXPECT_FALSE(f.valid(cfg(4, 1024, 4, 4), big, &h200, Precision::strict));  // 512 programs already fill it
  EXPECT_TRUE(f.valid(cfg(16, 1024, 4, 8), big, &h200, Precision::strict));  // 128 programs: split
  EXPECT_FALSE(f.valid(cfg(16, 2048, 1, 4), big, &h200, Precision::strict)); // 32768 elements in registers
  const std::string src = f.emit(big, cfg(16, 1024, 4, 8), {"x"});
  EXPECT_NE(src.find("WIDE=True"), std::string::npos);  // A has 2^31 elements
  EXPECT_NE(src.find("split_k = 4"), std::string::npos);
}


TEST(MatvecFamily, ReadsAMatrixContiguousAlongTheOutputsByColumns) {
  auto f = family();
  const GpuSpec h100 = *find_gpu_spec("NVIDIA H100 80GB HBM3");
  // x [300] @ B [300, 200]: one output row; B is contiguous along the outputs, so the columns kernel reads it
  // in blocks of consecutive outputs and short steps of K, and the rows kernel's tiles are not offered.
  const TraceResult vecmat = test::family_trace("matvec", "vecmat_1d");
  ASSERT_FALSE(f.why_not(vecmat).has_value()) << *f.why_not(vecmat);
  EXPECT_TRUE(f.valid(cfg(128, 32, 1, 4), vecmat, &h100, Precision::strict));
  EXPECT_FALSE(f.valid(cfg(4, 512, 1, 4), vecmat, &h100, Precision::strict));    // a rows tile
  EXPECT_FALSE(f.valid(cfg(512, 32, 1, 4), vecmat, &h100, Precision::strict));   // 512 > 200 rounded up
  EXPECT_NE(f.emit(vecmat, cfg(128, 32, 1, 4), {"vecmat"}).find("ka_vecmat_kernel[grid]"), std::string::npos);
  // x [1, 600] @ W.T with W [48, 600]: the matrix is contiguous along K: the rows kernel, as for A @ x.
  const TraceResult linear = test::family_trace("matvec", "row_times_weight_transposed");
  EXPECT_TRUE(f.valid(cfg(4, 1024, 1, 4), linear, &h100, Precision::strict));
  EXPECT_FALSE(f.valid(cfg(128, 32, 1, 4), linear, &h100, Precision::strict));
  EXPECT_NE(f.emit(linear, cfg(4, 1024, 1, 4), {"linear"}).find("ka_matvec_kernel[grid]"), std::string::npos);
  // The rows kernel's problems get no suggestion; a columns problem of few output blocks is told to split K.
  EXPECT_TRUE(test::recognised(test::family("matvec"), linear)->suggestions().empty());
  auto big = vecmat;
  for (auto& in : big.graph.inputs)
    if (in.meta.shape == std::vector<std::int64_t>{300}) in.meta.shape = {16384}, in.meta.stride = {1};
    else in.meta.shape = {16384, 12288}, in.meta.stride = {12288, 1};
  for (auto& n : big.graph.nodes) n.meta.shape = {12288}, n.meta.stride = {1};
  ASSERT_FALSE(f.why_not(big).has_value()) << *f.why_not(big);
  const auto sug = test::recognised(test::family("matvec"), big)->suggestions();
  ASSERT_EQ(sug.size(), 1u);
  EXPECT_EQ(sug[0].knobs.at("SPLIT_K"), 4);  // 96 blocks of 128 outputs, 384 programs split four ways
  EXPECT_TRUE(f.valid(cfg(128, 32, 4, 4), big, &h100, Precision::strict));
}

// The matvec family's recogniser and validity rule: a matrix-vector product (the matmul family's problems
// with one output column) as a stream over A with fp32 multiply-adds on the CUDA cores. A tl.dot kernel
// pads the single column to a 16-wide tile and spends its time on tensor-core shapes the problem does not
// have; reading A once at the DRAM rate is the floor. Example: A [2048, 1048576] @ x [1048576, 1]
// (KernelBench 4): 8.6 GB of A, 1.8 ms at 4.8 TB/s; 512 programs of 4 rows each, every program walking K
// in steps of 1024.

#include <fmt/format.h>

#include <variant>

#include "kernelagent/families/family.hpp"
#include "kernelagent/families/matmul/matmul_emit.hpp"
#include "kernelagent/families/registry.hpp"

namespace kernelagent {

using namespace matmul_emit;

namespace {

// The problem when it is a plain matrix-vector product, or why not.
std::variant<MatmulProblem, std::string> recognise_matvec(const TraceResult& trace) {
  auto r = recognise_matmul(trace);
  if (std::holds_alternative<std::string>(r)) return r;
  const MatmulProblem& p = std::get<MatmulProblem>(r);
  if (p.kind != MatmulProblem::Kind::product) return std::string("a diagonal scaling is not a matrix-vector product");
  if (p.n != 1) return fmt::format("the product has {} output columns, not one", p.n);
  if (p.mask != TriangleMask::none) return std::string("tril/triu of a matrix-vector product is not supported");
  if (!p.epilogue.empty()) return std::string("the matvec family computes a bare product, without an epilogue");
  return r;
}

class MatvecProblem final : public FamilyProblem {
 public:
  MatvecProblem(const Family& f, const TraceResult& t, MatmulProblem p) : FamilyProblem(f, t), p_(std::move(p)) {}

 protected:
  bool valid_config(const Config& c, const GpuSpec* gpu, Precision) const override {
    const MatmulProblem& p = p_;
    const auto bm = c.at("BLOCK_M").get<std::int64_t>(), bk = c.at("BLOCK_K").get<std::int64_t>();
    const auto split = c.at("SPLIT_K").get<std::int64_t>(), warps = c.at("num_warps").get<std::int64_t>();
    const std::int64_t tile = bm * bk, per_thread = tile / (warps * 32);
    if (tile > 16384 || per_thread < 4 || per_thread > 64) return false;
    if (bm > pow2_at_least(p.m) || bk > std::max<std::int64_t>(pow2_at_least(p.k), 512)) return false;
    if (split > 1) {
      // Example: M = 2048 in blocks of 16 is 128 programs on 132 SMs; 4 splits of K make 512.
      const std::int64_t sms = gpu && gpu->sm_count > 0 ? gpu->sm_count : 132;
      if (p.batch * cdiv(p.m, bm) >= 2 * sms) return false;
      if (cdiv(p.k, bk) < 2 * split) return false;
    }
    return true;
  }

  Emission emission(const Config& c) const override {
    const MatmulProblem& p = p_;
    const auto split = c.at("SPLIT_K").get<std::int64_t>();
    return {"kernel",
            {
                {"A", p.a.expr},
                {"B", p.b.expr},
                {"BATCH", std::to_string(p.batch)},
                {"M", std::to_string(p.m)},
                {"K", std::to_string(p.k)},
                {"A_STRIDES", fmt::format("{}, {}, {}", p.a.stride_batch, p.a.stride_row, p.a.stride_col)},
                // x is B's only column: its batch and row (K) strides.
                {"X_STRIDES", fmt::format("{}, {}", p.b.stride_batch, p.b.stride_row)},
                {"DTYPE", p.dtype},
                {"SPLIT_K", std::to_string(split)},
                {"BLOCK_M", c.at("BLOCK_M").dump()},
                {"BLOCK_K", c.at("BLOCK_K").dump()},
                {"WIDE", needs_wide_offsets(p, split) ? "True" : "False"},
                {"NUM_WARPS", c.at("num_warps").dump()},
                {"RETURN", return_expr(p, {p.batch, p.m, 1})},
            }};
  }

 private:
  MatmulProblem p_;
};

Recognition recognise(const Family& family, const TraceResult& trace) {
  auto r = recognise_matvec(trace);
  if (auto* why = std::get_if<std::string>(&r)) return {nullptr, *why};
  return {std::make_shared<MatvecProblem>(family, trace, std::get<MatmulProblem>(std::move(r))), ""};
}

}  // namespace

KA_REGISTER_FAMILY(matvec, recognise);

}  // namespace kernelagent

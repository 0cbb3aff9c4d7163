// The matvec family's recogniser and validity rule: a matrix-vector product (the matmul family's problems
// with one output column), and pointwise ops after it, as a stream over A with fp32 multiply-adds on the CUDA
// cores. A tl.dot kernel
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

// The problem when it is a plain matrix-vector product (one output column, A @ x) or vector-matrix product
// (one output row, x @ B), or why not.
std::variant<MatmulProblem, std::string> recognise_matvec(const TraceResult& trace) {
  auto r = recognise_matmul(trace);
  if (std::holds_alternative<std::string>(r)) return r;
  const MatmulProblem& p = std::get<MatmulProblem>(r);
  if (p.kind != MatmulProblem::Kind::product) return std::string("a diagonal scaling is not a matrix-vector product");
  if (p.n != 1 && p.m != 1)
    return fmt::format("the product has {} output columns, not one, and {} output rows, not one", p.n, p.m);
  if (p.mask != TriangleMask::none) return std::string("tril/triu of a matrix-vector product is not supported");
  if (p.a.batch_inner != 0 || p.b.batch_inner != 0)
    return std::string("operands whose batch dims broadcast against each other are the matmul family's");
  return r;
}

// The product as the kernels see it: y[b, r] = sum_k T[b, r, k] * x[b, k], T the matrix (A, or B seen
// transposed when the one output row makes x @ B), r the output index. Which kernel reads T depends on which
// of its strides is 1: along k (rows kernel: a program reduces BLOCK_M rows, each a contiguous run) or along
// r (columns kernel: a program reduces BLOCK_M consecutive outputs over steps of BLOCK_K rows of T^T, each
// step one coalesced run per k).
struct MatvecView {
  bool one_row = false;            // x @ B: the output is [batch, 1, N]
  std::string matrix, vector;      // ModelNew's expressions
  std::int64_t rows = 0;           // outputs per batch
  std::int64_t s_batch = 0, s_r = 0, s_k = 0;
  std::int64_t x_batch = 0, x_k = 0;
  bool columns() const { return s_r == 1 && s_k != 1; }
};

MatvecView view_of(const MatmulProblem& p) {
  MatvecView v;
  if (p.n == 1) {
    v = {false, p.a.expr, p.b.expr, p.m, p.a.stride_batch, p.a.stride_row, p.a.stride_col, p.b.stride_batch,
         p.b.stride_row};
  } else {
    v = {true, p.b.expr, p.a.expr, p.n, p.b.stride_batch, p.b.stride_col, p.b.stride_row, p.a.stride_batch,
         p.a.stride_col};
  }
  return v;
}

class MatvecProblem final : public FamilyProblem {
 public:
  MatvecProblem(const Family& f, const TraceResult& t, MatmulProblem p)
      : FamilyProblem(f, t), p_(std::move(p)), v_(view_of(p_)) {}

  // The columns kernel makes one program per BLOCK_M outputs: few for a short output, so K is split until the
  // programs fill the GPU twice. Example: x [16384] @ B [16384, 12288] in blocks of 128 columns is 96
  // programs; 4 splits make 384.
  std::vector<KnobSuggestion> suggestions() const override {
    if (!v_.columns()) return {};
    const std::int64_t programs = p_.batch * cdiv(v_.rows, 128);
    std::int64_t split = 1;
    for (std::int64_t s : {4, 16})
      if (programs * split < 2 * 132 && cdiv(p_.k, 32) >= 2 * s) split = s;
    return {{{{"BLOCK_M", 128}, {"BLOCK_K", 32}, {"SPLIT_K", split}, {"num_warps", 4}},
             fmt::format("the matrix is contiguous along the {} outputs: blocks of 128 consecutive outputs read "
                         "512-byte runs of it a row",
                         v_.rows)}};
  }

 protected:
  bool valid_config(const Config& c, const GpuSpec* gpu, Precision) const override {
    const auto bm = c.at("BLOCK_M").get<std::int64_t>(), bk = c.at("BLOCK_K").get<std::int64_t>();
    const auto split = c.at("SPLIT_K").get<std::int64_t>(), warps = c.at("num_warps").get<std::int64_t>();
    const std::int64_t tile = bm * bk, per_thread = tile / (warps * 32);
    if (tile > 16384 || per_thread < 4 || per_thread > 64) return false;
    // Rows kernel: few rows, long steps of K (each row one run); columns kernel: many outputs, short steps.
    if (v_.columns() ? (bm < 32 || bk > 256) : (bm > 16 || bk < 512)) return false;
    if (bm > std::max<std::int64_t>(pow2_at_least(v_.rows), v_.columns() ? 32 : 1) ||
        bk > std::max<std::int64_t>(pow2_at_least(p_.k), v_.columns() ? 16 : 512))
      return false;
    if (split > 1) {
      // Example: M = 2048 in blocks of 16 is 128 programs on 132 SMs; 4 splits of K make 512.
      const std::int64_t sms = gpu && gpu->sm_count > 0 ? gpu->sm_count : 132;
      if (p_.batch * cdiv(v_.rows, bm) >= 2 * sms) return false;
      if (cdiv(p_.k, bk) < 2 * split) return false;
    }
    return true;
  }

  Emission emission(const Config& c) const override {
    const MatmulProblem& p = p_;
    const auto split = c.at("SPLIT_K").get<std::int64_t>();
    const bool columns = v_.columns();
    const std::string product = v_.one_row ? "y[b] = x[b] @ B[b]" : "y[b] = A[b] @ x[b]";
    const std::string matrix = v_.one_row ? "B" : "A";
    const std::string programs =
        columns ? fmt::format("Program\n# (n, s, b) reduces outputs [n * BLOCK_N, (n + 1) * BLOCK_N), consecutive in {}, "
                              "over the s-th of\n# SPLIT_K ranges of K.",
                              matrix)
                : "Program\n# (m, s, b) reduces rows [m * BLOCK_M, (m + 1) * BLOCK_M) over the s-th of SPLIT_K ranges of K.";
    const std::string about = fmt::format(
        "The product {} reads {} once: it is a stream\n# over memory, not a tensor-core problem, so it runs as fp32 "
        "multiply-adds on the CUDA cores. {}",
        product, matrix, programs);
    // The epilogue (a bias, an activation, a scale after the product) runs in the pass that writes the
    // output: the product's partial sums go to an fp32 workspace (one slice without a split), and the pass
    // adds them up, computes the epilogue on them and stores; the output is a vector, tiny beside the matrix.
    // Without a split the product kernel computes it on its outputs before it stores them (EPILOGUE); with
    // one, the pass that adds the splits does.
    std::string epi_params, epi_args, epilogue, in_product;
    const std::string index = columns ? "cols" : "out", index_ok = columns ? "col_ok" : "rows < M";
    for (const auto& o : p.epilogue_operands) {
      epi_params += o.var + "_ptr, ";
      epi_args += o.expr + ", ";
      const std::int64_t along = v_.one_row ? o.stride_col : o.stride_row;
      if (o.stride_batch == 0 && along == 0) {
        epilogue += fmt::format("    {0} = tl.load({0}_ptr).to(tl.float32)\n", o.var);
        in_product += fmt::format("        {0} = tl.load({0}_ptr).to(tl.float32)\n", o.var);
      } else {
        epilogue += fmt::format("    {0} = tl.load({0}_ptr + (offs // {1}) * {2} + (offs % {1}) * {3}, mask=mask, other=0.0)"
                                ".to(tl.float32)\n",
                                o.var, v_.rows, o.stride_batch, along);
        in_product += fmt::format("        {0} = tl.load({0}_ptr + batch * {1} + {2} * {3}, mask={4}, other=0.0).to(tl.float32)\n",
                                  o.var, o.stride_batch, index, along, index_ok);
      }
    }
    for (const auto& line : p.epilogue) {
      epilogue += "    " + line + "\n";
      in_product += "        " + line + "\n";
    }
    if (!p.epilogue.empty()) {
      epilogue += "    acc = " + p.epilogue_result + "\n";
      in_product = "    if EPILOGUE:\n        acc = y\n" + in_product + "        y = " + p.epilogue_result + "\n";
    }
    return {"kernel",
            {
                {"ABOUT", about},
                {"EPI_PARAMS", epi_params},
                {"EPI_ARGS", epi_args},
                {"EPILOGUE", epilogue},

                {"PRODUCT_KERNEL", render_part(columns ? "columns" : "rows",
                                               {{"EPI_PARAMS", epi_params}, {"PRODUCT_EPILOGUE", in_product}})},
                {"KERNEL", columns ? "ka_vecmat_kernel" : "ka_matvec_kernel"},
                {"BLOCK_NAME", columns ? "BLOCK_N" : "BLOCK_M"},
                {"A_STRIDES", columns ? fmt::format("{}, {}", v_.s_batch, v_.s_k)
                                      : fmt::format("{}, {}, {}", v_.s_batch, v_.s_r, v_.s_k)},
                {"X_STRIDES", fmt::format("{}, {}", v_.x_batch, v_.x_k)},
                {"DEST_STRIDES", columns ? "dest.stride(0), dest.stride(1)"
                                         : "dest.stride(0), dest.stride(1), dest.stride(2)"},
                {"BLOCK_M", c.at("BLOCK_M").dump()},
                {"BLOCK_K", c.at("BLOCK_K").dump()},
                {"WIDE", needs_wide_offsets(p, split) ? "True" : "False"},
                {"NUM_WARPS", c.at("num_warps").dump()},
                {"A", v_.matrix},
                {"B", v_.vector},
                {"BATCH", std::to_string(p.batch)},
                {"M", std::to_string(v_.rows)},
                {"K", std::to_string(p.k)},
                {"C_SHAPE", v_.one_row ? "(batch, 1, M)" : "(batch, M, 1)"},
                {"DTYPE", p.dtype},
                {"SPLIT_K", std::to_string(split)},
                {"RETURN", return_expr(p, {p.batch, p.m, p.n})},
            }};
  }

 private:
  MatmulProblem p_;
  MatvecView v_;
};

Recognition recognise(const Family& family, const TraceResult& trace) {
  auto r = recognise_matvec(trace);
  if (auto* why = std::get_if<std::string>(&r)) return {nullptr, *why};
  return {std::make_shared<MatvecProblem>(family, trace, std::get<MatmulProblem>(std::move(r))), ""};
}

}  // namespace

KA_REGISTER_FAMILY(matvec, recognise);

}  // namespace kernelagent

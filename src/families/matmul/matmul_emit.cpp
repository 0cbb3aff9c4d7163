// Emission of the matmul family's kernel files: fills the product or diagonal template with the
// recognised problem's sizes and strides and one configuration's knobs.
#include <fmt/format.h>

#include "kernelagent/families/matmul/matmul_emit.hpp"
#include "kernelagent/families/matmul/matmul_family.hpp"

namespace kernelagent {

using namespace matmul_emit;

namespace {

Emission product(const MatmulProblem& p, const Config& config, const std::string& helpers) {
  const auto split = config.at("SPLIT_K").get<std::int64_t>();
  const char* mask = p.mask == TriangleMask::tril ? "1" : p.mask == TriangleMask::triu ? "2" : "0";
  // K_MAJOR: an operand read along a non-contiguous K is copied K-major first, and the kernel reads the
  // copy: (batch, rows, K) contiguous, or one shared matrix when the operand is broadcast over the batch.
  // ALIGN: an operand read with a stride that is not a multiple of 16 is copied K-major into rows of k_pad
  // (a multiple of 16) elements, zero past K. Where K itself is not a multiple of 16, both operands are
  // copied and the product runs over k_pad: a mask at K would split every vector of the K steps, and the
  // loads would stay scalar however aligned the rows (compiled for sm_90, 8205 x 2949 @ 2949 x 5921 copied
  // only the rows: 96 asynchronous copies of 4 bytes and none of 16).
  const bool k_major = config.value("K_MAJOR", 0) == 1;
  const bool align = config.value("ALIGN", 0) == 1;
  const bool align_k = align && p.k % 16 != 0;
  const std::int64_t k_pad = align ? (p.k + 15) / 16 * 16 : p.k;
  std::string stage;
  std::string a_strides = fmt::format("{}, {}, {}", p.a.stride_batch, p.a.stride_row, p.a.stride_col);
  std::string b_strides = fmt::format("{}, {}, {}", p.b.stride_batch, p.b.stride_row, p.b.stride_col);
  auto copy = [&](const char* var, const MatmulOperand& op, std::int64_t rows, std::int64_t s_rows, std::int64_t s_k) {
    const bool shared = op.stride_batch == 0;
    const std::int64_t batch = shared ? 1 : p.batch;
    stage += fmt::format("        {0} = ka_k_major({0}, {1}, {2}, {3}, ({4}, {5}, {6}), {7})\n", var, batch, rows, p.k,
                         op.stride_batch, s_rows, s_k, k_pad);
    return shared ? std::int64_t{0} : rows * k_pad;  // the copy's batch stride
  };
  const bool a_copied = (k_major && p.a.stride_col != 1) || (align && (misaligned(p.a) || align_k));
  const bool b_copied = (k_major && p.b.stride_row != 1) || (align && (misaligned(p.b) || align_k));
  if (a_copied)
    a_strides = fmt::format("{}, {}, 1", copy("a", p.a, p.m, p.a.stride_row, p.a.stride_col), k_pad);
  if (b_copied)
    b_strides = fmt::format("{}, 1, {}", copy("b", p.b, p.n, p.b.stride_col, p.b.stride_row), k_pad);
  // A copy reads the batch as one dim (valid_config keeps the copies off a batch of two levels).
  const std::string a_batch = a_copied ? "batch * stride_ab" : p.a.batch_offset("batch", "stride_ab");
  const std::string b_batch = b_copied ? "batch * stride_bb" : p.b.batch_offset("batch", "stride_bb");
  // The epilogue: its operands' pointers after c_ptr, their tiles loaded at the output's positions, its lines,
  // and the value stored in place of the product.
  std::string epi_params, epi_args, epilogue;
  for (const auto& o : p.epilogue_operands) {
    epi_params += o.var + "_ptr, ";
    epi_args += o.expr + ", ";
    if (o.stride_batch == 0 && o.stride_row == 0 && o.stride_col == 0) {
      // One value for the whole product (a 0-d parameter): one scalar load, not one of the same address an element.
      epilogue += fmt::format("    {0} = tl.load({0}_ptr).to(tl.float32)\n", o.var);
      continue;
    }
    epilogue += fmt::format(
        "    {0} = tl.load({0}_ptr + batch * {1} + out_m[:, None] * {2} + out_n[None, :] * {3}, mask=mask, other=0.0)"
        ".to(tl.float32)\n",
        o.var, o.stride_batch, o.stride_row, o.stride_col);
  }
  for (const auto& line : p.epilogue) epilogue += "    " + line + "\n";
  if (!p.epilogue.empty()) epilogue += "    acc = " + p.epilogue_result + "\n";
  return {"kernel",
          {
              {"A", p.a.expr},
              {"B", p.b.expr},
              {"EPI_PARAMS", epi_params},
              {"EPI_ARGS", epi_args},
              {"EPILOGUE", epilogue},
              // The helpers an epilogue's ops may call (_tanh, _log), only where there is one.
              {"POINTWISE_HELPERS", p.epilogue.empty() ? "" : helpers + "\n\n\n"},
              {"BATCH", std::to_string(p.batch)},
              {"M", std::to_string(p.m)},
              {"N", std::to_string(p.n)},
              {"K", std::to_string(align_k ? k_pad : p.k)},
              {"STAGE_K_MAJOR", stage},
              {"A_BATCH", a_batch},
              {"B_BATCH", b_batch},
              {"A_STRIDES", a_strides},
              {"B_STRIDES", b_strides},
              {"DTYPE", p.dtype},
              {"SPLIT_K", std::to_string(split)},
              {"DIAGONAL", std::to_string(p.diagonal)},
              {"MASK", mask},
              {"BLOCK_M", config.at("BLOCK_M").dump()},
              {"BLOCK_N", config.at("BLOCK_N").dump()},
              {"BLOCK_K", config.at("BLOCK_K").dump()},
              {"GROUP_M", config.at("GROUP_M").dump()},
              {"INPUT_PRECISION", config.at("input_precision").get<std::string>()},
              {"WIDE", needs_wide_offsets(p, split) ? "True" : "False"},
              {"NUM_WARPS", config.at("num_warps").dump()},
              {"NUM_STAGES", config.at("num_stages").dump()},
              {"RETURN", return_expr(p, {p.batch, p.m, p.n})},
          }};
}

Emission diag(const MatmulProblem& p, const Config& config) {
  return {"diag",
          {
              {"D", p.a.expr},
              {"X", p.b.expr},
              {"M", std::to_string(p.m)},
              {"N", std::to_string(p.n)},
              {"DTYPE", p.dtype},
              {"D_STRIDE", std::to_string(p.a.stride_row)},
              {"X_STRIDES", fmt::format("{}, {}", p.b.stride_row, p.b.stride_col)},
              {"SCALE_ROWS", p.kind == MatmulProblem::Kind::diag_rows ? "True" : "False"},
              {"BLOCK_M", config.at("BLOCK_M").dump()},
              {"BLOCK_N", config.at("BLOCK_N").dump()},
              {"WIDE", needs_wide_offsets(p, 1) ? "True" : "False"},
              {"NUM_WARPS", config.at("num_warps").dump()},
              {"RETURN", return_expr(p, {p.m, p.n})},
          }};
}

}  // namespace

Emission matmul_emission(const MatmulProblem& p, const Config& config, const std::string& helpers) {
  return p.kind == MatmulProblem::Kind::product ? product(p, config, helpers) : diag(p, config);
}

}  // namespace kernelagent

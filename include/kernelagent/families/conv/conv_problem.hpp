#pragma once
// A chain of forward convolutions as the conv family reads it: each one normalised to three spatial axes
// (a 1-D convolution is one of depth and height 1), reading the previous one's output or a graph input.
// Example: nn.Conv2d(64, 64, 3, groups=64) followed by nn.Conv2d(64, 128, 1) on x [16, 64, 512, 512] is two
// stages: a depthwise one (64 groups of one channel: direct) and a pointwise one (one group of 64
// channels, a 1 x 1 window: an implicit GEMM of 16 * 512 * 512 x 128 x 64).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <utility>
#include <vector>

#include "kernelagent/core/op_graph.hpp"

namespace kernelagent {

struct ConvStage {
  std::string input_expr;   // the Python expression of the tensor it reads ("in0", "t0")
  std::string weight_expr;  // self.get_parameter("conv.weight")
  std::string bias_expr;    // empty without a bias
  std::string out_name;     // the Python name of its output ("y0", ...)
  bool transposed = false;  // the weight is [cin, cout / groups, window]: input positions scatter into outputs
  std::int64_t batch = 1, cin = 1, cout = 1, groups = 1;
  std::array<std::int64_t, 3> in{1, 1, 1}, out{1, 1, 1}, kernel{1, 1, 1}, stride{1, 1, 1}, padding{0, 0, 0},
      dilation{1, 1, 1};
  std::int64_t xs_n = 0, xs_c = 0;
  std::array<std::int64_t, 3> xs{0, 0, 0};  // the input's element strides along D, H, W
  std::vector<std::int64_t> out_shape;      // as the reference returns it ([N, C, L] for 1-D)
  std::string dtype;

  std::int64_t cg() const { return cin / groups; }    // input channels a group reads
  std::int64_t cog() const { return cout / groups; }  // output channels a group writes
  std::int64_t window() const { return kernel[0] * kernel[1] * kernel[2]; }
  std::int64_t out_positions() const { return out[0] * out[1] * out[2]; }
  std::int64_t in_positions() const { return in[0] * in[1] * in[2]; }
  // A transposed convolution runs one implicit GEMM per stride phase, each over the outputs of its phase.
  std::int64_t phases() const { return transposed ? stride[0] * stride[1] * stride[2] : 1; }
  std::int64_t phase_positions() const {
    std::int64_t n = 1;
    for (int a = 0; a < 3; ++a) n *= transposed ? (out[a] + stride[a] - 1) / stride[a] : out[a];
    return n;
  }
  std::int64_t gemm_m() const { return batch * phase_positions(); }
  std::int64_t gemm_k() const { return cg() * window(); }
  // Each output channel reads one input channel: the direct kernel, not a product of depth one.
  bool direct() const { return !transposed && cg() == 1; }
  // The spatial axes can be read as one axis of stride xs[2] (what the channels-last copy needs).
  bool spatial_contiguous() const;
  // The window-rows order (K_ORDER 'rows'): a forward convolution of one group with too few channels for the
  // window order (2 to 7) and a window row of consecutive positions (no dilation along it) reads, for each
  // window row, one contiguous run of KW positions x rows_channels() channels from a channels-last copy whose
  // channels are padded with zeros to that power of two.
  bool rows_apply() const;
  // The outer-product direct kernel (knob DIRECT_CO): a forward convolution of one group with 2 to 8 input
  // channels and at most 512 of them times window positions, each of which one outer product of a block of
  // output channels' weights by a tile of inputs on the FP32 pipe, where the implicit GEMM's K would be short
  // and padded.
  bool outer_applies() const;
  std::int64_t rows_channels() const;
  // The largest element offset any of its kernels computes, for the choice of 64-bit offsets.
  std::int64_t max_offset() const;
  std::int64_t flops() const {
    return transposed ? 2 * batch * in_positions() * cin * cog() * window() : 2 * batch * out_positions() * cout * gemm_k();
  }
};

// A padding of the chain's input in front of its first convolution (nn.Conv2d's padding_mode 'reflect' or
// 'replicate', or F.pad): the input is first copied padded, and the convolution reads the copy.
struct InputPad {
  std::string mode;       // "reflect", "replicate" or "constant"
  double value = 0.0;     // the constant mode's fill
  std::string source;     // the Python expression of the graph input padded
  std::vector<std::int64_t> shape, strides;  // the input as read (its view), [N, C, spatial...]
  std::vector<std::int64_t> before, after;   // positions added before and after each spatial axis
  std::vector<std::int64_t> padded_shape() const;
};

struct ConvChain {
  std::vector<ConvStage> stages;
  std::optional<InputPad> pad;
  // Pointwise ops after the last convolution (an activation, a scale): Python lines over `acc`, the last
  // one's variable returned; empty without.
  std::vector<std::string> epilogue;
  std::string epilogue_result;
  // Tensors the epilogue reads, one value a channel (a [C, 1, 1] parameter): how ModelNew names each, and
  // its stride along the channels; the epilogue reads the i-th as `ch{i}`.
  std::vector<std::pair<std::string, std::int64_t>> epilogue_channels;
  // The output's shape where the problem re-shapes the last convolution's output (a squeeze of an unbatched
  // convolution's batch of one); empty without.
  std::vector<std::int64_t> output_shape;
};

// The chain of convolutions a trace computes, or why the conv family does not implement it.
std::variant<ConvChain, std::string> recognise_conv_chain(const TraceResult& trace);

}  // namespace kernelagent

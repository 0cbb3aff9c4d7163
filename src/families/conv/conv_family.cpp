// The conv family: validity of a configuration for a chain of convolutions, and its kernel file. Each
// stage runs direct (one input channel per output channel; or, with DIRECT_CO, a few input channels as outer
// products) or as an implicit GEMM; the knobs of the kind a problem does not run stay at their defaults so
// that the search does not repeat configurations.

#include <fmt/format.h>

#include <algorithm>

#include "kernelagent/families/common/pointwise_ops.hpp"
#include "kernelagent/families/conv/conv_problem.hpp"
#include "kernelagent/families/family.hpp"
#include "kernelagent/families/model_wrapper.hpp"
#include "kernelagent/families/registry.hpp"

namespace kernelagent {

namespace {

const char* kGemmKnobs[] = {"BLOCK_M", "BLOCK_N", "BLOCK_K", "K_ORDER", "CHANNELS_LAST", "num_stages", "input_precision"};
const char* kDirectKnobs[] = {"BLOCK_H", "BLOCK_W"};

// A configuration recorded before GATHER_ALONG existed gathered along the K step.
bool gather_by_position(const Config& c) { return c.value("GATHER_ALONG", std::string("depth")) == "positions"; }

// DIRECT_CO: output channels a program of the outer-product direct kernel; 0 runs those stages as implicit
// GEMMs (a configuration recorded before the knob existed did).
std::int64_t outer_channels(const Config& c) { return c.value("DIRECT_CO", std::int64_t{0}); }

// Whether a stage runs direct under this configuration: depthwise always, few input channels with DIRECT_CO.
bool runs_direct(const ConvStage& s, const Config& c) {
  return s.direct() || (outer_channels(c) > 0 && s.outer_applies());
}

std::int64_t element_bytes(const std::string& dtype) { return dtype == "float32" ? 4 : 2; }
std::string yes(bool b) { return b ? "True" : "False"; }

class ConvFamilyProblem final : public FamilyProblem {
 public:
  ConvFamilyProblem(const Family& f, const TraceResult& t, ConvChain chain)
      : FamilyProblem(f, t), c_(std::move(chain)), default_(f.knob_space().default_config()) {
    for (const auto& s : c_.stages) outer_ = outer_ || s.outer_applies();
  }

  // Under --precision strict an fp32 convolution's baseline is cuDNN on the FP32 pipe; 3xTF32 on the tensor
  // cores keeps fp32 accuracy at several times that rate, and only reads whole vectors from a channels-last
  // copy in the window order. On the H200 the IEEE dot tied with 3xTF32 in the weight's K order (50: 4.54 vs
  // 4.63 ms; 63: 42.1 vs 44.0 ms, loads bound), while the copy in the window order took 63 to 30.5 ms on the
  // IEEE dot: the two together were never measured in 4 trials. Under --precision tf32 the same with TF32.
  //
  // Where every product's window is one position (a pointwise convolution), the channels-first input already
  // is the product's [channels, positions] operand: a copy would add a pass over it to a kernel bound by its
  // bytes. On the H100 (KernelBench 87, 64 -> 128 channels, 16 x 1024 x 1024) the channels-first kernel
  // gathered along depth at 4 warps ran 5.89 ms with 3xTF32 (the copy 10.29 ms, IEEE cuDNN 9.52 ms); with
  // plain TF32 the same kernel ran 12.0 ms and the copy 7.6 ms, so it is suggested for 3xTF32 only. Where
  // every group writes 128 or more channels, a 128-channel tile reads each gathered input tile once instead
  // of twice: with 3xTF32 on the copy, 128 x 128 against 128 x 64 ran 55 in 9.68 / 12.58 ms, 56 in 8.18 /
  // 10.60, 67 in 4.45 / 5.23, 76 in 16.2 / 19.4, 69 (transposed) in 8.15 / 10.31; with TF32 55, 56 and 69
  // gained as much and 67 and 76 lost 8 % and 5 %. Read channels-first (no copy) in 128-channel tiles, 76
  // (a 1-D convolution of stride 3, whose copy of the whole input its outputs do not repay) ran 10.85 ms with
  // 3xTF32 and 7.38 ms with TF32 (IEEE / TF32 cuDNN 14.55 / 12.33 ms), 1.35x to 1.7x faster than at 64
  // channels in all four of 55, 56, 67 and 76, and behind the copy in 55 and 56: it comes third. A group of
  // 65 to 127 channels takes one 128-channel tile too, its padding cheaper than a second read: 50 (3 -> 96
  // channels, the window rows over a copy padded to 4 channels) ran 2.75 ms at 128 x 128 in steps of 16
  // against 3.54 ms at 128 x 64 (3.86 in steps of 32, which the rows of 3 channels fill less; IEEE cuDNN
  // 2.82 ms), so the window rows take steps of 16 there.
  //
  // Where every such product reads 2 to 8 input channels (a stem over RGB), its K is a few dozen to a few
  // hundred and the GEMM pads it. The outer-product direct kernel does exactly the fp32 multiply-adds instead;
  // on the H100 it pays where K is short: KernelBench 54 (3 -> 64 channels, 3x3x3, K 81) ran 2.04 ms in blocks
  // of 64 channels at 8 warps and 1.56 ms (1.18x IEEE cuDNN's 1.84 ms) in blocks of 32 at 4 warps, both tiles
  // 8 x 64 and 128 outputs a thread (64 channels x 4 x 64 at 8 warps, 98 registers against 166, ran 3.25 ms),
  // against 2.55 ms for the window rows with 3xTF32. Where K is longer the rows win: 60 and 66 (K 315) ran 8.76
  // and 4.63 ms by outer products against 5.53 and 2.72 ms, 50 (K 363, stride 4) 5.41 against 2.55 ms. So the
  // outer products come first for a K of at most 128 and last otherwise.
  std::vector<KnobSuggestion> suggestions() const override {
    bool fp32_gemm = false, one_position = true, wide_groups = true, rows = true, outer = true;
    std::int64_t cout = 0, oh = 1, ow = 1, k = 0;
    for (const auto& s : c_.stages) {
      if (s.direct()) continue;
      fp32_gemm = fp32_gemm || s.dtype == "float32";
      one_position = one_position && !s.transposed && s.window() == 1;
      wide_groups = wide_groups && s.cog() > 64;
      rows = rows && s.rows_apply();
      outer = outer && s.outer_applies();
      cout = std::max(cout, s.cout);
      k = std::max(k, s.gemm_k());
      oh = std::max(oh, s.out[1]), ow = std::max(ow, s.out[2]);
    }
    // Rows of fewer than 24 outputs would leave most of a 32-wide tile idle (BLOCK_W takes no less).
    outer = outer && ow >= 24;
    if (!fp32_gemm) return {};
    std::vector<KnobSuggestion> out;
    std::optional<KnobSuggestion> by_outer;
    if (outer) {
      const std::int64_t co = cout > 16 ? 32 : 16;
      const std::int64_t bw = ow >= 48 ? 64 : 32, bh = std::min({std::int64_t{32}, 128 * 128 / (co * bw), pow2_at_least(oh)});
      by_outer = KnobSuggestion{{{"DIRECT_CO", co}, {"BLOCK_H", bh}, {"BLOCK_W", bw}, {"num_warps", 4}},
                                "few input channels: a direct kernel of exact fp32 outer products, each input loaded "
                                "once a window position for a block of output channels, where the implicit GEMM "
                                "pads a short K"};
      if (k <= 128) out.push_back(*by_outer);
    }
    const std::string why =
        "an fp32 implicit GEMM: the tensor cores (3xTF32 keeps fp32 accuracy) fed contiguous channels from a "
        "channels-last copy";
    const std::string why_pointwise =
        "a pointwise convolution: its channels-first input is already the product's operand, read once without a "
        "copy, on the tensor cores (3xTF32 keeps fp32 accuracy)";
    const std::string why_wide =
        "an fp32 implicit GEMM of more than 64 output channels a group: a 128-channel tile reads each gathered "
        "input tile once, on the tensor cores fed from a channels-last copy";
    const std::string why_wide_first =
        "an fp32 implicit GEMM of more than 64 output channels a group, read channels-first in 128-channel tiles: "
        "no copy, which a strided convolution does not repay";
    for (const char* prec : {"tf32", "tf32x3"}) {
      if (one_position && std::string_view(prec) == "tf32x3")
        out.push_back({{{"GATHER_ALONG", "depth"}, {"num_warps", 4}, {"input_precision", prec}}, why_pointwise});
      if (wide_groups) {
        out.push_back({{{"CHANNELS_LAST", 1}, {"K_ORDER", "window"}, {"BLOCK_N", 128}, {"input_precision", prec}},
                       why_wide});
        KnobSuggestion copy{{{"CHANNELS_LAST", 1}, {"BLOCK_N", 128}, {"input_precision", prec}}, why_wide};
        if (rows) copy.knobs["BLOCK_K"] = 16;
        out.push_back(copy);
        out.push_back({{{"BLOCK_N", 128}, {"input_precision", prec}}, why_wide_first});
      }
      out.push_back({{{"CHANNELS_LAST", 1}, {"K_ORDER", "window"}, {"input_precision", prec}}, why});
      out.push_back({{{"CHANNELS_LAST", 1}, {"input_precision", prec}}, why});
      out.push_back({{{"input_precision", prec}}, why});
    }
    if (by_outer && k > 128) out.push_back(*by_outer);
    return out;
  }

 protected:
  bool valid_config(const Config& c, const GpuSpec* gpu, Precision precision) const override {
    const std::int64_t co = outer_channels(c);
    if (co > 0 && !outer_) return false;
    bool gemm = false, direct = false;
    for (const auto& s : c_.stages) (runs_direct(s, c) ? direct : gemm) = true;
    if (!gemm)
      for (const auto* k : kGemmKnobs)
        if (c.at(k) != default_.at(k)) return false;
    if (!direct)
      for (const auto* k : kDirectKnobs)
        if (c.at(k) != default_.at(k)) return false;
    if (!gemm && !gather_at_default(c)) return false;
    const auto warps = c.at("num_warps").get<std::int64_t>();
    if (gemm && !valid_gemm(c, gpu, precision)) return false;
    if (direct) {
      const auto bh = c.at("BLOCK_H").get<std::int64_t>(), bw = c.at("BLOCK_W").get<std::int64_t>();
      std::int64_t oh = 1, ow = 1, cout = 1;
      bool depthwise = false;
      for (const auto& s : c_.stages) {
        if (!runs_direct(s, c)) continue;
        oh = std::max(oh, s.out[1]), ow = std::max(ow, s.out[2]);
        if (s.direct()) depthwise = true; else cout = std::max(cout, s.cout);
      }
      if (bh > pow2_at_least(oh) || bw > std::max<std::int64_t>(32, pow2_at_least(ow))) return false;
      // Outputs a thread accumulates: 1 to 64 of a depthwise tile, 1 to 128 of a block of channels times a tile.
      const std::int64_t threads = 32 * warps;
      if (depthwise && (bh * bw < threads || bh * bw > 64 * threads)) return false;
      if (co > 0 && (co > std::max<std::int64_t>(16, pow2_at_least(cout)) || co * bh * bw < threads ||
                     co * bh * bw > 128 * threads))
        return false;
    }
    return true;
  }

  Emission emission(const Config& c) const override {
    bool gemm = false, direct = false, outer = false, tconv = false, relayout = false;
    std::string stages, what;
    if (c_.pad) stages += pad_launch(*c_.pad);
    for (std::size_t i = 0; i < c_.stages.size(); ++i) {
      const ConvStage& s = c_.stages[i];
      const bool by_outer = runs_direct(s, c) && !s.direct();
      const bool cl = channels_last(s, c);
      relayout = relayout || cl || by_outer;  // the outer-product kernel reads a tap-major copy of the weight
      (s.direct() ? direct : by_outer ? outer : s.transposed ? tconv : gemm) = true;
      stages += s.direct() ? direct_launch(s, c) : by_outer ? outer_launch(s, c) : gemm_launch(s, c, cl);
      what += fmt::format("{}{}", what.empty() ? "" : " ", describe(s, i));
    }
    std::vector<std::string> kernels;
    // The epilogue: a flag the last stage's launch sets, and the function it calls on the tile.
    // The epilogue: a flag the last stage's launch sets (with the per-channel tensors it reads, which the other
    // stages leave None), and the function it calls on the tile with the tile's output channels.
    const bool epi = !c_.epilogue.empty();
    std::string ch_params, ch_args, ch_loads;
    for (std::size_t i = 0; i < c_.epilogue_channels.size(); ++i) {
      ch_params += fmt::format(", ch{}_ptr=None", i);
      ch_args += fmt::format(", ch{}_ptr", i);
      ch_loads += fmt::format("    ch{0} = tl.load(ch{0}_ptr + o * {1}).to(tl.float32)\n", i, c_.epilogue_channels[i].second);
    }
    auto epi_values = [&](const char* channels) {
      return std::map<std::string, std::string>{
          {"EPILOGUE_PARAM", epi ? ch_params + ", EPILOGUE: tl.constexpr = False" : ""},
          {"EPILOGUE_CALL", epi ? fmt::format("    if EPILOGUE:\n        acc = ka_epilogue(acc, {}{})\n", channels, ch_args)
                                : ""}};
    };
    if (gemm) kernels.push_back(render("gemm", epi_values("o[None, :]")));
    if (tconv) kernels.push_back(render("tconv", epi_values("o[None, :]")));
    if (direct) kernels.push_back(render("direct", epi_values("o")));
    if (outer) kernels.push_back(render("outer", epi_values("o[:, None]")));
    if (epi) {
      std::string lines = ch_loads;
      for (const auto& l : c_.epilogue) lines += "    " + l + "\n";
      kernels.push_back(shared_helper("pointwise_helpers"));
      kernels.push_back(render("epilogue", {{"PARAMS", ch_args}, {"LINES", lines + "    return " + c_.epilogue_result}}));
    }
    if (relayout) kernels.push_back(render("relayout", {}));
    if (c_.pad) kernels.push_back(render("pad", {}));
    return {"kernel",
            {{"WHAT", what},
             {"KERNELS", fmt::format("{}", fmt::join(kernels, "\n\n\n"))},
             {"STAGES", stages.substr(0, stages.size() - 1)},
             {"RETURN", c_.output_shape.empty() ? c_.stages.back().out_name
                                                 : fmt::format("{}.view({})", c_.stages.back().out_name,
                                                               py_tuple(c_.output_shape))}}};
  }

 private:
  ConvChain c_;
  Config default_;
  bool outer_ = false;  // whether some stage can run as the outer-product direct kernel

  // Whether GATHER_ALONG is at its default, where it must stay when no stage gathers a channels-first input
  // (a configuration recorded before the knob existed lacks it and passes).
  bool gather_at_default(const Config& c) const {
    return c.value("GATHER_ALONG", default_.at("GATHER_ALONG")) == default_.at("GATHER_ALONG");
  }

  // The implicit GEMM's knobs against every stage that runs as one.
  bool valid_gemm(const Config& c, const GpuSpec* gpu, Precision precision) const {
    const auto bm = c.at("BLOCK_M").get<std::int64_t>(), bn = c.at("BLOCK_N").get<std::int64_t>();
    const auto bk = c.at("BLOCK_K").get<std::int64_t>();
    const std::string order = c.at("K_ORDER").get<std::string>();
    const bool window_outer = order == "window", rows = order == "rows";
    const bool cl = c.at("CHANNELS_LAST").get<int>() == 1;
    const auto prec = c.at("input_precision").get<std::string>();
    std::int64_t m = 1, n = 1, k = 1;
    bool window_pays = false, rows_pay = false, cl_applies = false, channels_first = false;
    for (const auto& s : c_.stages) {
      if (runs_direct(s, c)) continue;
      m = std::max(m, s.gemm_m());
      n = std::max(n, s.cog());
      // A transposed stage always walks the window outer (its phases pick window positions).
      const bool by_rows = rows && s.rows_apply();
      k = std::max(k, by_rows ? s.kernel[2] * s.rows_channels() : window_outer || s.transposed ? s.cg() : s.gemm_k());
      window_pays = window_pays || (!s.transposed && s.window() > 1 && s.cg() >= 8);
      rows_pay = rows_pay || s.rows_apply();
      cl_applies = cl_applies || channels_last(s, c);
      channels_first = channels_first || !channels_last(s, c);
      if (prec != "ieee" && s.dtype != "float32") return false;  // TF32 modes exist only for fp32 inputs
      if (gpu && gpu->smem_per_block_optin > 0 &&
          (bm * bk + bk * bn) * element_bytes(s.dtype) * c.at("num_stages").get<std::int64_t>() > gpu->smem_per_block_optin)
        return false;
    }
    if (bm > std::max<std::int64_t>(32, pow2_at_least(m)) || bn > std::max<std::int64_t>(16, pow2_at_least(n)) ||
        bk > std::max<std::int64_t>(16, pow2_at_least(k)))
      return false;
    if (window_outer && !window_pays) return false;
    if (rows && (!rows_pay || !cl)) return false;
    if (cl && !cl_applies) return false;
    // The gather's axis matters only where a stage reads its input channels-first.
    if (!channels_first && !gather_at_default(c)) return false;
    if (prec == "tf32" && precision != Precision::tf32) return false;
    return true;
  }

  // Whether this stage reads a channels-last copy of its input under this configuration: the window
  // order (or a 1 x 1 window, where both orders are one) over spatial axes that flatten into one.
  static bool channels_last(const ConvStage& s, const Config& c) {
    if (c.at("CHANNELS_LAST").get<int>() != 1 || runs_direct(s, c) || !s.spatial_contiguous()) return false;
    return s.transposed || s.window() == 1 || c.at("K_ORDER").get<std::string>() == "window" || by_rows(s, c);
  }

  // Whether this stage walks K by window rows over the padded channels-last copy.
  static bool by_rows(const ConvStage& s, const Config& c) {
    return c.at("K_ORDER").get<std::string>() == "rows" && s.rows_apply();
  }

  static std::string describe(const ConvStage& s, std::size_t i) {
    return fmt::format("Convolution {}{}: {} -> {} channels in {} groups, window {}, stride {}, padding {}, dilation {}{}.",
                       i + 1, s.transposed ? " (transposed)" : "", s.cin, s.cout, s.groups, fmt::join(s.kernel, "x"), fmt::join(s.stride, "x"),
                       fmt::join(s.padding, "x"), fmt::join(s.dilation, "x"), s.bias_expr.empty() ? "" : ", bias");
  }

  static std::string window_args(const ConvStage& s) {
    return fmt::format("D={}, H={}, W={}, OD={}, OH={}, OW={}, KD={}, KH={}, KW={}, SD={}, SH={}, SW={}, PD={}, PH={}, "
                       "PW={}, DD={}, DH={}, DW={}",
                       s.in[0], s.in[1], s.in[2], s.out[0], s.out[1], s.out[2], s.kernel[0], s.kernel[1], s.kernel[2],
                       s.stride[0], s.stride[1], s.stride[2], s.padding[0], s.padding[1], s.padding[2], s.dilation[0],
                       s.dilation[1], s.dilation[2]);
  }

  // The last stage's launch: the per-channel tensors its epilogue reads, and the flag.
  std::string epilogue_args() const {
    std::string args;
    for (std::size_t i = 0; i < c_.epilogue_channels.size(); ++i)
      args += fmt::format(", ch{}_ptr={}", i, c_.epilogue_channels[i].first);
    return args + ", EPILOGUE=True";
  }

  static bool wide(const ConvStage& s) { return s.max_offset() >= (std::int64_t{1} << 30); }

  std::map<std::string, std::string> common(const ConvStage& s, std::size_t index) const {
    return {{"WHAT", fmt::format("Convolution {}", index + 1)},
            {"OUT", s.out_name},
            {"OUT_SHAPE", py_tuple(s.out_shape)},
            {"DTYPE", s.dtype},
            {"W", s.weight_expr},
            {"B", s.bias_expr.empty() ? s.input_expr : s.bias_expr},
            {"HAS_BIAS", yes(!s.bias_expr.empty())},
            {"EPILOGUE_ARG", !c_.epilogue.empty() && index + 1 == c_.stages.size() ? epilogue_args() : ""},
            {"WIDE", yes(wide(s))}};
  }

  // The padded copy of the input (padding_mode 'reflect' or 'replicate', or F.pad) the first stage reads as
  // `xp`: the source's sizes and strides normalised to [N, C, D, H, W], the axes it lacks of size 1.
  static std::string pad_launch(const InputPad& p) {
    std::vector<std::int64_t> shape(5, 1), strides(5, 0), before(3, 0);
    const std::size_t s = p.shape.size() - 2;
    shape[0] = p.shape[0], shape[1] = p.shape[1], strides[0] = p.strides[0], strides[1] = p.strides[1];
    for (std::size_t k = 0; k < s; ++k) {
      shape[5 - s + k] = p.shape[2 + k];
      strides[5 - s + k] = p.strides[2 + k];
      before[3 - s + k] = p.before[k];
    }
    const int mode = p.mode == "reflect" ? 0 : p.mode == "replicate" ? 1 : 2;
    return fmt::format("        xp = ka_pad({}, {}, {}, {}, {}, {}, {})  # padding '{}'\n", p.source, py_tuple(shape),
                       py_tuple(p.padded_shape()), py_tuple(strides), py_tuple(before), mode, float_literal(p.value),
                       p.mode);
  }

  std::size_t index_of(const ConvStage& s) const { return static_cast<std::size_t>(&s - c_.stages.data()); }

  std::string gemm_launch(const ConvStage& s, const Config& c, bool cl) const {
    auto v = common(s, index_of(s));
    const std::int64_t sp = s.in_positions(), kvol = s.window();
    std::string x = s.input_expr, w = s.weight_expr, prepare;
    std::int64_t xs_n = s.xs_n, xs_c = s.xs_c, xs_d = s.xs[0], xs_h = s.xs[1], xs_w = s.xs[2];
    // Where the weight of (group g, output channel o of the group, window position r, input channel c of
    // the group) is: g * WS_G + o * WS_K + r * WS_R + c * WS_C. Forward [cout, cg, window]; transposed
    // [cin, cog, window]. The forward kernel reads o as the global channel (WS_G is implied).
    std::int64_t ws_g = s.transposed ? s.cg() * s.cog() * kvol : s.cog() * s.gemm_k();
    std::int64_t ws_k = s.transposed ? kvol : s.gemm_k(), ws_r = 1, ws_c = s.transposed ? s.cog() * kvol : kvol;
    const bool rows = by_rows(s, c);
    const std::int64_t cp = rows ? s.rows_channels() : 1;
    if (cl) {
      // NCDHW -> NDHWC, so that a K step reads contiguous channels; the weight goes channel-fastest too. The
      // window-rows order pads the channels of both copies to CP with zeros, so that a window row's KW
      // positions x CP channels are one contiguous run of each.
      const std::int64_t in_ch = rows ? cp : s.cin, w_ch = rows ? cp : s.cg();
      const std::string pad = rows ? fmt::format(", padded_rows={}", cp) : "";
      x = s.out_name + "_x";
      prepare += fmt::format("        {} = ka_relayout({}, {}, {}, {}, ({}, {}, {}){})\n", x, s.input_expr, s.batch,
                             s.cin, sp, s.xs_n, s.xs_c, s.xs[2], pad);
      xs_n = sp * in_ch, xs_c = 1, xs_w = in_ch, xs_h = s.in[2] * in_ch, xs_d = s.in[1] * s.in[2] * in_ch;
      if (s.transposed) {
        // [cin, cog * window] -> [cog * window, cin]
        w = s.out_name + "_w";
        prepare += fmt::format("        {} = ka_relayout({}, 1, {}, {}, (0, {}, 1))\n", w, s.weight_expr, s.cin,
                               s.cog() * kvol, s.cog() * kvol);
        ws_g = s.cg(), ws_k = kvol * s.cin, ws_r = s.cin, ws_c = 1;
      } else if (kvol > 1) {
        // [cout, cg, window] -> [cout, window, cg (or CP)]
        w = s.out_name + "_w";
        prepare += fmt::format("        {} = ka_relayout({}, {}, {}, {}, ({}, {}, 1){})\n", w, s.weight_expr, s.cout,
                               s.cg(), kvol, s.gemm_k(), kvol, pad);
        ws_k = kvol * w_ch, ws_r = w_ch, ws_c = 1;
      }
    }
    v["W"] = w;
    v.insert({{"PREPARE", prepare},
              {"X", x},
              {"M", std::to_string(s.gemm_m())},
              {"COG", std::to_string(s.cog())},
              {"K", std::to_string(s.transposed ? s.gemm_k() / (s.phases() > 0 ? s.phases() : 1) : s.gemm_k())},
              {"GROUPS", std::to_string(s.groups)},
              {"PHASES", std::to_string(s.phases())},
              {"PER_GROUP", s.groups > 1 ? fmt::format(" per group, {} groups", s.groups) : ""},
              {"SIZES",
               fmt::format("BATCH={}, CG={}, COG={}, COUT={}, {}", s.batch, s.cg(), s.cog(), s.cout, window_args(s))},
              {"XS_N", std::to_string(xs_n)},
              {"XS_C", std::to_string(xs_c)},
              {"XS_D", std::to_string(xs_d)},
              {"XS_H", std::to_string(xs_h)},
              {"XS_W", std::to_string(xs_w)},
              {"WS_G", std::to_string(ws_g)},
              {"WS_K", std::to_string(ws_k)},
              {"WS_R", std::to_string(ws_r)},
              {"WS_C", std::to_string(ws_c)},
              {"WINDOW_OUTER", yes(c.at("K_ORDER").get<std::string>() == "window")},
              {"ROWS", yes(rows)},
              {"CP", std::to_string(cp)},
              {"A_BY_POSITION", yes(!cl && gather_by_position(c))},
              {"BLOCK_M", c.at("BLOCK_M").dump()},
              {"BLOCK_N", c.at("BLOCK_N").dump()},
              {"BLOCK_K", c.at("BLOCK_K").dump()},
              {"INPUT_PRECISION", c.at("input_precision").get<std::string>()},
              {"NUM_WARPS", c.at("num_warps").dump()},
              {"NUM_STAGES", c.at("num_stages").dump()}});
    return render_from(s.transposed ? "launch_tconv" : "launch_gemm", v);
  }

  // The values both direct kernels' launches fill: the input, its strides, the window and the tile; `co`
  // output channels a program (the depthwise kernel's one).
  std::map<std::string, std::string> direct_values(const ConvStage& s, const Config& c, std::int64_t co) const {
    auto v = common(s, index_of(s));
    const auto bh = c.at("BLOCK_H").get<std::int64_t>(), bw = c.at("BLOCK_W").get<std::int64_t>();
    v.insert({{"X", s.input_expr},
              {"PLANES", std::to_string(s.batch * cdiv(s.cout, co) * s.out[0])},
              {"TILES", std::to_string(cdiv(s.out[1], bh) * cdiv(s.out[2], bw))},
              {"COUT", std::to_string(s.cout)},
              {"WINDOW", window_args(s)},
              {"XS_N", std::to_string(s.xs_n)},
              {"XS_C", std::to_string(s.xs_c)},
              {"XS_D", std::to_string(s.xs[0])},
              {"XS_H", std::to_string(s.xs[1])},
              {"XS_W", std::to_string(s.xs[2])},
              {"BLOCK_H", std::to_string(bh)},
              {"BLOCK_W", std::to_string(bw)},
              {"NUM_WARPS", c.at("num_warps").dump()}});
    return v;
  }

  std::string direct_launch(const ConvStage& s, const Config& c) const {
    auto v = direct_values(s, c, 1);
    v["COG"] = std::to_string(s.cog());
    return render("launch_direct", v);
  }

  std::string outer_launch(const ConvStage& s, const Config& c) const {
    const std::int64_t co = outer_channels(c);
    auto v = direct_values(s, c, co);
    v.insert({{"CG", std::to_string(s.cg())},
              {"KVOL", std::to_string(s.window())},
              {"TAPS", std::to_string(s.gemm_k())},
              {"BLOCK_CO", std::to_string(co)}});
    return render("launch_outer", v);
  }
};

Recognition recognise(const Family& family, const TraceResult& trace) {
  auto r = recognise_conv_chain(trace);
  if (auto* why = std::get_if<std::string>(&r)) return {nullptr, *why};
  return {std::make_shared<ConvFamilyProblem>(family, trace, std::get<ConvChain>(std::move(r))), ""};
}

}  // namespace

KA_REGISTER_FAMILY(conv, recognise);

}  // namespace kernelagent

#include "kernelagent/families/common/pointwise_ops.hpp"

#include <cmath>
#include <map>

#include <fmt/format.h>

namespace kernelagent {

std::string float_literal(double v) {
  if (std::isinf(v)) return v > 0 ? "float('inf')" : "float('-inf')";
  if (std::isnan(v)) return "float('nan')";
  std::string s = fmt::format("{}", v);  // shortest representation that round-trips
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

bool float_dtype(const std::string& dt) { return dt == "float32" || dt == "float16" || dt == "bfloat16"; }

bool is_identity_view(std::string_view t) {
  static const char* const ids[] = {"aten.clone.default",  "aten.alias.default",      "aten.detach.default",
                                    "aten.view.default",   "aten._unsafe_view.default", "aten.reshape.default",
                                    "aten.lift_fresh_copy.default", "aten.contiguous.default"};
  for (const char* id : ids)
    if (t == id) return true;
  return false;
}

namespace {

// What an emitter gets: the node, and its arguments as expressions.
struct Operands {
  const Node& node;
  const OperandFn& operand;
  std::string_view compute;
  std::string error;

  // Tensor-or-scalar argument i (or keyword kw) as an expression; records an error when absent.
  std::string x(std::size_t i, std::string_view kw = "") {
    auto a = node.arg(i, kw);
    if (!a) {
      error = fmt::format("{} is missing argument {}", node.target, i);
      return "0";
    }
    if (a->is_number()) return literal(*a);
    if (a->kind == Arg::Kind::value && a->value.is_boolean()) return a->value.get<bool>() ? "True" : "False";
    auto e = operand(*a);
    if (!e) {
      error = fmt::format("{}: argument {} cannot be used in a fused pointwise kernel", node.target, i);
      return "0";
    }
    return *e;
  }
  // Whether the node computes integers (or bools): its integer literals stay integers there, so that int64
  // arithmetic is done in integers as PyTorch does it (x * 3 + 1 through fp32 loses every value past 2^24).
  bool integer_result() const { return !node.meta.dtype.empty() && !float_dtype(node.meta.dtype) && node.meta.dtype != "float64"; }
  std::string literal(const Arg& a) const {
    if (integer_result() && a.value.is_number_integer()) return fmt::format("{}", a.value.get<std::int64_t>());
    return float_literal(a.number());
  }
  // A number the op uses as its own constant (relu's 0, ones_like's 1): an integer where the node computes them.
  std::string constant(double v) const {
    if (integer_result() && v == std::floor(v) && std::abs(v) < 9.0e18) return fmt::format("{}", static_cast<std::int64_t>(v));
    return float_literal(v);
  }
  // A numeric literal argument with a default, e.g. leaky_relu's negative_slope.
  std::optional<double> number(std::size_t i, std::string_view kw, std::optional<double> def) {
    auto a = node.arg(i, kw);
    if (is_none(a)) return def;
    if (a->is_number()) return a->number();
    error = fmt::format("{}: argument {} must be a constant number", node.target, i);
    return def;
  }
  std::string lit(std::size_t i, std::string_view kw, double def) { return float_literal(*number(i, kw, def)); }
};

using Emitter = std::function<std::string(Operands&)>;

// A loss's elementwise expression where its reduction (argument i) is 'none'; otherwise an error that leaves
// it to the map-reduce family.
std::string unreduced(Operands& o, std::size_t i, std::string expr) {
  const double reduction = *o.number(i, "reduction", 1.0);
  if (reduction != 0) {
    o.error = fmt::format("{} with a reduction is a map-reduce, not a pointwise op", o.node.target);
    return "";
  }
  return expr;
}

// PyTorch's maximum, minimum, clamp and relu keep a NaN; Triton's default (the hardware's max.f32) returns
// the other operand. pointwise_helpers' _max_nan and _min_nan keep it, in the same one instruction.
std::string max_keeping_nan(std::string_view a, std::string_view b) { return fmt::format("_max_nan({}, {})", a, b); }

std::string min_keeping_nan(std::string_view a, std::string_view b) { return fmt::format("_min_nan({}, {})", a, b); }

std::string clamp_expr(const std::string& v, std::optional<double> lo, std::optional<double> hi) {
  std::string e = v;
  if (lo) e = max_keeping_nan(e, float_literal(*lo));
  if (hi) e = min_keeping_nan(e, float_literal(*hi));
  return e;
}

// clamp of the node's values, with bounds in its own kind of number (integer bounds of an integer clamp).
std::string clamp_expr(const Operands& o, const std::string& v, std::optional<double> lo, std::optional<double> hi) {
  if (!o.integer_result()) return clamp_expr(v, lo, hi);
  std::string e = v;
  if (lo) e = fmt::format("tl.maximum({}, {})", e, o.constant(*lo));
  if (hi) e = fmt::format("tl.minimum({}, {})", e, o.constant(*hi));
  return e;
}

// x ** e for the exponents that have an exact cheap form; "" otherwise.
std::string pow_expr(const std::string& x, double e) {
  if (e == 0.5) return fmt::format("tl.sqrt({})", x);
  if (e == -0.5) return fmt::format("tl.rsqrt({})", x);
  if (e == std::floor(e) && std::abs(e) <= 8) {
    int n = static_cast<int>(std::abs(e));
    if (n == 0) return "1.0";
    std::string prod = "(" + x;
    for (int k = 1; k < n; ++k) prod += " * " + x;
    prod += ")";
    return e > 0 ? prod : "(1.0 / " + prod + ")";
  }
  return "";
}

const std::map<std::string, Emitter, std::less<>>& emitters() {
  // Overloads that compute the same (a scalar or a tensor operand) share one emitter.
  // fmod keeps the dividend's sign (Triton's % on floats is C's fmod); remainder takes the divisor's.
  const Emitter fmod = [](Operands& o) { return fmt::format("({} % {})", o.x(0), o.x(1)); };
  const Emitter remainder = [](Operands& o) {
    return fmt::format("tl.where((({0} % {1}) != 0) & ((({0} % {1}) < 0) != ({1} < 0)), ({0} % {1}) + {1}, {0} % {1})",
                       o.x(0), o.x(1));
  };
  // Division rounded down (floor_divide, div with rounding_mode 'floor') as PyTorch computes it. Integers: the
  // quotient corrected down where the remainder's sign differs from the divisor's (whatever rounding `//` has).
  // Floats: from fmod, (a - fmod(a, b)) / b, one less where the signs differ, then to the nearest integer below.
  const Emitter floor_divide = [](Operands& o) {
    const std::string& dt = o.node.meta.dtype;
    const bool integer = dt == "int64" || dt == "int32" || dt == "int16" || dt == "int8" || dt == "uint8";
    if (integer) {
      auto int_arg = [&](std::size_t i) {
        auto a = o.node.arg(i, "");
        if (a && a->is_number()) return fmt::format("{}", static_cast<std::int64_t>(a->number()));
        return o.x(i);
      };
      const std::string a = int_arg(0), b = int_arg(1);
      return fmt::format("(({0} // {1}) - ((({0} - ({0} // {1}) * {1}) != 0) & ((({0} - ({0} // {1}) * {1}) < 0) != ({1} < 0))).to({0}.dtype))",
                         a, b);
    }
    const std::string a = o.x(0), b = o.x(1);
    const std::string m = fmt::format("({} % {})", a, b);
    const std::string d = fmt::format("tl.where(({0} != 0) & (({1} < 0) != ({0} < 0)), ({2} - {0}) / {1} - 1.0, ({2} - {0}) / {1})",
                                      m, b, a);
    return fmt::format("tl.where({1} == 0, {2} / {1}, tl.where({0} - tl.floor({0}) > 0.5, tl.floor({0}) + 1.0, tl.floor({0})))",
                       d, b, a);
  };
  // lerp as PyTorch computes it: from the nearer end, so that weight 1 gives the end exactly.
  const Emitter lerp = [](Operands& o) {
    return fmt::format("tl.where(tl.abs({2}) < 0.5, {0} + {2} * ({1} - {0}), {1} - ({1} - {0}) * (1.0 - {2}))",
                       o.x(0), o.x(1), o.x(2));
  };
  static const std::map<std::string, Emitter, std::less<>> table = {
      // Activations.
      {"aten.relu.default",
       [](Operands& o) {
         return o.integer_result() ? fmt::format("tl.maximum({}, 0)", o.x(0)) : max_keeping_nan(o.x(0), "0.0");
       }},
      {"aten.leaky_relu.default",
       [](Operands& o) {
         auto x = o.x(0);
         return fmt::format("tl.where({0} > 0, {0}, {0} * {1})", x, o.lit(1, "negative_slope", 0.01));
       }},
      // PReLU: the slope is a tensor (nn.PReLU's weight, one a channel, viewed to broadcast over the input).
      {"aten._prelu_kernel.default",
       [](Operands& o) {
         auto x = o.x(0);
         return fmt::format("tl.where({0} > 0, {0}, {0} * {1})", x, o.x(1));
       }},
      {"aten.sigmoid.default", [](Operands& o) { return fmt::format("tl.sigmoid({})", o.x(0)); }},
      {"aten.tanh.default", [](Operands& o) { return fmt::format("_tanh({})", o.x(0)); }},
      {"aten.silu.default", [](Operands& o) { return fmt::format("({0} * tl.sigmoid({0}))", o.x(0)); }},
      {"aten.gelu.default",
       [](Operands& o) {
         auto x = o.x(0);
         std::string approx = "none";
         if (auto a = o.node.arg(1, "approximate"); a && a->kind == Arg::Kind::value && a->value.is_string())
           approx = a->value.get<std::string>();
         if (approx == "tanh")
           return fmt::format("(0.5 * {0} * (1.0 + _tanh(0.7978845608028654 * ({0} + 0.044715 * {0} * {0} * {0}))))",
                              x);
         return fmt::format("(0.5 * {0} * (1.0 + tl.math.erf({0} * 0.7071067811865476)))", x);
       }},
      {"aten.elu.default",
       [](Operands& o) {
         auto x = o.x(0);
         double alpha = *o.number(1, "alpha", 1.0), scale = *o.number(2, "scale", 1.0);
         double in_scale = *o.number(3, "input_scale", 1.0);
         return fmt::format("tl.where({0} > 0, {0} * {1}, (tl.exp({0} * {2}) - 1.0) * {3})", x, float_literal(scale),
                            float_literal(in_scale), float_literal(alpha * scale));
       }},
      {"aten.hardtanh.default",
       [](Operands& o) { return clamp_expr(o.x(0), o.number(1, "min_val", -1.0), o.number(2, "max_val", 1.0)); }},
      {"aten.hardsigmoid.default",
       [](Operands& o) { return clamp_expr(fmt::format("({} / 6.0 + 0.5)", o.x(0)), 0.0, 1.0); }},
      {"aten.hardswish.default",
       [](Operands& o) {
         auto x = o.x(0);
         return fmt::format("({} * {})", x, clamp_expr(fmt::format("({} / 6.0 + 0.5)", x), 0.0, 1.0));
       }},
      {"aten.softplus.default",
       [](Operands& o) {
         auto x = o.x(0);
         auto beta = o.lit(1, "beta", 1.0), threshold = o.lit(2, "threshold", 20.0);
         return fmt::format("tl.where({0} * {1} > {2}, {0}, _log(1.0 + tl.exp({0} * {1})) / {1})", x, beta,
                            threshold);
       }},
      {"aten.mish.default",
       [](Operands& o) {
         // x * tanh(softplus(x)), softplus at PyTorch's threshold of 20.
         return fmt::format("({0} * _tanh(tl.where({0} > 20.0, {0}, _log(1.0 + tl.exp({0})))))", o.x(0));
       }},
      {"aten.log_sigmoid_forward.default",
       [](Operands& o) {
         // log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|)): no overflow, and no log of 0 for very negative x.
         return fmt::format("(tl.minimum({0}, 0.0) - _log(1.0 + tl.exp(-tl.abs({0}))))", o.x(0));
       }},
      // The first result of a node of several (log_sigmoid_forward's value; its buffer is not computed). A
      // pointwise node's value is its first result; a getitem of any other is refused by its source.
      {"getitem",
       [](Operands& o) {
         if (o.number(1, "", -1).value_or(-1) != 0) {
           o.error = "getitem: only the first result of a pointwise node is computed";
           return std::string();
         }
         return o.x(0);
       }},
      // Arithmetic.
      {"aten.mul.Tensor", [](Operands& o) { return fmt::format("({} * {})", o.x(0), o.x(1)); }},
      {"aten.mul.Scalar", [](Operands& o) { return fmt::format("({} * {})", o.x(0), o.x(1)); }},
      {"aten.div.Tensor", [](Operands& o) { return fmt::format("({} / {})", o.x(0), o.x(1)); }},
      {"aten.div.Scalar", [](Operands& o) { return fmt::format("({} / {})", o.x(0), o.x(1)); }},
      {"aten.add.Tensor",
       [](Operands& o) {
         double alpha = *o.number(2, "alpha", 1.0);
         if (alpha == 1.0) return fmt::format("({} + {})", o.x(0), o.x(1));
         return fmt::format("({} + {} * {})", o.x(0), o.x(1), float_literal(alpha));
       }},
      {"aten.add.Scalar", [](Operands& o) { return fmt::format("({} + {})", o.x(0), o.x(1)); }},
      {"aten.sub.Tensor",
       [](Operands& o) {
         double alpha = *o.number(2, "alpha", 1.0);
         if (alpha == 1.0) return fmt::format("({} - {})", o.x(0), o.x(1));
         return fmt::format("({} - {} * {})", o.x(0), o.x(1), float_literal(alpha));
       }},
      {"aten.sub.Scalar", [](Operands& o) { return fmt::format("({} - {})", o.x(0), o.x(1)); }},
      {"aten.rsub.Scalar",
       [](Operands& o) {
         double alpha = *o.number(2, "alpha", 1.0);
         return fmt::format("({} - {} * {})", o.x(1), o.x(0), float_literal(alpha));
       }},
      {"aten.neg.default", [](Operands& o) { return fmt::format("(-{})", o.x(0)); }},
      {"aten.abs.default", [](Operands& o) { return fmt::format("tl.abs({})", o.x(0)); }},
      {"aten.exp.default", [](Operands& o) { return fmt::format("tl.exp({})", o.x(0)); }},
      {"aten.log.default", [](Operands& o) { return fmt::format("_log({})", o.x(0)); }},
      {"aten.log1p.default", [](Operands& o) { return fmt::format("_log(1.0 + {})", o.x(0)); }},
      {"aten.expm1.default", [](Operands& o) { return fmt::format("(tl.exp({}) - 1.0)", o.x(0)); }},
      {"aten.sqrt.default", [](Operands& o) { return fmt::format("tl.sqrt({})", o.x(0)); }},
      {"aten.rsqrt.default", [](Operands& o) { return fmt::format("tl.rsqrt({})", o.x(0)); }},
      {"aten.reciprocal.default", [](Operands& o) { return fmt::format("(1.0 / {})", o.x(0)); }},
      {"aten.erf.default", [](Operands& o) { return fmt::format("tl.math.erf({})", o.x(0)); }},
      {"aten.sin.default", [](Operands& o) { return fmt::format("tl.sin({})", o.x(0)); }},
      {"aten.cos.default", [](Operands& o) { return fmt::format("tl.cos({})", o.x(0)); }},
      {"aten.sign.default",
       [](Operands& o) { return fmt::format("tl.where({0} > 0, 1.0, tl.where({0} < 0, -1.0, 0.0))", o.x(0)); }},
      // x ** e: the exact forms where they exist, else |x| ** e through exp2 and log2 with PyTorch's signs: a
      // negative base is NaN to a fractional power and keeps its sign to an odd one; 0 gives 0 or inf.
      {"aten.pow.Tensor_Scalar",
       [](Operands& o) {
         auto x = o.x(0);
         auto e = o.number(1, "exponent", std::nullopt);
         if (!e) {
           o.error = "aten.pow.Tensor_Scalar with an exponent that is not a constant number";
           return std::string();
         }
         if (std::string p = pow_expr(x, *e); !p.empty()) return p;
         const std::string r = fmt::format("tl.exp2({} * tl.log2(tl.abs({})))", float_literal(*e), x);
         if (*e != std::floor(*e)) return fmt::format("tl.where({} < 0, float('nan'), {})", x, r);
         if (std::fmod(std::abs(*e), 2.0) == 1.0) return fmt::format("tl.where({} < 0, -{}, {})", x, r, r);
         return r;
       }},
      // x ** y of two tensors, the same rules decided element by element, and anything to the power 0 is 1.
      {"aten.pow.Tensor_Tensor",
       [](Operands& o) {
         auto x = o.x(0), y = o.x(1);
         const std::string r = fmt::format("tl.exp2({} * tl.log2(tl.abs({})))", y, x);
         return fmt::format("tl.where({1} == 0, 1.0, tl.where({0} < 0, tl.where({1} == tl.floor({1}), "
                            "tl.where(tl.floor({1} * 0.5) * 2.0 == {1}, {2}, -{2}), float('nan')), {2}))",
                            x, y, r);
       }},
      // c ** x for a positive constant base c.
      {"aten.pow.Scalar",
       [](Operands& o) {
         auto c = o.number(0, "self", std::nullopt);
         if (!c || *c <= 0) {
           o.error = "aten.pow.Scalar with a base that is not a positive constant";
           return std::string();
         }
         return fmt::format("tl.exp2({} * {})", o.x(1), float_literal(std::log2(*c)));
       }},
      {"aten.clamp.default",
       [](Operands& o) { return clamp_expr(o, o.x(0), o.number(1, "min", std::nullopt), o.number(2, "max", std::nullopt)); }},
      {"aten.clamp_min.default", [](Operands& o) { return clamp_expr(o, o.x(0), o.number(1, "min", 0.0), std::nullopt); }},
      {"aten.clamp_max.default", [](Operands& o) { return clamp_expr(o, o.x(0), std::nullopt, o.number(1, "max", 0.0)); }},
      // clamp(x, min=t, max=u) with tensor bounds, either of which may be absent.
      {"aten.clamp.Tensor",
       [](Operands& o) {
         auto given = [&](std::size_t i, std::string_view kw) { return !is_none(o.node.arg(i, kw)); };
         std::string e = o.x(0);
         if (given(1, "min")) e = max_keeping_nan(e, o.x(1, "min"));
         if (given(2, "max")) e = min_keeping_nan(e, o.x(2, "max"));
         return e;
       }},
      // A tensor bound (cosine_similarity clamps its norms by a 0-d eps, in place on their clones).
      {"aten.clamp_min.Tensor", [](Operands& o) { return max_keeping_nan(o.x(0), o.x(1)); }},
      {"aten.clamp_min_.Tensor", [](Operands& o) { return max_keeping_nan(o.x(0), o.x(1)); }},
      {"aten.clamp_max.Tensor", [](Operands& o) { return min_keeping_nan(o.x(0), o.x(1)); }},
      {"aten.clamp_max_.Tensor", [](Operands& o) { return min_keeping_nan(o.x(0), o.x(1)); }},
      {"aten.maximum.default", [](Operands& o) { return max_keeping_nan(o.x(0), o.x(1)); }},
      {"aten.minimum.default", [](Operands& o) { return min_keeping_nan(o.x(0), o.x(1)); }},
      // Rounding. PyTorch's round is to the nearest even integer on a tie; from 2^23 on every fp32 is an integer.
      {"aten.floor.default", [](Operands& o) { return fmt::format("tl.floor({})", o.x(0)); }},
      {"aten.ceil.default", [](Operands& o) { return fmt::format("tl.ceil({})", o.x(0)); }},
      {"aten.trunc.default",
       [](Operands& o) { return fmt::format("tl.where({0} < 0, tl.ceil({0}), tl.floor({0}))", o.x(0)); }},
      {"aten.frac.default",
       [](Operands& o) { return fmt::format("({0} - tl.where({0} < 0, tl.ceil({0}), tl.floor({0})))", o.x(0)); }},
      {"aten.round.default",
       [](Operands& o) {
         return fmt::format(
             "tl.where(tl.abs({0}) >= 8388608.0, {0}, tl.where((tl.floor({0} + 0.5) - {0} == 0.5) & "
             "(tl.floor({0} + 0.5) - 2.0 * tl.floor(tl.floor({0} + 0.5) * 0.5) == 1.0), tl.floor({0} + 0.5) - 1.0, "
             "tl.floor({0} + 0.5)))",
             o.x(0));
       }},
      {"aten.floor_divide.default", floor_divide},
      {"aten.floor_divide.Scalar", floor_divide},
      {"aten.fmod.Scalar", fmod},
      {"aten.fmod.Tensor", fmod},
      {"aten.remainder.Scalar", remainder},
      {"aten.remainder.Tensor", remainder},
      // More activations and their relatives.
      {"aten.celu.default",
       [](Operands& o) {
         auto alpha = o.lit(1, "alpha", 1.0);
         return fmt::format("tl.where({0} > 0, {0}, {1} * (tl.exp({0} / {1}) - 1.0))", o.x(0), alpha);
       }},
      {"aten.threshold.default",
       [](Operands& o) { return fmt::format("tl.where({0} > {1}, {0}, {2})", o.x(0), o.x(1), o.x(2)); }},
      // rrelu outside training is a leaky ReLU whose slope is the middle of [lower, upper]; in training it
      // draws its slopes, and the reference is refused as random before any family sees it.
      {"aten.rrelu_with_noise.default",
       [](Operands& o) {
         if (rrelu_training(o.node)) {
           o.error = "aten.rrelu_with_noise.default: in training its slopes are random";
           return std::string();
         }
         const double slope = (*o.number(2, "lower", 0.125) + *o.number(3, "upper", 1.0 / 3.0)) / 2.0;
         return fmt::format("tl.where({0} >= 0, {0}, {0} * {1})", o.x(0), float_literal(slope));
       }},
      {"aten.logit.default",
       [](Operands& o) {
         auto eps = o.node.arg(1, "eps");
         std::string z = o.x(0);
         if (eps && eps->is_number()) z = clamp_expr(z, eps->number(), 1.0 - eps->number());
         return fmt::format("_log({0} / (1.0 - {0}))", z);
       }},
      {"aten.nan_to_num.default",
       [](Operands& o) {
         // The defaults: NaN to 0, the infinities to fp32's largest finite values.
         auto nan = o.lit(1, "nan", 0.0), posinf = o.lit(2, "posinf", 3.4028234663852886e38);
         auto neginf = o.lit(3, "neginf", -3.4028234663852886e38);
         return fmt::format("tl.where({0} != {0}, {1}, tl.where({0} == float('inf'), {2}, tl.where({0} == float('-inf'), "
                            "{3}, {0})))",
                            o.x(0), nan, posinf, neginf);
       }},
      {"aten.log2.default", [](Operands& o) { return fmt::format("tl.log2({})", o.x(0)); }},
      {"aten.log10.default", [](Operands& o) { return fmt::format("(_log({}) * 0.4342944819032518)", o.x(0)); }},
      {"aten.exp2.default", [](Operands& o) { return fmt::format("tl.exp2({})", o.x(0)); }},
      {"aten.square.default", [](Operands& o) { return fmt::format("({0} * {0})", o.x(0)); }},
      {"aten.hardshrink.default",
       [](Operands& o) { return fmt::format("tl.where(tl.abs({0}) > {1}, {0}, 0.0)", o.x(0), o.lit(1, "lambd", 0.5)); }},
      {"aten.softshrink.default",
       [](Operands& o) {
         auto l = o.lit(1, "lambd", 0.5);
         return fmt::format("tl.where({0} > {1}, {0} - {1}, tl.where({0} < -{1}, {0} + {1}, 0.0))", o.x(0), l);
       }},
      {"aten.sinh.default", [](Operands& o) { return fmt::format("((tl.exp({0}) - tl.exp(-{0})) * 0.5)", o.x(0)); }},
      {"aten.cosh.default", [](Operands& o) { return fmt::format("((tl.exp({0}) + tl.exp(-{0})) * 0.5)", o.x(0)); }},
      {"aten.tan.default", [](Operands& o) { return fmt::format("(tl.sin({0}) / tl.cos({0}))", o.x(0)); }},
      // The inverse trigonometric and hyperbolic functions through families/common/math_helpers.py.in's _atan
      // (Triton has no atan, and libdevice's does not run on its interpreter); asin and acos in the forms that
      // keep their precision near +-1 ((1 - x)(1 + x) for 1 - x^2, acos as a half angle).
      {"aten.atan.default", [](Operands& o) { return fmt::format("_atan({})", o.x(0)); }},
      {"aten.atan2.default", [](Operands& o) { return fmt::format("_atan2({}, {})", o.x(0), o.x(1)); }},
      {"aten.arctan2.default", [](Operands& o) { return fmt::format("_atan2({}, {})", o.x(0), o.x(1)); }},
      {"aten.asin.default",
       [](Operands& o) { return fmt::format("_atan({0} / tl.sqrt((1.0 - {0}) * (1.0 + {0})))", o.x(0)); }},
      {"aten.acos.default",
       [](Operands& o) { return fmt::format("(2.0 * _atan(tl.sqrt((1.0 - {0}) / (1.0 + {0}))))", o.x(0)); }},
      // asinh and acosh as log(|x| + sqrt(x^2 +- 1)), log(2|x|) where x^2 would overflow.
      {"aten.asinh.default",
       [](Operands& o) {
         return fmt::format("(tl.where({0} < 0, -1.0, 1.0) * tl.where(tl.abs({0}) > 1e18, tl.log(tl.abs({0})) + "
                            "0.6931471805599453, tl.log(tl.abs({0}) + tl.sqrt({0} * {0} + 1.0))))",
                            o.x(0));
       }},
      {"aten.acosh.default",
       [](Operands& o) {
         return fmt::format("tl.where({0} > 1e18, tl.log({0}) + 0.6931471805599453, tl.log({0} + tl.sqrt(({0} - 1.0) * "
                            "({0} + 1.0))))",
                            o.x(0));
       }},
      {"aten.atanh.default",
       [](Operands& o) { return fmt::format("(0.5 * tl.log((1.0 + {0}) / (1.0 - {0})))", o.x(0)); }},
      {"aten.erfinv.default", [](Operands& o) { return fmt::format("_erfinv({})", o.x(0)); }},
      {"aten.erfc.default", [](Operands& o) { return fmt::format("(1.0 - tl.math.erf({}))", o.x(0)); }},
      {"aten.deg2rad.default", [](Operands& o) { return fmt::format("({} * 0.017453292519943295)", o.x(0)); }},
      {"aten.rad2deg.default", [](Operands& o) { return fmt::format("({} * 57.29577951308232)", o.x(0)); }},
      {"aten.sinc.default",
       [](Operands& o) {
         return fmt::format("tl.where({0} == 0, 1.0, tl.sin({0} * 3.141592653589793) / ({0} * 3.141592653589793))",
                            o.x(0));
       }},
      // fmax and fmin take the other operand where one is NaN (max and min keep the NaN).
      {"aten.fmax.default",
       [](Operands& o) {
         return fmt::format("tl.where({0} != {0}, {1}, tl.where({1} != {1}, {0}, tl.maximum({0}, {1})))", o.x(0), o.x(1));
       }},
      {"aten.fmin.default",
       [](Operands& o) {
         return fmt::format("tl.where({0} != {0}, {1}, tl.where({1} != {1}, {0}, tl.minimum({0}, {1})))", o.x(0), o.x(1));
       }},
      {"aten.isnan.default", [](Operands& o) { return fmt::format("({0} != {0})", o.x(0)); }},
      {"aten.isinf.default", [](Operands& o) { return fmt::format("(tl.abs({}) == float('inf'))", o.x(0)); }},
      {"aten.isposinf.default", [](Operands& o) { return fmt::format("({} == float('inf'))", o.x(0)); }},
      {"aten.isneginf.default", [](Operands& o) { return fmt::format("({} == float('-inf'))", o.x(0)); }},
      {"aten.isfinite.default", [](Operands& o) { return fmt::format("(tl.abs({}) < float('inf'))", o.x(0)); }},
      // Bitwise ops of integer and bool tensors (`a | b` of two masks).
      {"aten.bitwise_and.Tensor", [](Operands& o) { return fmt::format("({} & {})", o.x(0), o.x(1)); }},
      {"aten.bitwise_or.Tensor", [](Operands& o) { return fmt::format("({} | {})", o.x(0), o.x(1)); }},
      {"aten.bitwise_xor.Tensor", [](Operands& o) { return fmt::format("({} ^ {})", o.x(0), o.x(1)); }},
      {"aten.heaviside.default",
       [](Operands& o) { return fmt::format("tl.where({0} == 0, {1}, tl.where({0} > 0, 1.0, 0.0))", o.x(0), o.x(1)); }},
      {"aten.addcmul.default",
       [](Operands& o) { return fmt::format("({} + {} * {} * {})", o.x(0), o.lit(3, "value", 1.0), o.x(1), o.x(2)); }},
      {"aten.addcdiv.default",
       [](Operands& o) { return fmt::format("({} + {} * {} / {})", o.x(0), o.lit(3, "value", 1.0), o.x(1), o.x(2)); }},
      {"aten.lerp.Scalar", lerp},
      {"aten.lerp.Tensor", lerp},
      {"aten.hypot.default", [](Operands& o) { return fmt::format("tl.sqrt({0} * {0} + {1} * {1})", o.x(0), o.x(1)); }},
      {"aten.logaddexp.default",
       [](Operands& o) {
         // max + log(1 + exp(-|x - y|)); two -inf give -inf (their difference is NaN).
         return fmt::format("tl.where(tl.maximum({0}, {1}) == float('-inf'), float('-inf'), tl.maximum({0}, {1}) + "
                            "_log(1.0 + tl.exp(-tl.abs({0} - {1}))))",
                            o.x(0), o.x(1));
       }},
      {"aten.copysign.Tensor",
       [](Operands& o) {
         // The sign of y, -0.0's included (1 / -0.0 is -inf).
         return fmt::format("tl.where(({1} < 0) | (({1} == 0) & (1.0 / {1} < 0)), -tl.abs({0}), tl.abs({0}))", o.x(0),
                            o.x(1));
       }},
      // A tensor of one value shaped like its argument (torch.zeros_like(x) in a where).
      {"aten.zeros_like.default", [](Operands& o) { return fmt::format("tl.zeros_like({})", o.x(0)); }},
      {"aten.ones_like.default", [](Operands& o) { return fmt::format("(tl.zeros_like({}) + {})", o.x(0), o.constant(1)); }},
      {"aten.full_like.default",
       [](Operands& o) { return fmt::format("(tl.zeros_like({}) + {})", o.x(0), o.x(1)); }},
      // An uninitialised tensor shaped like its argument is only ever read once filled (torch.full_like as
      // PyTorch's own losses write it: empty_like, then fill_): zeros until then.
      {"aten.empty_like.default", [](Operands& o) { return fmt::format("tl.zeros_like({})", o.x(0)); }},
      {"aten.fill.Scalar", [](Operands& o) { return fmt::format("(tl.zeros_like({}) + {})", o.x(0), o.x(1)); }},
      {"aten.fill_.Scalar", [](Operands& o) { return fmt::format("(tl.zeros_like({}) + {})", o.x(0), o.x(1)); }},
      {"aten.where.self", [](Operands& o) { return fmt::format("tl.where({}, {}, {})", o.x(0), o.x(1), o.x(2)); }},
      // masked_fill(x, mask, value): value where mask, x elsewhere (the in-place form as traced: its result).
      {"aten.masked_fill.Scalar",
       [](Operands& o) { return fmt::format("tl.where({}, {}, {})", o.x(1), o.x(2), o.x(0)); }},
      {"aten.masked_fill_.Scalar",
       [](Operands& o) { return fmt::format("tl.where({}, {}, {})", o.x(1), o.x(2), o.x(0)); }},
      // On bool, logical not; on integers, the bitwise complement.
      {"aten.bitwise_not.default",
       [](Operands& o) {
         return o.node.meta.dtype == "bool" ? fmt::format("({} == 0)", o.x(0)) : fmt::format("(~{})", o.x(0));
       }},
      // Logical ops: any nonzero value is true, as in PyTorch.
      {"aten.logical_not.default", [](Operands& o) { return fmt::format("({} == 0)", o.x(0)); }},
      {"aten.logical_and.default",
       [](Operands& o) { return fmt::format("(({} != 0) & ({} != 0))", o.x(0), o.x(1)); }},
      {"aten.logical_or.default",
       [](Operands& o) { return fmt::format("(({} != 0) | ({} != 0))", o.x(0), o.x(1)); }},
      {"aten.logical_xor.default",
       [](Operands& o) { return fmt::format("(({} != 0) != ({} != 0))", o.x(0), o.x(1)); }},
      // A Python number where a tensor is expected (torch.where(c, 1.0, -2.0) traces its scalars so): the
      // number itself, which broadcasts.
      {"aten.scalar_tensor.default", [](Operands& o) { return o.x(0); }},
      {"aten.gt.Scalar", [](Operands& o) { return fmt::format("({} > {})", o.x(0), o.x(1)); }},
      {"aten.gt.Tensor", [](Operands& o) { return fmt::format("({} > {})", o.x(0), o.x(1)); }},
      {"aten.lt.Scalar", [](Operands& o) { return fmt::format("({} < {})", o.x(0), o.x(1)); }},
      {"aten.lt.Tensor", [](Operands& o) { return fmt::format("({} < {})", o.x(0), o.x(1)); }},
      {"aten.ge.Scalar", [](Operands& o) { return fmt::format("({} >= {})", o.x(0), o.x(1)); }},
      {"aten.le.Scalar", [](Operands& o) { return fmt::format("({} <= {})", o.x(0), o.x(1)); }},
      {"aten.ge.Tensor", [](Operands& o) { return fmt::format("({} >= {})", o.x(0), o.x(1)); }},
      {"aten.le.Tensor", [](Operands& o) { return fmt::format("({} <= {})", o.x(0), o.x(1)); }},
      {"aten.eq.Scalar", [](Operands& o) { return fmt::format("({} == {})", o.x(0), o.x(1)); }},
      {"aten.eq.Tensor", [](Operands& o) { return fmt::format("({} == {})", o.x(0), o.x(1)); }},
      {"aten.ne.Scalar", [](Operands& o) { return fmt::format("({} != {})", o.x(0), o.x(1)); }},
      {"aten.ne.Tensor", [](Operands& o) { return fmt::format("({} != {})", o.x(0), o.x(1)); }},
      // x * log(y), 0 where x is 0 (the KL divergence's convention), NaN where y is NaN.
      {"aten.xlogy.Tensor",
       [](Operands& o) {
         auto x = o.x(0), y = o.x(1);
         return fmt::format("tl.where({1} != {1}, {1}, tl.where({0} == 0, 0.0, {0} * _log({1})))", x, y);
       }},
      // Losses with reduction='none' (0) are element by element; a mean or sum (1, 2) is a reduction, the
      // map-reduce family's. Each is PyTorch's formula over d = input - target, z = |d|.
      {"aten.mse_loss.default",
       [](Operands& o) { return unreduced(o, 2, fmt::format("(({0} - {1}) * ({0} - {1}))", o.x(0), o.x(1))); }},
      {"aten.l1_loss.default",
       [](Operands& o) { return unreduced(o, 2, fmt::format("tl.abs({} - {})", o.x(0), o.x(1))); }},
      {"aten.smooth_l1_loss.default",
       [](Operands& o) {
         const double beta = *o.number(3, "beta", 1.0);
         const std::string z = fmt::format("tl.abs({} - {})", o.x(0), o.x(1));
         if (beta == 0) return unreduced(o, 2, z);
         return unreduced(o, 2, fmt::format("tl.where({0} < {1}, 0.5 * {0} * {0} / {1}, {0} - {2})", z,
                                            float_literal(beta), float_literal(0.5 * beta)));
       }},
      {"aten.huber_loss.default",
       [](Operands& o) {
         const double delta = *o.number(3, "delta", 1.0);
         const std::string z = fmt::format("tl.abs({} - {})", o.x(0), o.x(1));
         return unreduced(o, 2, fmt::format("tl.where({0} < {1}, 0.5 * {0} * {0}, {1} * ({0} - {2}))", z,
                                            float_literal(delta), float_literal(0.5 * delta)));
       }},
      // -(t log x + (1 - t) log(1 - x)), each log clamped at -100 as PyTorch does; without a weight.
      {"aten.binary_cross_entropy.default",
       [](Operands& o) {
         const auto x = o.x(0), t = o.x(1);
         std::string loss = fmt::format("-({1} * tl.maximum(_log({0}), -100.0) + (1.0 - {1}) * "
                                        "tl.maximum(_log(1.0 - {0}), -100.0))", x, t);
         if (!is_none(o.node.arg(2, "weight"))) loss = fmt::format("({} * {})", loss, o.x(2));
         return unreduced(o, 3, loss);
       }},
      // (1 - t) x + m + log(exp(-m) + exp(-x - m)), m = max(-x, 0): no overflow. With pos_weight p the log term
      // is weighted by 1 + (p - 1) t, with weight w the whole loss by w (both broadcast tensors).
      {"aten.binary_cross_entropy_with_logits.default",
       [](Operands& o) {
         const auto x = o.x(0), t = o.x(1);
         const std::string m = fmt::format("tl.maximum(-{}, 0.0)", x);
         const std::string soft = fmt::format("({0} + _log(tl.exp(-{0}) + tl.exp(-{1} - {0})))", m, x);
         const bool pos = !is_none(o.node.arg(3, "pos_weight")), weighted = !is_none(o.node.arg(2, "weight"));
         std::string loss = pos ? fmt::format("((1.0 - {1}) * {0} + (1.0 + ({2} - 1.0) * {1}) * {3})", x, t, o.x(3), soft)
                                : fmt::format("((1.0 - {1}) * {0} + {2} + _log(tl.exp(-{2}) + tl.exp(-{0} - {2})))", x,
                                              t, m);
         if (weighted) loss = fmt::format("({} * {})", loss, o.x(2));
         return unreduced(o, 4, loss);
       }},
      // log(1 + exp(-t x)) as max(z, 0) + log(1 + exp(-|z|)), z = -t x; reduction='none' only, as above.
      {"aten.soft_margin_loss.default",
       [](Operands& o) {
         const std::string z = fmt::format("(-({}) * ({}))", o.x(0), o.x(1));
         return unreduced(o, 2, fmt::format("(tl.maximum({0}, 0.0) + _log(1.0 + tl.exp(-tl.abs({0}))))", z));
       }},
      // Casts round through the target dtype so the rounding of the reference is kept.
      {"aten._to_copy.default",
       [](Operands& o) {
         auto x = o.x(0);
         const auto& dt = o.node.meta.dtype;
         if (dt == "float16" || dt == "bfloat16" || dt == "float32" || dt == "float64")
           return fmt::format("{}.to(tl.{}).to({})", x, dt, o.compute);
         if (dt == "bool") return fmt::format("({} != 0)", x);
         if (dt == "int64" || dt == "int32" || dt == "int16" || dt == "int8" || dt == "uint8")
           return fmt::format("{}.to(tl.{})", x, dt);
         o.error = "aten._to_copy to " + dt;
         return std::string();
       }},
  };
  return table;
}

}  // namespace

bool is_pointwise_op(std::string_view target) { return target != "getitem" && emitters().contains(target); }

PointwiseExpr pointwise_expr(const Node& node, const OperandFn& operand, std::string_view compute_dtype) {
  auto it = emitters().find(node.target);
  if (it == emitters().end()) return {"", node.target + " is not a pointwise op KernelAgent knows"};
  Operands ops{node, operand, compute_dtype, {}};
  std::string e = it->second(ops);
  if (!ops.error.empty()) return {"", ops.error};
  return {e, ""};
}

}  // namespace kernelagent

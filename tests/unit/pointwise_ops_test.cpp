#include <gtest/gtest.h>

#include "kernelagent/families/common/pointwise_ops.hpp"

using namespace kernelagent;
using nlohmann::json;

namespace {

Node node(const std::string& target, std::vector<Arg> args, json kwargs = json::object()) {
  Node n;
  n.name = "n0";
  n.target = target;
  n.args = std::move(args);
  n.kwargs = std::move(kwargs);
  n.meta.shape = {4};
  n.meta.dtype = "float32";
  return n;
}
Arg ref(const std::string& r) {
  Arg a;
  a.kind = Arg::Kind::ref;
  a.ref = r;
  return a;
}
Arg val(json v) {
  Arg a;
  a.value = std::move(v);
  return a;
}
const OperandFn vars = [](const Arg& a) -> std::optional<std::string> { return "v_" + a.ref; };

std::string expr(const Node& n) { return pointwise_expr(n, vars, "tl.float32").expr; }

}  // namespace

TEST(PointwiseOps, FloatLiteralsRoundTrip) {
  EXPECT_EQ(float_literal(3), "3.0");
  EXPECT_EQ(float_literal(0.5), "0.5");
  EXPECT_EQ(float_literal(0.01), "0.01");
  EXPECT_EQ(float_literal(1e-30), "1e-30");
  EXPECT_EQ(float_literal(-2), "-2.0");
}

TEST(PointwiseOps, ActivationsBecomeTritonExpressions) {
  EXPECT_EQ(expr(node("aten.relu.default", {ref("in0")})), "_max_nan(v_in0, 0.0)");
  EXPECT_EQ(expr(node("aten.leaky_relu.default", {ref("in0"), val(0.2)})), "tl.where(v_in0 > 0, v_in0, v_in0 * 0.2)");
  EXPECT_EQ(expr(node("aten.leaky_relu.default", {ref("in0")})), "tl.where(v_in0 > 0, v_in0, v_in0 * 0.01)");
  EXPECT_EQ(expr(node("aten.hardtanh.default", {ref("in0"), val(-2), val(3)})), "_min_nan(_max_nan(v_in0, -2.0), 3.0)");
  EXPECT_NE(expr(node("aten.gelu.default", {ref("in0")}, {{"approximate", {{"value", "tanh"}}}})).find("_tanh("), std::string::npos);
  EXPECT_NE(expr(node("aten.gelu.default", {ref("in0")})).find("tl.math.erf"), std::string::npos);
}

TEST(PointwiseOps, AddWithAlphaScalesTheSecondOperand) {
  EXPECT_EQ(expr(node("aten.add.Tensor", {ref("a"), ref("b")})), "(v_a + v_b)");
  EXPECT_EQ(expr(node("aten.add.Tensor", {ref("a"), ref("b")}, {{"alpha", {{"value", 2}}}})), "(v_a + v_b * 2.0)");
  EXPECT_EQ(expr(node("aten.rsub.Scalar", {ref("a"), val(1)})), "(1.0 - v_a * 1.0)");
}

TEST(PointwiseOps, PowTakesItsExactFormsFirstThenExp2OfLog2WithPyTorchsSigns) {
  EXPECT_EQ(expr(node("aten.pow.Tensor_Scalar", {ref("x"), val(3.0)})), "(v_x * v_x * v_x)");
  EXPECT_EQ(expr(node("aten.pow.Tensor_Scalar", {ref("x"), val(-2)})), "(1.0 / (v_x * v_x))");
  EXPECT_EQ(expr(node("aten.pow.Tensor_Scalar", {ref("x"), val(0.5)})), "tl.sqrt(v_x)");
  // A fractional power of a negative base is NaN; an odd one keeps the base's sign; an even one is |x| ** e.
  EXPECT_EQ(expr(node("aten.pow.Tensor_Scalar", {ref("x"), val(2.5)})),
            "tl.where(v_x < 0, float('nan'), tl.exp2(2.5 * tl.log2(tl.abs(v_x))))");
  EXPECT_EQ(expr(node("aten.pow.Tensor_Scalar", {ref("x"), val(9)})),
            "tl.where(v_x < 0, -tl.exp2(9.0 * tl.log2(tl.abs(v_x))), tl.exp2(9.0 * tl.log2(tl.abs(v_x))))");
  EXPECT_EQ(expr(node("aten.pow.Tensor_Scalar", {ref("x"), val(10)})), "tl.exp2(10.0 * tl.log2(tl.abs(v_x)))");
  EXPECT_EQ(expr(node("aten.pow.Scalar", {val(2.0), ref("x")})), "tl.exp2(v_x * 1.0)");
  auto r = pointwise_expr(node("aten.pow.Tensor_Scalar", {ref("x"), ref("e")}), vars, "tl.float32");
  EXPECT_TRUE(r.expr.empty());
  EXPECT_NE(r.why_not.find("exponent"), std::string::npos);
  EXPECT_NE(pointwise_expr(node("aten.pow.Scalar", {val(-2.0), ref("x")}), vars, "tl.float32").why_not.find("base"),
            std::string::npos);
}

TEST(PointwiseOps, UnknownOpsAndBadArgumentsSayWhy) {
  auto r = pointwise_expr(node("aten.cumsum.default", {ref("x"), val(1)}), vars, "tl.float32");
  EXPECT_TRUE(r.expr.empty());
  EXPECT_NE(r.why_not.find("aten.cumsum.default"), std::string::npos);
  auto s = pointwise_expr(node("aten.leaky_relu.default", {ref("x"), ref("y")}), vars, "tl.float32");
  EXPECT_TRUE(s.expr.empty());
  EXPECT_NE(s.why_not.find("constant number"), std::string::npos);
  auto missing = pointwise_expr(node("aten.mul.Tensor", {ref("x")}), vars, "tl.float32");
  EXPECT_TRUE(missing.expr.empty());
}

TEST(PointwiseOps, ViewsAreIdentityOverAFlatIndexSpace) {
  EXPECT_TRUE(is_identity_view("aten.view.default"));
  EXPECT_TRUE(is_identity_view("aten.clone.default"));
  EXPECT_FALSE(is_identity_view("aten.expand.default"));
  EXPECT_FALSE(is_identity_view("aten.relu.default"));
}

TEST(PointwiseOps, NonFiniteLiteralsFromTheProtocol) {
  // clamp(x, min=-inf) arrives as the string "-inf": JSON has no infinities.
  EXPECT_EQ(expr(node("aten.clamp.default", {ref("x"), val("-inf"), val(6)})),
            "_min_nan(_max_nan(v_x, float('-inf')), 6.0)");
}

TEST(PointwiseOps, MultiResultNodesHaveNoShape) {
  auto g = OpGraph::from_json(json::parse(R"({"inputs": [], "nodes": [{"name": "n0", "target": "aten.var_mean.correction",
      "args": [], "kwargs": {}, "shape": null, "dtype": null}], "outputs": [{"ref": "n0"}]})"));
  EXPECT_TRUE(g.nodes[0].meta.shape.empty());
  EXPECT_TRUE(g.nodes[0].meta.dtype.empty());
}

TEST(PointwiseOps, LossesArePointwiseOnlyWithoutAReduction) {
  // reduction 0 is 'none': element by element; 1 (mean, the default) and 2 (sum) are the map-reduce family's.
  EXPECT_EQ(expr(node("aten.mse_loss.default", {ref("a"), ref("b"), val(0)})), "((v_a - v_b) * (v_a - v_b))");
  EXPECT_EQ(expr(node("aten.huber_loss.default", {ref("a"), ref("b"), val(0), val(2.0)})),
            "tl.where(tl.abs(v_a - v_b) < 2.0, 0.5 * tl.abs(v_a - v_b) * tl.abs(v_a - v_b), "
            "2.0 * (tl.abs(v_a - v_b) - 1.0))");
  EXPECT_EQ(expr(node("aten.smooth_l1_loss.default", {ref("a"), ref("b"), val(0), val(0.0)})), "tl.abs(v_a - v_b)");
  for (const char* t : {"aten.mse_loss.default", "aten.l1_loss.default", "aten.smooth_l1_loss.default"}) {
    const auto mean = pointwise_expr(node(t, {ref("a"), ref("b")}), vars, "tl.float32");
    EXPECT_EQ(mean.expr, "");
    EXPECT_NE(mean.why_not.find("with a reduction is a map-reduce"), std::string::npos) << t;
    EXPECT_NE(pointwise_expr(node(t, {ref("a"), ref("b"), val(2)}), vars, "tl.float32").why_not, "") << t;
  }
  // A weighted binary cross entropy scales each element's loss by its weight; with logits, pos_weight
  // weighs the positive term.
  EXPECT_EQ(expr(node("aten.binary_cross_entropy.default", {ref("a"), ref("b"), ref("w"), val(0)})),
            "(-(v_b * tl.maximum(_log(v_a), -100.0) + (1.0 - v_b) * tl.maximum(_log(1.0 - v_a), -100.0)) * v_w)");
  EXPECT_NE(expr(node("aten.binary_cross_entropy_with_logits.default", {ref("a"), ref("b"), val(nullptr), ref("p"),
                                                                        val(0)}))
                .find("(1.0 + (v_p - 1.0) * v_b)"),
            std::string::npos);
  EXPECT_NE(expr(node("aten.binary_cross_entropy_with_logits.default", {ref("a"), ref("b"), val(nullptr), val(nullptr),
                                                                        val(0)}))
                .find("tl.maximum(-v_a, 0.0)"),
            std::string::npos);
}

TEST(PointwiseOps, ClampTakesTensorBoundsEitherOfWhichMayBeAbsent) {
  EXPECT_EQ(expr(node("aten.clamp.Tensor", {ref("x"), ref("lo"), ref("hi")})), "_min_nan(_max_nan(v_x, v_lo), v_hi)");
  EXPECT_EQ(expr(node("aten.clamp.Tensor", {ref("x"), ref("lo")})), "_max_nan(v_x, v_lo)");
  EXPECT_EQ(expr(node("aten.clamp.Tensor", {ref("x"), val(nullptr), ref("hi")})), "_min_nan(v_x, v_hi)");
}

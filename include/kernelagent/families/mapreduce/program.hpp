#pragma once
// The map-reduce family's view of a problem: a pointwise prologue over one or more tensors, reductions over
// a set of axes of one iteration domain (the "rows" are the positions along the other axes), pointwise work
// on the reduced values, an optional second reduction of the rows' values to one total, and outputs at any
// of the three levels. Norms, losses and statistics all take this form once their composite aten ops are
// lowered (lowering.cpp).
//
// Example: LayerNorm over the last three axes of x [16, 64, 256, 256] lowers to the domain [16, 64, 256, 256]
// with axes 1-3 reduced: one reduction of x's moments (mean, m2) per row, the row values
// rstd = rsqrt(m2 / 4194304 + eps), and the element-level output (x - mean) * rstd * weight + bias.
// KernelBench 95's cross-entropy lowers to a logsumexp per row, the log-probability of the target (the
// element value gathered at the row's target), and a total: the sum of those over the rows divided by the
// number of rows whose target is not the ignored index.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "kernelagent/core/op_graph.hpp"

namespace kernelagent::mapreduce {

// Where a value lives: one per element of the domain, one per row (constant along the reduced axes), or
// one in all (after the rows are reduced too).
enum class Level { element = 0, row = 1, total = 2 };

// A tensor the kernels read, at its strides over the domain (0 along the axes it is broadcast over).
struct Operand {
  std::string var;          // the kernels' variable for its loaded value: "x_in0"
  std::string ptr;          // the kernels' pointer parameter: "in0_ptr"
  std::string tensor_expr;  // what ModelNew passes: "in0", self.get_parameter("ln.weight")
  std::string base_expr;    // the tensor it is part of (tensor_expr but for a slice's: in0[:, 3:] is in0)
  std::string dtype;
  std::vector<std::int64_t> strides;  // over the domain
  Level level = Level::element;       // element when it varies along a reduced axis; row when only along kept ones
  bool is_float() const;
};

enum class ReduceOp {
  sum,
  max,
  min,
  moments,    // mean and m2 (sum of squared deviations), from sums shifted by the row's first value
  logsumexp,  // log(sum(exp(x))), from a running max and the sum of exp(x - max)
};

struct Reduction {
  ReduceOp op = ReduceOp::sum;
  std::string input;   // the value reduced (element level for a row reduction, row level for a total)
  Level level = Level::row;  // of the result
  std::string var;     // the result's variables: r0 (sum, max, min), r0_mean and r0_m2, r0_lse
};

// One value of the program; the kernels compute those they need, in the program's order.
struct Value {
  enum class Kind { operand, literal, pointwise, reduced, gathered };
  std::string ref;  // the program's name: a trace node's ("n3") or a lowering's ("ka_t1")
  Level level = Level::element;
  Kind kind = Kind::pointwise;
  std::string dtype = "float32";
  std::string operand;          // operand: its var
  std::string literal;          // literal: a Triton expression
  Node node;                    // pointwise: an aten node whose arguments are refs of earlier values
  int reduction = -1;           // reduced: which reduction
  std::string part;             // reduced: "" (sum, max, min), "mean", "m2", "lse"
  std::string gathered, index;  // gathered: the element value `gathered` at the flat reduced position `index`
};

struct Output {
  std::string value;
  Level level = Level::element;
  std::vector<std::int64_t> shape;
  std::string dtype;
};

// A buffer the module updates in place (BatchNorm's running statistics): `value` is stored into `operand`.
struct StateUpdate {
  std::string operand;  // an operand's var
  std::string value;
  Level level = Level::row;
};

struct Program {
  std::vector<std::int64_t> domain;
  std::vector<bool> reduced;  // per domain axis
  std::vector<Operand> operands;
  std::vector<Value> values;  // in an order where every value comes after those it reads
  std::vector<Reduction> reductions;
  std::vector<Output> outputs;
  std::vector<StateUpdate> updates;

  std::int64_t rows() const;        // positions along the kept axes
  std::int64_t row_length() const;  // positions along the reduced axes
  const Value& value(const std::string& ref) const;
  const Operand& operand(const std::string& var) const;
  // Stages of the row reductions: a reduction whose input reads another's result comes in a later stage.
  int stages() const;
  int stage_of(int reduction) const;
  bool has(Level level, bool outputs_only = false) const;
};

// The program a traced graph lowers to, or why the graph is not a map-reduce.
std::variant<Program, std::string> lower(const TraceResult& trace);

}  // namespace kernelagent::mapreduce

#pragma once
// Lines of Triton that compute a map-reduce program's values inside one kernel. A context says what the
// kernel has at hand: a tile (element values at rows k and reduced positions j, the rows' values), rows only
// (the rows' values), or the total. The emitter writes each value once, after what it reads, and the loads
// of the operands it reads, masked as the context says.
//
// Example: in a tile, RMSNorm's output x / sqrt(mean + eps) needs the load of x at the tile's offsets, the
// row value sqrt(r0 / 64 + 1e-05) (r0 the row's sum, already reduced) and their quotient:
//     x_in0_0 = tl.load(x_in0_0_ptr + (k_out * 16777216 + k_in + j_in * 262144), mask=mask, other=0.0).to(tl.float32)
//     v_ka_t1 = (r0 / 64.0)
//     ...

#include <map>
#include <set>
#include <string>

#include "kernelagent/families/mapreduce/layout.hpp"
#include "kernelagent/families/mapreduce/program.hpp"

namespace kernelagent::mapreduce {

enum class Context { tile, rows, total };

class Emitter {
 public:
  // `indent`: the lines' leading spaces. The tile's index variables are k_out, k_in, j_out, j_in, its masks
  // `mask` (elements) and `row_ok` (rows). `load_hint`: the L2 eviction policy of the streamed element loads
  // ("evict_first", "evict_last"; "" none).
  Emitter(const Program& program, const Layout& layout, Context context, int indent, std::string load_hint = "");

  // The variable holding `ref`, after writing the lines that compute it (and what it reads) if they are not
  // written yet. Throws std::runtime_error when the context cannot have the value (an element value among
  // rows only).
  std::string need(const std::string& ref);
  // Marks a value as already held in a variable (a reduction's result the kernel computed itself).
  void define(const std::string& ref, const std::string& var);
  // The element value `ref` evaluated at the flat reduced position held in `index` (a [BLOCK_K, 1] integer
  // variable): its element operands are loaded there, the rows' values are this emitter's. A moments
  // reduction's shift is its input at position 0; a gathered value is its source at the row's index.
  std::string evaluate_at(const std::string& ref, const std::string& index);
  // Element operands that vary along the row are read at `at`, a whole offset expression (the coop chunk of
  // rows not 16-byte aligned: its offset stated a multiple of the vector, which the layout's sum cannot say);
  // only for operands laid out as the domain's contiguous strides.
  void read_elements_at(const std::string& at) { elements_at_ = at; }
  // Takes over the other emitter's row and total values (those written before a loop, read inside it).
  void import_rows(const Emitter& other);
  // Appends a line of the kernel's own at the current point.
  void line(const std::string& text);
  // The lines written so far (the emitter keeps what it defined).
  std::string take();

 private:
  std::string load(const Operand& o);

  const Program& p_;
  const Layout& l_;
  Context ctx_;
  std::string pad_;
  std::string load_hint_;
  std::string prefix_;  // of the variables of a gathered evaluation
  std::string index_;   // the flat reduced position of a gathered evaluation ("" otherwise)
  std::string elements_at_;  // read_elements_at's offset ("" otherwise)
  std::map<std::string, std::string> var_of_;
  std::string lines_;
  int gathers_ = 0;
};

// The Triton literal of a reduction's identity: 0 for a sum, -inf for a max, inf for a min.
std::string identity_of(ReduceOp op);

}  // namespace kernelagent::mapreduce

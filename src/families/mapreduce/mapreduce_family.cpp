// The map-reduce family: the recogniser (lowering.cpp makes the program), the validity rule of a
// configuration, and the kernels of its variants, assembled from the templates in families/mapreduce:
//   registers  a program per block of rows, each row whole in registers: read once, written once;
//   loop       a program per block of rows walking them in steps: read once per stage, once more to write;
//   split      several programs per row write partial results that a second kernel folds in order, and an
//              apply kernel writes the element outputs: for few, long rows (a norm over a whole tensor);
// and, when the rows' values are reduced to a total, a last kernel that folds the rows' programs' partial
// results in order (a loss). Every sum is in a fixed order: the same inputs give the same bits every run.

#include <map>
#include <numeric>

#include <fmt/format.h>

#include "kernelagent/families/family.hpp"
#include "kernelagent/families/mapreduce/emitter.hpp"
#include "kernelagent/families/mapreduce/layout.hpp"
#include "kernelagent/families/mapreduce/program.hpp"
#include "kernelagent/families/model_wrapper.hpp"
#include "kernelagent/families/registry.hpp"

namespace kernelagent {

namespace {

using namespace mapreduce;

std::string str(std::int64_t v) { return std::to_string(v); }

// The accumulators a partial result of a reduction has: one, or two for moments and logsumexp.
std::vector<std::string> partial_slots(const Reduction& r) {
  if (r.op == ReduceOp::moments) return {r.var + "_s1", r.var + "_s2"};
  if (r.op == ReduceOp::logsumexp) return {r.var + "_m", r.var + "_s"};
  return {r.var};
}

// The variables a row reduction's result is held in, for the apply kernel. A logsumexp is held as its shift
// (the max) and the log of its sum, so that a log-softmax is (x - shift) - log sum, as torch computes it:
// x - (shift + log sum) loses the low bits of the log sum where x is far from zero.
std::vector<std::string> result_vars(const Reduction& r) {
  if (r.op == ReduceOp::moments) return {r.var + "_mean", r.var + "_m2"};
  if (r.op == ReduceOp::logsumexp) return {r.var + "_sh", r.var + "_ls"};
  return {r.var};
}

// max and min keep a NaN, as torch's do (pointwise_helpers: _reduce_max, _reduce_min).
// What a logsumexp subtracts before its exponentials: the max, or 0 where that is infinite, as torch does:
// a row (or a part of one) of only -inf sums no exponentials instead of exp(-inf + inf) = NaN, and a row
// holding +inf comes out +inf.
std::string lse_shift(const std::string& m) {
  return fmt::format("tl.where(tl.abs({0}) == float(\"inf\"), 0.0, {0})", m);
}

const char* tl_reduce(ReduceOp op) {
  return op == ReduceOp::max ? "_reduce_max" : op == ReduceOp::min ? "_reduce_min" : "tl.sum";
}

struct Plan {
  std::string variant;
  std::int64_t block_k = 1, block_j = 1024, split = 1, warps = 4;
  // The eviction knob: none; evict_first (element loads: data streamed once need not stay in L2); reread (a
  // row read twice, once to reduce and once to write: the first read is kept in L2 with evict_last, the second
  // and the element stores go evict_first, so that the outputs do not push the inputs out before they are
  // read again).
  std::string eviction = "none";
  // The eviction policy of the element loads of a pass that reduces (the first read) and of one that writes
  // (the last read); "" none.
  std::string reduce_hint() const { return eviction == "reread" ? "evict_last" : eviction == "none" ? "" : eviction; }
  std::string write_hint() const { return eviction == "none" ? "" : "evict_first"; }
  // The eviction policy of the element stores.
  std::string store_hint() const { return eviction == "reread" ? "evict_first" : ""; }
  std::int64_t k_blocks = 1, j_blocks = 1, steps = 1, row_programs = 1, split_steps = 1;
  std::int64_t chunk = 1, chunk_steps = 1;  // coop: the reduced positions a program holds, in block_j steps
};

class MapReduceProblem final : public FamilyProblem {
 public:
  MapReduceProblem(const Family& f, const TraceResult& t, Program p)
      : FamilyProblem(f, t), p_(std::move(p)), l_(Layout::of(p_)) {}

  // Long rows shared by co-resident programs: a chunk held whole in registers (one step of block_j, 32 values a
  // thread), the smallest from 4096 up that keeps a row to 256 programs or fewer. On the H100 (fp32,
  // KernelBench shapes) that was the fastest held chunk of those timed: 34's rows of 262144 in chunks of 4096
  // at 4 warps (5.27 ms; 8192 at 8 warps 5.54), 35's rows of 2M in chunks of 8192 at 8 warps (6.32 ms; 4096
  // 7.96, 16384 6.91). The framework keeps it only where the coop variant is valid on the GPU.
  //
  // Rows of more than 128 held chunks of 8192 whose reads fit 8 MiB (three rows in flight in half of an H100's
  // or H200's L2) are also suggested chunks of 16384 walked in two steps of 8192 at 8 warps, read again from
  // L2 with the reread hints: on the H100, 35's rows of 2M ran in 5.22 ms so (the held chunk of 8192 6.22 ms in
  // the same sweep). Longer rows, one in flight at a time, did not gain: LayerNorm's rows of 4M 375 us against
  // 280 us split, BatchNorm's of 16M 4.17 ms against 4.16 ms split.
  std::vector<KnobSuggestion> suggestions() const override {
    const std::int64_t row = p_.row_length();
    std::int64_t chunk = 4096;
    while (chunk < 16384 && cdiv(row, chunk) > kCoopProgramsARow) chunk *= 2;
    if (cdiv(row, chunk) < 2) return {};
    std::vector<KnobSuggestion> out = {
        {{{"variant", "coop"}, {"chunk", chunk}, {"block_j", chunk}, {"num_warps", chunk / 1024}},
         fmt::format("rows of {} positions shared by {} co-resident programs, each holding its chunk of {} in "
                     "registers: the row is read once",
                     row, cdiv(row, chunk), chunk)}};
    if (row > 128 * 8192 && row_bytes_read() <= kRereadRowBytes && p_.has(Level::element, true))
      out.push_back({{{"variant", "coop"}, {"chunk", 16384}, {"block_j", 8192}, {"num_warps", 8}, {"eviction", "reread"}},
                     fmt::format("rows of {} positions ({} MiB read) shared by {} co-resident programs, each walking its "
                                 "chunk of 16384 twice, the second time from L2 (rows in flight capped to fit half of it)",
                                 row, row_bytes_read() >> 20, cdiv(row, 16384))});
    return out;
  }

 protected:
  static constexpr std::int64_t kCoopProgramsARow = 256;
  static constexpr std::int64_t kRereadRowBytes = std::int64_t{8} << 20;

  bool valid_config(const Config& c, const GpuSpec* gpu, Precision) const override {
    const Plan plan = plan_of(c);
    const std::int64_t tile = plan.block_k * plan.block_j;
    // One value of a knob where it does not apply: another would be a duplicate configuration.
    if (c.value("split", std::int64_t{1}) != 1 && plan.variant != "split") return false;
    if (c.value("chunk", std::int64_t{1}) != 1 && plan.variant != "coop") return false;
    if (c.value("chunk", std::int64_t{1}) == 1 && plan.variant == "coop") return false;
    if (plan.eviction != "none" && !has_element_operand()) return false;
    // Hints for a second read only where a program reads its part of the row twice and writes elements.
    if (plan.eviction == "reread" &&
        !((plan.variant == "loop" || (plan.variant == "coop" && plan.chunk_steps > 1)) && p_.has(Level::element, true)))
      return false;
    if (plan.block_k > std::max<std::int64_t>(pow2_at_least(l_.k_in), 1)) return false;
    if (plan.block_j > std::max<std::int64_t>(pow2_at_least(l_.j_in), 16)) return false;
    // Several rows a program only where a row is short (registers) or the rows are contiguous in memory.
    if (plan.block_k > 1 && plan.variant != "registers" && !rows_contiguous()) return false;
    const std::int64_t per_thread = tile / (32 * plan.warps);
    // At least one element per thread, unless one warp is already too many (a tiny problem).
    if ((per_thread < 1 && plan.warps > 1) || per_thread > 64) return false;
    const std::int64_t sms = gpu && gpu->sm_count > 0 ? gpu->sm_count : 132;
    const bool one_tile = l_.j_out == 1 && plan.block_j >= l_.j_in;
    if (plan.variant == "registers") return one_tile && tile <= 16384;
    // One program walking a long row alone leaves the GPU idle: a loop needs programs enough to fill half the
    // SMs, or a short walk (the split and coop variants share long rows).
    if (plan.variant == "loop") return !one_tile && tile <= 8192 && (2 * plan.row_programs >= sms || plan.steps <= 64);
    if (plan.variant == "split") {
      // Worth a second kernel when the rows alone leave the GPU idle, or walk long rows each on its own (many
      // streams far apart in memory): all the programs fill it twice (or, in a small problem, give a split
      // four steps or fewer) and number at most 128 per SM (on the H200, BatchNorm's 64 channels of 16M
      // elements ran faster at every doubling of the split up to 64, the most that 32 a SM allowed); every
      // split walks two steps or more.
      const std::int64_t programs = plan.row_programs * plan.split;
      const std::int64_t fill = std::min(2 * sms, plan.row_programs * std::max<std::int64_t>(plan.steps / 4, 1));
      return plan.split > 1 && p_.stages() <= 1 && tile <= 8192 && programs >= fill && programs <= 128 * sms &&
             plan.steps >= 2 * plan.split;
    }
    if (plan.variant == "coop") return coop_valid(plan, gpu);
    return false;
  }

  Emission emission(const Config& c) const override {
    const Plan plan = plan_of(c);
    if (plan.variant == "split" && p_.stages() > 1)
      throw std::runtime_error("the split variant folds one stage of reductions");
    std::string kernels;
    std::vector<std::pair<std::string, std::int64_t>> launches;  // kernel, grid
    std::int64_t apply_warps = plan.warps;
    const bool element_out = p_.has(Level::element, true);
    const bool totals = p_.has(Level::total);
    if (plan.variant == "coop") return coop_emission(plan);
    if (plan.variant == "split") {
      kernels += render_from("split_partials", with_sizes(plan, {{"BODY", strip_final_newlines(split_partials_body(plan))}})) + "\n\n";
      kernels += render_from("split_rows", with_sizes(plan, {{"BODY", strip_final_newlines(split_rows_body(plan))}})) + "\n\n";
      launches.push_back({"ka_partials_kernel", plan.row_programs * plan.split});
      launches.push_back({"ka_rows_kernel", plan.row_programs});
      if (element_out) {
        const Plan ap = apply_plan(plan);
        kernels += render_from("apply", with_sizes(ap, {{"BODY", strip_final_newlines(apply_body(ap))}, {"ORDER", apply_order(ap)},
                                                         {"ORDER_WHY", apply_order_why()}})) +
                   "\n\n";
        launches.push_back({"ka_apply_kernel", ap.row_programs * ap.steps});
        apply_warps = ap.warps;
      }
    } else {
      const std::string body = plan.variant == "registers" ? registers_body(plan) : loop_body(plan);
      kernels += render_from(plan.variant == "registers" ? "rows_registers" : "rows_loop",
                        with_sizes(plan, {{"BODY", strip_final_newlines(body)}})) +
                 "\n\n";
      launches.push_back({"ka_rows_kernel", plan.row_programs});
    }
    if (totals) {
      kernels += render("total", {{"PARAMS", params()}, {"PARTIALS", str(plan.row_programs)},
                                  {"STEP", str(total_step(plan))}, {"BODY", strip_final_newlines(total_body(plan))}}) +
                 "\n\n";
      launches.push_back({"ka_total_kernel", 1});
    }
    std::string launch_lines;
    for (const auto& [kernel, grid] : launches)
      launch_lines += render("launch_kernel", {{"KERNEL", kernel},
                                               {"GRID", str(grid)},
                                               {"NUM_WARPS", kernel == "ka_total_kernel"   ? "4"
                                                             : kernel == "ka_apply_kernel" ? str(apply_warps)
                                                                                           : str(plan.warps)}});
    Buffers b = buffers();
    // Workspaces: the split programs' partial results, the rows' reduced values for the apply kernel, the
    // rows' programs' partial totals. An unused one is passed as a tensor the kernels never touch.
    auto workspace = [&](const std::string& name, std::int64_t floats) {
      if (floats <= 0) return std::string("out0");
      b.allocs += render("alloc", {{"NAME", name}, {"SHAPE", py_tuple({floats})}, {"DTYPE", "float32"}, {"DEVICE", b.device}});
      return name;
    };
    std::string args = b.args;
    args += workspace("ws_part", plan.variant == "split" ? p_.rows() * plan.split * partial_count() : 0) + ", ";
    args += workspace("ws_row", plan.variant == "split" && element_out ? p_.rows() * result_count() : 0) + ", ";
    args += workspace("ws_total", totals ? plan.row_programs * total_count() : 0);
    const std::string launch = render("launch", {{"ARGS", args}, {"LAUNCHES", strip_final_newlines(launch_lines)}});
    return {"kernel", file_values(plan, kernels, b.allocs, launch, b.rets)};
  }

  // Example: InstanceNorm's 7168 rows of 262144 in chunks of 4096: 64 programs a row, each holding its
  // chunk in registers (one step of block_j 4096, 32 elements a thread at 4 warps).
  bool coop_valid(const Plan& plan, const GpuSpec* gpu) const {
    if (!gpu || plan.split < 2 || plan.block_k != 1 || p_.stages() != 1 || p_.has(Level::total)) return false;
    int row_reductions = 0;
    for (const auto& r : p_.reductions) row_reductions += r.level == Level::row;
    if (row_reductions != 1) return false;
    const std::int64_t sms = gpu->sm_count > 0 ? gpu->sm_count : 132;
    if (plan.split > 4 * sms) return false;
    if (plan.block_j > plan.chunk || plan.chunk % plan.block_j != 0 || plan.chunk_steps > 8) return false;
    // A chunk inside one run of the last reduced axis.
    if (plan.chunk > l_.j_in ? l_.j_out != 1 : l_.j_in % plan.chunk != 0 && l_.j_out != 1) return false;
    const std::int64_t per_thread = plan.block_j / (32 * plan.warps);
    return per_thread >= 4 && per_thread <= 32;
  }

  // The main input (the first element operand with no broadcast axis) is contiguous along the last kept axis.
  bool rows_contiguous() const {
    if (l_.kept_inner.empty()) return false;
    for (const auto& o : p_.operands) {
      if (o.level != Level::element) continue;
      bool full = true;
      for (std::size_t a = 0; a < p_.domain.size(); ++a)
        if (p_.domain[a] > 1 && o.strides[a] == 0) full = false;
      if (full) return o.strides[l_.kept_inner.back()] == 1;
    }
    return false;
  }

  bool has_element_operand() const {
    for (const auto& o : p_.operands)
      if (o.level == Level::element) return true;
    return false;
  }

  Plan plan_of(const Config& c) const {
    Plan plan;
    plan.variant = c.value("variant", std::string("registers"));
    plan.block_k = c.value("block_k", std::int64_t{1});
    plan.block_j = c.value("block_j", std::int64_t{1024});
    plan.split = c.value("split", std::int64_t{1});
    plan.warps = c.value("num_warps", std::int64_t{4});
    plan.eviction = c.value("eviction", std::string("none"));
    plan.k_blocks = cdiv(l_.k_in, plan.block_k);
    plan.j_blocks = cdiv(l_.j_in, plan.block_j);
    plan.steps = l_.j_out * plan.j_blocks;
    plan.row_programs = l_.k_out * plan.k_blocks;
    plan.split_steps = cdiv(plan.steps, std::max<std::int64_t>(plan.split, 1));
    if (plan.variant == "coop") {
      // The coop variant's row is shared by as many programs as chunks fit: program `part` holds positions
      // [part * chunk, (part + 1) * chunk).
      plan.chunk = c.value("chunk", std::int64_t{4096});
      plan.split = cdiv(p_.row_length(), plan.chunk);
      plan.chunk_steps = std::max<std::int64_t>(plan.chunk / plan.block_j, 1);
    }
    return plan;
  }

  // Outputs, workspaces and the kernel arguments every variant allocates the same way.
  struct Buffers {
    std::string allocs, args, rets, device;
  };
  Buffers buffers() const {
    Buffers b;
    b.device = p_.operands.front().base_expr;
    for (const auto& o : p_.operands) b.args += o.tensor_expr + ", ";
    for (std::size_t i = 0; i < p_.outputs.size(); ++i) {
      const Output& o = p_.outputs[i];
      b.allocs += render("alloc", {{"NAME", fmt::format("out{}", i)},
                                   {"SHAPE", py_tuple(o.shape)},
                                   {"DTYPE", o.dtype},
                                   {"DEVICE", b.device}});
      b.args += fmt::format("out{}, ", i);
      b.rets += (b.rets.empty() ? "" : ", ") + fmt::format("out{}", i);
    }
    return b;
  }

  std::map<std::string, std::string> file_values(const Plan& plan, const std::string& kernels, const std::string& allocs,
                                                 const std::string& launch, const std::string& rets) const {
    std::vector<std::size_t> reduced_axes;
    for (std::size_t a = 0; a < p_.domain.size(); ++a)
      if (p_.reduced[a]) reduced_axes.push_back(a);
    return {{"DOMAIN", fmt::format("[{}]", fmt::join(p_.domain, ", "))},
            {"REDUCED", fmt::format("{}", fmt::join(reduced_axes, ", "))},
            {"ROWS", str(p_.rows())},
            {"ROW_LENGTH", str(p_.row_length())},
            {"PLAN", plan_comment(plan)},
            {"KERNELS", strip_final_newlines(kernels)},
            {"ALLOCS", strip_final_newlines(allocs)},
            {"LAUNCH", strip_final_newlines(launch)},
            {"RETURN", p_.outputs.size() == 1 ? rets : "(" + rets + ")"}};
  }

  Emission coop_emission(const Plan& plan) const {
    Buffers b = buffers();
    const std::string args = b.args + "out0, out0, out0";  // the workspaces the coop kernel does not use
    const std::string kernels = render_from("coop", with_sizes(plan, {{"BODY", strip_final_newlines(coop_body(plan))}}));
    // With the reread hints (a chunk walked in steps, read again to write), the rows in flight are capped to
    // fit half the L2.
    const std::string rows_in_l2 =
        plan.eviction == "reread" ? "\n" + strip_final_newlines(render("launch_coop_rows_in_l2",
                                                                   {{"DEVICE", b.device}, {"ROW_BYTES", str(row_bytes_read())}}))
                             : "";
    const std::string launch = render("launch_coop", {{"ARGS", args},
                                                      {"ROWS", str(p_.rows())},
                                                      {"SLOTS", str(p_.rows() * plan.split)},
                                                      {"ROWS_IN_L2", rows_in_l2},
                                                      {"DEVICE", b.device},
                                                      {"NUM_WARPS", str(plan.warps)},
                                                      {"SPLIT", str(plan.split)}});
    return {"kernel", file_values(plan, kernels, b.allocs, launch, b.rets)};
  }

  // The partial result of the coop program's chunk as two fp32 (a, b), published in its slot; the row's
  // result folded from every part's.
  std::string coop_body(const Plan& plan) const {
    const Reduction* red = nullptr;
    for (const auto& r : p_.reductions)
      if (r.level == Level::row) red = &r;
    const Reduction& r = *red;
    Emitter e(p_, l_, Context::tile, 8, plan.chunk_steps == 1 ? plan.write_hint() : plan.reduce_hint());
    std::string out;
    e.line("ka_first = tl.zeros([1, 1], tl.int32)");
    if (r.op == ReduceOp::moments) e.line(fmt::format("{}_shift = {}", r.var, e.evaluate_at(r.input, "ka_first")));
    const bool held = plan.chunk_steps == 1;
    const std::int64_t vec = held ? misaligned_rows_vector(r) : 0;
    if (vec > 0) {
      // Rows not 16-byte aligned (65535 floats): the chunks tile the row's aligned body, from its first
      // 16-byte boundary to its last, so that every load and store of a chunk is a vector of `vec`; the at
      // most vec - 1 positions before and after the body (the edges) are part 0's, read and written one by one.
      // Scalars (Triton states a divisibility of a scalar, not of a [1, 1] tensor's).
      e.line(fmt::format("ka_k_in = row % {}", l_.k_in));
      e.line(fmt::format("ka_row = {}", l_.offset(l_.contiguous(), "k_out", "ka_k_in", "", "")));
      e.line(fmt::format("ka_head = ({0} - ka_row % {0}) % {0}", vec));
      e.line(fmt::format("ka_tail = (ka_row + {}) % {}", l_.j_in, vec));
      e.line(fmt::format("ka_body = tl.multiple_of({} - ka_head - ka_tail, {})", l_.j_in, vec));
      e.line("flat = first");
      e.line("j_out = k_out * 0");
      e.line(fmt::format("j_in = ka_head + flat + tl.arange(0, {})[None, :]", plan.block_j));
      e.line(fmt::format("ka_at = tl.multiple_of(ka_row + ka_head, {}) + flat + tl.arange(0, {})[None, :]", vec,
                         plan.block_j));
      e.line(fmt::format("mask = row_ok & (flat + tl.arange(0, {})[None, :] < ka_body)", plan.block_j));
      e.line(fmt::format("ka_e = tl.arange(0, {})[None, :]", 2 * vec));
      e.line(fmt::format("ka_edge = tl.where(ka_e < {0}, ka_e, {1} - {2} + ka_e)", vec, l_.j_in, 2 * vec));
      e.line(fmt::format("ka_edge_live = row_ok & (part == 0) & tl.where(ka_e < {0}, ka_e < ka_head, ka_e >= {1} - ka_tail)",
                         vec, 2 * vec));
      e.read_elements_at("ka_at");
      const std::string v = e.need(r.input);
      const std::string ve = e.evaluate_at(r.input, "ka_edge");
      switch (r.op) {
        case ReduceOp::sum:
        case ReduceOp::max:
        case ReduceOp::min: {
          const std::string f = tl_reduce(r.op), id = identity_of(r.op);
          const std::string main = fmt::format("{}(tl.where(mask, {}, {}))", f, v, id);
          const std::string edge = fmt::format("{}(tl.where(ka_edge_live, {}, {}))", f, ve, id);
          e.line(r.op == ReduceOp::sum ? fmt::format("{}_a = {} + {}", r.var, main, edge)
                                       : fmt::format("{}_a = {}({}, {})", r.var,
                                                     r.op == ReduceOp::max ? "_max_nan" : "_min_nan", main, edge));
          e.line(fmt::format("{0}_b = tl.zeros_like({0}_a)", r.var));
          break;
        }
        case ReduceOp::moments:
          e.line(fmt::format("{0}_d = tl.where(mask, {1} - {0}_shift, 0.0)", r.var, v));
          e.line(fmt::format("{0}_de = tl.where(ka_edge_live, {1} - {0}_shift, 0.0)", r.var, ve));
          e.line(fmt::format("{0}_a = tl.sum({0}_d) + tl.sum({0}_de)", r.var));
          e.line(fmt::format("{0}_b = tl.sum({0}_d * {0}_d) + tl.sum({0}_de * {0}_de)", r.var));
          break;
        case ReduceOp::logsumexp:
          throw std::logic_error("misaligned_rows_vector excludes logsumexp");
      }
    } else if (held) {
      // The chunk in registers: read once, written from what is held.
      e.line("flat = first");
      e.line(fmt::format("j_out = k_out * 0 + flat // {}  # 64-bit, like k_out", l_.j_in));
      e.line(fmt::format("j_in = {} + tl.arange(0, {})[None, :]", flat_in_row(plan, "flat"), plan.block_j));
      e.line(fmt::format("mask = row_ok & (j_in < {}) & (flat + tl.arange(0, {})[None, :] < {})", l_.j_in, plan.block_j,
                         p_.row_length()));
      const std::string v = e.need(r.input);
      switch (r.op) {
        case ReduceOp::sum:
        case ReduceOp::max:
        case ReduceOp::min:
          e.line(fmt::format("{}_a = {}(tl.where(mask, {}, {}))", r.var, tl_reduce(r.op), v, identity_of(r.op)));
          e.line(fmt::format("{0}_b = tl.zeros_like({0}_a)", r.var));
          break;
        case ReduceOp::moments:
          e.line(fmt::format("{0}_d = tl.where(mask, {1} - {0}_shift, 0.0)", r.var, v));
          e.line(fmt::format("{0}_a = tl.sum({0}_d)", r.var));
          e.line(fmt::format("{0}_b = tl.sum({0}_d * {0}_d)", r.var));
          break;
        case ReduceOp::logsumexp:
          e.line(fmt::format("{}_a = tl.max(tl.where(mask, {}, float(\"-inf\")))", r.var, v));
          e.line(fmt::format("{0}_b = tl.sum(tl.where(mask, tl.exp({1} - {2}), 0.0))", r.var, v, lse_shift(r.var + "_a")));
          break;
      }
    } else {
      init_accumulators(e, r, Plan{.block_k = 1, .block_j = plan.block_j});
      out += e.take();
      Emitter body(p_, l_, Context::tile, 12, plan.reduce_hint());
      body.import_rows(e);
      accumulate(body, r, body.need(r.input));
      out += coop_pass(plan, body.take(), false);
      fold_accumulators(e, r);
      if (r.op == ReduceOp::moments) {
        e.line(fmt::format("{0}_a = tl.sum({0}_s1)", r.var));
        e.line(fmt::format("{0}_b = tl.sum({0}_s2)", r.var));
      } else if (r.op == ReduceOp::logsumexp) {
        e.line(fmt::format("{0}_a = tl.max({0}_m)", r.var));
        e.line(fmt::format("{0}_b = tl.sum({0}_s)", r.var));
      } else {
        e.line(fmt::format("{0}_a = {1}({0})", r.var, tl_reduce(r.op)));
        e.line(fmt::format("{0}_b = tl.zeros_like({0}_a)", r.var));
      }
    }
    // Publish (a, b) as one word and wait for the row's other parts.
    e.line(fmt::format("slots = ka_slots_ptr + row.to(tl.int64) * {}", plan.split));
    e.line(fmt::format("word = ({0}_a.to(tl.int32, bitcast=True).to(tl.int64) << 32) | "
                       "({0}_b.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF)",
                       r.var));
    e.line("tl.atomic_xchg(slots + part, word, sem=\"relaxed\", scope=\"gpu\")");
    e.line("w = ka_wait_slots(slots + parts, part_live)");
    e.line(fmt::format("{}_pa = tl.where(part_live, (w >> 32).to(tl.int32).to(tl.float32, bitcast=True), {})", r.var,
                       identity_of(r.op == ReduceOp::moments ? ReduceOp::sum : r.op)));
    e.line(fmt::format("{}_pb = tl.where(part_live, w.to(tl.int32).to(tl.float32, bitcast=True), 0.0)", r.var));
    switch (r.op) {
      case ReduceOp::sum:
      case ReduceOp::max:
      case ReduceOp::min:
        e.line(fmt::format("{0} = {1}({0}_pa)", r.var, tl_reduce(r.op)));
        break;
      case ReduceOp::moments:
        e.line(fmt::format("{0}_s1 = tl.sum({0}_pa)", r.var));
        e.line(fmt::format("{0}_s2 = tl.sum({0}_pb)", r.var));
        finish_reduction(e, r);
        break;
      case ReduceOp::logsumexp:
        e.line(fmt::format("{0}_m = tl.max({0}_pa)", r.var));
        e.line(fmt::format("{0}_s = tl.sum({0}_pb * tl.exp({0}_pa - {1}))", r.var, lse_shift(r.var + "_m")));
        finish_reduction(e, r);
        break;
    }
    if (vec > 0) {
      // The body from the registers, in vectors; the edges at their positions.
      element_stores(e, "ka_at", "ka_edge");
    } else if (held) {
      element_stores(e);
    } else if (p_.has(Level::element, true)) {
      out += e.take();
      Emitter apply(p_, l_, Context::tile, 12, plan.write_hint());
      apply.import_rows(e);
      element_stores(apply, "", "", plan.store_hint());
      out += coop_pass(plan, apply.take(), true);
    }
    // Once: the first row's first part; each row's stores from its first part.
    row_tail(e, plan.row_programs, "(row == 0) & (part == 0)", "row_ok & (part == 0)");
    return out + e.take();
  }

  // The bytes of a row that its element operands read where they vary along it (a walked coop chunk reads
  // them again to write).
  std::int64_t row_bytes_read() const {
    std::int64_t bytes = 0;
    for (const auto& o : p_.operands)
      if (o.level == Level::element && l_.varies(o.strides, l_.reduced_inner)) bytes += dtype_bytes(o.dtype);
    return bytes * p_.row_length();
  }

  static std::int64_t dtype_bytes(const std::string& dtype) {
    if (dtype == "float64" || dtype == "int64") return 8;
    if (dtype == "float16" || dtype == "bfloat16" || dtype == "int16") return 2;
    if (dtype == "int8" || dtype == "uint8" || dtype == "bool") return 1;
    return 4;
  }

  // The vector width, in elements, of the coop chunks of rows that are not 16-byte aligned, read in aligned
  // vectors from each row's first 16-byte boundary; 0 where the rows are aligned or the form does not apply:
  // one reduced axis run (no reduced outer index), every element operand and output of one element size and
  // laid out as the domain's contiguous strides, a sum, max, min or moments.
  std::int64_t misaligned_rows_vector(const Reduction& r) const {
    if (l_.j_out != 1 || l_.reduced_inner.empty() || r.op == ReduceOp::logsumexp) return 0;
    const std::vector<std::int64_t> contiguous = l_.contiguous();
    std::int64_t bytes = 0;
    auto same_size = [&](const std::string& dtype) {
      const std::int64_t b = dtype_bytes(dtype);
      if (bytes == 0) bytes = b;
      return b == bytes;
    };
    for (const auto& o : p_.operands) {
      if (o.level != Level::element) continue;
      if (!l_.varies(o.strides, l_.reduced_inner)) continue;  // read once a row
      for (std::size_t a = 0; a < l_.domain.size(); ++a)
        if (l_.domain[a] > 1 && o.strides[a] != contiguous[a]) return 0;
      if (!same_size(o.dtype)) return 0;
    }
    for (const auto& o : p_.outputs)
      if (o.level == Level::element && !same_size(o.dtype)) return 0;
    if (bytes == 0 || 16 % bytes != 0) return 0;
    const std::int64_t vec = 16 / bytes;
    return vec > 1 && l_.j_in % vec != 0 && l_.j_in >= 2 * vec ? vec : 0;
  }

  // A coop chunk's first position along the inner reduced axis, `flat % J_IN`. Triton's analysis loses the
  // divisibility of a remainder, and with it the vector width of every load and store of the chunk (scalar
  // 4-byte accesses where 16-byte ones were possible): flat is a multiple of the chunk and of the step, so
  // the remainder is one of their gcd with J_IN, which is stated.
  std::string flat_in_row(const Plan& plan, const std::string& flat) const {
    const std::int64_t d = std::gcd(std::gcd(plan.chunk, plan.block_j), l_.j_in);
    const std::string rem = fmt::format("{} % {}", flat, l_.j_in);
    return d > 1 ? fmt::format("tl.multiple_of({}, {})", rem, d) : rem;
  }

  // A walk over the program's chunk in steps of block_j. The pass that writes walks it backwards: the steps the
  // reduction read last are the likeliest to be in L2 still.
  std::string coop_pass(const Plan& plan, const std::string& body, bool backwards) const {
    return render("coop_pass", {{"CHUNK_STEPS", str(plan.chunk_steps)},
                                {"STEP", backwards ? fmt::format("({} - t)", plan.chunk_steps - 1) : "t"},
                                {"BLOCK_J", str(plan.block_j)},
                                {"J_IN", str(l_.j_in)},
                                {"J_START", flat_in_row(plan, "flat")},
                                {"ROW_LENGTH", str(p_.row_length())},
                                {"BODY", strip_final_newlines(body)}}) +
           "\n";
  }

  std::string plan_comment(const Plan& plan) const {
    if (plan.variant == "registers")
      return fmt::format("Each program holds {} row(s) whole in registers: the input is read once.", plan.block_k);
    if (plan.variant == "loop")
      return fmt::format("Each program walks {} row(s) in {} steps of {}: once per stage of reductions{}.", plan.block_k,
                         plan.steps, plan.block_j, p_.has(Level::element, true) ? ", once more to write" : "");
    if (plan.variant == "coop")
      return fmt::format("{} co-resident programs share each row, each holding {} of its positions, and exchange their "
                         "partial results{}.",
                         plan.split, plan.chunk,
                         plan.chunk_steps == 1 ? ": the input is read once" : " (each reads its chunk again to write)");
    return fmt::format("{} programs share each row and write partial results; a second kernel folds them{}.",
                       plan.split, p_.has(Level::element, true) ? " and a third writes the elements" : "");
  }

  // The sizes every kernel template draws on, with the kernel's own values.
  std::map<std::string, std::string> with_sizes(const Plan& plan, std::map<std::string, std::string> v) const {
    v["PARAMS"] = params();
    v["BLOCK_K"] = str(plan.block_k);
    v["K_BLOCKS"] = str(plan.k_blocks);
    v["K_IN"] = str(l_.k_in);
    v["BLOCK_J"] = str(plan.block_j);
    v["J_IN"] = str(l_.j_in);
    v["J_BLOCKS"] = str(plan.j_blocks);
    v["STEPS"] = str(plan.steps);
    v["SPLIT"] = str(plan.split);
    v["SPLIT_P2"] = str(pow2_at_least(plan.split));
    v["SPLIT_STEPS"] = str(plan.split_steps);
    v["ROW_PROGRAMS"] = str(plan.row_programs);
    v["CHUNK"] = str(plan.chunk);
    v["CHUNK_STEPS"] = str(plan.chunk_steps);
    return v;
  }

  // Every kernel takes the same parameters: the operands, the outputs, the three workspaces.
  std::string params() const {
    std::string out;
    for (const auto& o : p_.operands) out += o.ptr + ", ";
    for (std::size_t i = 0; i < p_.outputs.size(); ++i) out += fmt::format("out{}_ptr, ", i);
    return out + "ws_part_ptr, ws_row_ptr, ws_total_ptr";
  }

  std::size_t partial_count() const {
    std::size_t n = 0;
    for (const auto& r : p_.reductions)
      if (r.level == Level::row) n += partial_slots(r).size();
    return n;
  }
  std::size_t result_count() const {
    std::size_t n = 0;
    for (const auto& r : p_.reductions)
      if (r.level == Level::row) n += result_vars(r).size();
    return n;
  }
  std::size_t total_count() const {
    std::size_t n = 0;
    for (const auto& r : p_.reductions)
      if (r.level == Level::total) ++n;
    return n;
  }

  std::string length() const { return fmt::format("{}.0", p_.row_length()); }

  // ---- the tail every rows kernel ends with --------------------------------------------------------------

  // Row outputs, row updates, the partial totals of this program's rows and (without a total kernel) the
  // total updates. `writer` masks the rows' stores: where several programs share a row (coop), only one may
  // write, since an update reads the value it replaces (a running mean updated twice is wrong).
  // `partials`: the rows' programs, each writing one partial result of every total; the total kernel reads
  // slot s of them as one contiguous run (slot * partials + pid), in whole vectors.
  void row_tail(Emitter& e, std::int64_t partials, const std::string& once = "pid == 0",
                const std::string& writer = "row_ok") const {
    for (std::size_t i = 0; i < p_.outputs.size(); ++i) {
      const Output& o = p_.outputs[i];
      if (o.level != Level::row) continue;
      const std::string v = e.need(o.value);
      e.line(fmt::format("tl.store(out{0}_ptr + (k_out * {1} + k_in), {2}.to(out{0}_ptr.dtype.element_ty), mask={3})",
                         i, l_.k_in, v, writer));
    }
    for (const auto& u : p_.updates) {
      if (u.level != Level::row) continue;
      const Operand& o = p_.operand(u.operand);
      e.line(fmt::format("tl.store({} + {}, {}.to({}.dtype.element_ty), mask={})", o.ptr,
                         l_.offset(o.strides, "k_out", "k_in", "", ""), e.need(u.value), o.ptr, writer));
    }
    std::size_t slot = 0;
    for (const auto& r : p_.reductions) {
      if (r.level != Level::total) continue;
      const std::string v = e.need(r.input);
      e.line(fmt::format("tl.store(ws_total_ptr + {}pid, {}(tl.where(row_ok, {}, {})))", slot_offset(slot++, partials),
                         tl_reduce(r.op), v, identity_of(r.op)));
    }
    if (!p_.has(Level::total)) {
      for (const auto& u : p_.updates) {
        if (u.level != Level::total) continue;
        const Operand& o = p_.operand(u.operand);
        const std::string v = e.need(u.value);  // its lines first, outside the branch
        e.line("if " + once + ":");
        e.line(fmt::format("    tl.store({}, {}.to({}.dtype.element_ty))", o.ptr, v, o.ptr));
      }
    }
  }

  // The element outputs of the tile, at the tile's offsets or at `at` (a whole offset, as the emitter reads
  // them: read_elements_at); and with `edge`, those at the flat positions it holds too, where ka_edge_live.
  // `hint`: the stores' L2 eviction policy ("" none).
  void element_stores(Emitter& e, const std::string& at = "", const std::string& edge = "",
                      const std::string& hint = "") const {
    const std::string policy = hint.empty() ? "" : fmt::format(", eviction_policy=\"{}\"", hint);
    for (std::size_t i = 0; i < p_.outputs.size(); ++i) {
      const Output& o = p_.outputs[i];
      if (o.level != Level::element) continue;
      const std::string v = e.need(o.value);
      // Rows of one element have no column offset: the pointer is widened to the tile, as its mask is.
      std::string where = at.empty() ? l_.offset(l_.contiguous(), "k_out", "k_in", "j_out", "j_in") : at;
      if (where.find("j_in") == std::string::npos && at.empty()) where += " + 0 * j_in";
      e.line(fmt::format("tl.store(out{0}_ptr + {1}, {2}.to(out{0}_ptr.dtype.element_ty), mask=mask{3})", i, where, v,
                         policy));
      if (!edge.empty())
        e.line(fmt::format("tl.store(out{0}_ptr + {1}, {2}.to(out{0}_ptr.dtype.element_ty), mask={3}_live)", i,
                           l_.offset_flat_j(l_.contiguous(), "k_out", "k_in", edge), e.evaluate_at(o.value, edge), edge));
    }
  }

  // ---- registers: the whole row in one tile --------------------------------------------------------------

  std::string registers_body(const Plan& plan) const {
    Emitter e(p_, l_, Context::tile, 4, plan.write_hint());
    for (int stage = 1; stage <= p_.stages(); ++stage)
      for (std::size_t i = 0; i < p_.reductions.size(); ++i) {
        const Reduction& r = p_.reductions[i];
        if (r.level != Level::row || p_.stage_of(static_cast<int>(i)) != stage) continue;
        const std::string v = e.need(r.input);
        switch (r.op) {
          case ReduceOp::sum:
          case ReduceOp::max:
          case ReduceOp::min:
            e.line(fmt::format("{} = {}(tl.where(mask, {}, {}), axis=1, keep_dims=True)", r.var, tl_reduce(r.op), v,
                               identity_of(r.op)));
            break;
          case ReduceOp::moments:
            // Exact two passes over the registers: the mean, then the squared deviations from it.
            e.line(fmt::format("{}_mean = tl.sum(tl.where(mask, {}, 0.0), axis=1, keep_dims=True) / {}", r.var, v, length()));
            e.line(fmt::format("{0}_d = tl.where(mask, {1} - {0}_mean, 0.0)", r.var, v));
            e.line(fmt::format("{0}_m2 = tl.sum({0}_d * {0}_d, axis=1, keep_dims=True)", r.var));
            break;
          case ReduceOp::logsumexp:
            e.line(fmt::format("{}_m = tl.max(tl.where(mask, {}, float(\"-inf\")), axis=1, keep_dims=True)", r.var, v));
            e.line(fmt::format("{}_sh = {}", r.var, lse_shift(r.var + "_m")));
            e.line(fmt::format("{0}_ls = tl.log(tl.sum(tl.where(mask, tl.exp({1} - {0}_sh), 0.0), axis=1, keep_dims=True))",
                               r.var, v));
            e.line(fmt::format("{0}_lse = {0}_sh + {0}_ls", r.var));
            break;
        }
      }
    element_stores(e);
    row_tail(e, plan.row_programs);
    return e.take();
  }

  // ---- loop: a pass per stage, then a pass that writes ---------------------------------------------------

  // Accumulator lines of a reduction inside a pass (`v` its input in the tile).
  static void accumulate(Emitter& e, const Reduction& r, const std::string& v) {
    switch (r.op) {
      case ReduceOp::sum:
        e.line(fmt::format("acc_{} += tl.where(mask, {}, 0.0)", r.var, v));
        break;
      case ReduceOp::max:
        e.line(fmt::format("acc_{0} = _max_nan(acc_{0}, tl.where(mask, {1}, float(\"-inf\")))", r.var, v));
        break;
      case ReduceOp::min:
        e.line(fmt::format("acc_{0} = _min_nan(acc_{0}, tl.where(mask, {1}, float(\"inf\")))", r.var, v));
        break;
      case ReduceOp::moments:
        // Sums shifted by the row's first value: no cancellation between a large mean and a small variance.
        e.line(fmt::format("{0}_d = tl.where(mask, {1} - {0}_shift, 0.0)", r.var, v));
        e.line(fmt::format("acc_{0}_s1 += {0}_d", r.var));
        e.line(fmt::format("acc_{0}_s2 += {0}_d * {0}_d", r.var));
        break;
      case ReduceOp::logsumexp:
        e.line(fmt::format("{0}_step = tl.max(tl.where(mask, {1}, float(\"-inf\")), axis=1, keep_dims=True)", r.var, v));
        e.line(fmt::format("{0}_new = tl.maximum({0}_m, {0}_step)", r.var));
        e.line(fmt::format("{0}_lse_shift = {1}", r.var, lse_shift(r.var + "_new")));
        e.line(fmt::format("{0}_s = {0}_s * tl.exp({0}_m - {0}_lse_shift) + tl.sum(tl.where(mask, tl.exp({1} - {0}_lse_shift), 0.0), axis=1, keep_dims=True)",
                           r.var, v));
        e.line(fmt::format("{0}_m = {0}_new", r.var));
        break;
    }
  }

  static void init_accumulators(Emitter& e, const Reduction& r, const Plan& plan) {
    const std::string shape = fmt::format("[{}, {}]", plan.block_k, plan.block_j);
    switch (r.op) {
      case ReduceOp::sum:
      case ReduceOp::max:
      case ReduceOp::min:
        e.line(fmt::format("acc_{} = tl.full({}, {}, tl.float32)", r.var, shape, identity_of(r.op)));
        break;
      case ReduceOp::moments:
        e.line(fmt::format("acc_{}_s1 = tl.zeros({}, tl.float32)", r.var, shape));
        e.line(fmt::format("acc_{}_s2 = tl.zeros({}, tl.float32)", r.var, shape));
        break;
      case ReduceOp::logsumexp:
        e.line(fmt::format("{}_m = tl.full([{}, 1], float(\"-inf\"), tl.float32)", r.var, plan.block_k));
        e.line(fmt::format("{}_s = tl.zeros([{}, 1], tl.float32)", r.var, plan.block_k));
        break;
    }
  }

  // The reductions' values from their accumulators, as [BLOCK_K, 1] per row: the partial results of a split
  // program, or the whole row's.
  static void fold_accumulators(Emitter& e, const Reduction& r) {
    switch (r.op) {
      case ReduceOp::sum:
      case ReduceOp::max:
      case ReduceOp::min:
        e.line(fmt::format("{0} = {1}(acc_{0}, axis=1, keep_dims=True)", r.var, tl_reduce(r.op)));
        break;
      case ReduceOp::moments:
        e.line(fmt::format("{0}_s1 = tl.sum(acc_{0}_s1, axis=1, keep_dims=True)", r.var));
        e.line(fmt::format("{0}_s2 = tl.sum(acc_{0}_s2, axis=1, keep_dims=True)", r.var));
        break;
      case ReduceOp::logsumexp:
        break;  // m and s are per row already
    }
  }

  // mean and m2 of a moments reduction from the shifted sums, lse from the running max and sum.
  void finish_reduction(Emitter& e, const Reduction& r) const {
    if (r.op == ReduceOp::moments) {
      e.line(fmt::format("{0}_mean = {0}_shift + {0}_s1 / {1}", r.var, length()));
      e.line(fmt::format("{0}_m2 = tl.maximum({0}_s2 - {0}_s1 * {0}_s1 / {1}, 0.0)", r.var, length()));
    } else if (r.op == ReduceOp::logsumexp) {
      e.line(fmt::format("{}_sh = {}", r.var, lse_shift(r.var + "_m")));
      e.line(fmt::format("{0}_ls = tl.log({0}_s)", r.var));
      e.line(fmt::format("{0}_lse = {0}_sh + {0}_ls", r.var));
    }
  }

  std::string pass(const std::string& template_name, const Plan& plan, const std::string& body) const {
    return render(template_name, {{"STEPS", str(plan.steps)},
                                  {"J_BLOCKS", str(plan.j_blocks)},
                                  {"BLOCK_J", str(plan.block_j)},
                                  {"J_IN", str(l_.j_in)},
                                  {"BODY", strip_final_newlines(body)}});
  }

  std::string loop_body(const Plan& plan) const {
    Emitter rows(p_, l_, Context::tile, 4, plan.reduce_hint());
    std::string out;
    rows.line(fmt::format("ka_first = tl.zeros([{}, 1], tl.int32)", plan.block_k));
    for (int stage = 1; stage <= p_.stages(); ++stage) {
      std::vector<const Reduction*> here;
      for (std::size_t i = 0; i < p_.reductions.size(); ++i)
        if (p_.reductions[i].level == Level::row && p_.stage_of(static_cast<int>(i)) == stage)
          here.push_back(&p_.reductions[i]);
      for (const Reduction* r : here) {
        if (r->op == ReduceOp::moments) rows.line(fmt::format("{}_shift = {}", r->var, rows.evaluate_at(r->input, "ka_first")));
        init_accumulators(rows, *r, plan);
      }
      out += rows.take();
      Emitter body(p_, l_, Context::tile, 8, plan.reduce_hint());
      body.import_rows(rows);
      for (const Reduction* r : here) accumulate(body, *r, body.need(r->input));
      out += pass("pass_forward", plan, body.take()) + "\n";
      for (const Reduction* r : here) {
        fold_accumulators(rows, *r);
        finish_reduction(rows, *r);
      }
    }
    if (p_.has(Level::element, true)) {
      out += rows.take();
      Emitter apply(p_, l_, Context::tile, 8, plan.write_hint());
      apply.import_rows(rows);
      element_stores(apply, "", "", plan.store_hint());
      out += pass("pass_backward", plan, apply.take()) + "\n";
    }
    row_tail(rows, plan.row_programs);
    return out + rows.take();
  }

  // ---- split: partial results, folded per row; the elements written by the apply kernel ------------------

  std::string split_partials_body(const Plan& plan) const {
    Emitter rows(p_, l_, Context::tile, 4, plan.reduce_hint());
    rows.line(fmt::format("ka_first = tl.zeros([{}, 1], tl.int32)", plan.block_k));
    std::vector<const Reduction*> here;
    for (const auto& r : p_.reductions)
      if (r.level == Level::row) here.push_back(&r);
    for (const Reduction* r : here) {
      if (r->op == ReduceOp::moments) rows.line(fmt::format("{}_shift = {}", r->var, rows.evaluate_at(r->input, "ka_first")));
      init_accumulators(rows, *r, plan);
    }
    std::string out = rows.take();
    Emitter body(p_, l_, Context::tile, 8, plan.reduce_hint());
    body.import_rows(rows);
    for (const Reduction* r : here) accumulate(body, *r, body.need(r->input));
    out += render("pass_split", {{"SPLIT_STEPS", str(plan.split_steps)},
                                 {"STEPS", str(plan.steps)},
                                 {"J_BLOCKS", str(plan.j_blocks)},
                                 {"BLOCK_J", str(plan.block_j)},
                                 {"J_IN", str(l_.j_in)},
                                 {"BODY", strip_final_newlines(body.take())}}) +
           "\n";
    std::size_t slot = 0;
    const std::size_t n = partial_count();
    for (const Reduction* r : here) {
      fold_accumulators(rows, *r);
      for (const auto& var : partial_slots(*r))
        rows.line(fmt::format("tl.store(ws_part_ptr + (row * {} + split) * {} + {}, {}, mask=row_ok)", plan.split, n, slot++, var));
    }
    return out + rows.take();
  }

  std::string split_rows_body(const Plan& plan) const {
    Emitter e(p_, l_, Context::tile, 4, plan.write_hint());
    e.line(fmt::format("ka_first = tl.zeros([{}, 1], tl.int32)", plan.block_k));
    std::size_t slot = 0;
    const std::size_t n = partial_count();
    auto load = [&](const std::string& var, const std::string& fill) {
      e.line(fmt::format("{}_parts = tl.load(ws_part_ptr + (row * {} + parts) * {} + {}, mask=part_ok, other={})", var,
                         plan.split, n, slot++, fill));
    };
    for (const auto& r : p_.reductions) {
      if (r.level != Level::row) continue;
      switch (r.op) {
        case ReduceOp::sum:
        case ReduceOp::max:
        case ReduceOp::min:
          load(r.var, identity_of(r.op));
          e.line(fmt::format("{0} = {1}({0}_parts, axis=1, keep_dims=True)", r.var, tl_reduce(r.op)));
          break;
        case ReduceOp::moments:
          e.line(fmt::format("{}_shift = {}", r.var, e.evaluate_at(r.input, "ka_first")));
          load(r.var + "_s1", "0.0");
          load(r.var + "_s2", "0.0");
          e.line(fmt::format("{0}_s1 = tl.sum({0}_s1_parts, axis=1, keep_dims=True)", r.var));
          e.line(fmt::format("{0}_s2 = tl.sum({0}_s2_parts, axis=1, keep_dims=True)", r.var));
          finish_reduction(e, r);
          break;
        case ReduceOp::logsumexp:
          load(r.var + "_m", "float(\"-inf\")");
          load(r.var + "_s", "0.0");
          e.line(fmt::format("{0}_m = tl.max({0}_m_parts, axis=1, keep_dims=True)", r.var));
          e.line(fmt::format("{0}_s = tl.sum({0}_s_parts * tl.exp({0}_m_parts - {1}), axis=1, keep_dims=True)", r.var,
                             lse_shift(r.var + "_m")));
          finish_reduction(e, r);
          break;
      }
    }
    if (p_.has(Level::element, true)) {
      std::size_t k = 0;
      const std::size_t nr = result_count();
      for (const auto& r : p_.reductions)
        if (r.level == Level::row)
          for (const auto& var : result_vars(r))
            e.line(fmt::format("tl.store(ws_row_ptr + row * {} + {}, {}, mask=row_ok)", nr, k++, var));
    }
    row_tail(e, plan.row_programs);
    return e.take();
  }

  // The split variant's apply kernel is a pointwise pass over the elements, tiled on its own: a row a program
  // in steps of at most 1024 positions at 4 warps (8 elements a thread), as a pointwise kernel is; several rows
  // a program keep the reduction's tile. On the H100 (KernelBench 37, 1.9G floats) steps of 1024 at 4 warps ran
  // the pass in 4.93 ms, steps of 4096 in 5.00 ms (4 warps) and 4.96 ms (8 warps).
  Plan apply_plan(const Plan& plan) const {
    Plan ap = plan;
    if (plan.block_k == 1 && plan.block_j > 1024) {
      ap.block_j = 1024;
      ap.warps = 4;
      ap.j_blocks = cdiv(l_.j_in, ap.block_j);
      ap.steps = l_.j_out * ap.j_blocks;
    }
    return ap;
  }

  // An element operand that varies along the reduced axes and is the same for every row (a LayerNorm's weight).
  bool operand_shared_by_rows() const {
    if (p_.rows() <= 1) return false;
    std::vector<std::size_t> kept = l_.kept_outer, reduced = l_.reduced_outer;
    kept.insert(kept.end(), l_.kept_inner.begin(), l_.kept_inner.end());
    reduced.insert(reduced.end(), l_.reduced_inner.begin(), l_.reduced_inner.end());
    for (const auto& o : p_.operands)
      if (o.level == Level::element && l_.varies(o.strides, reduced) && !l_.varies(o.strides, kept)) return true;
    return false;
  }

  std::string apply_order_why() const {
    return operand_shared_by_rows()
               ? "The rows are the fastest axis of the grid: programs running\n    # together read the same columns of "
                 "an operand broadcast over the rows from L2."
               : "The grid walks the elements in memory order (programs running\n    # together stream neighbouring "
                 "lines), which ran BatchNorm's pass 2 % faster than rows first on the H100.";
  }

  // The program's row block and step. Rows first where an operand is shared by the rows; else the grid's four
  // axes (kept outer, kept inner blocks, reduced outer, reduced inner steps) nested as the domain nests them,
  // the innermost fastest.
  std::string apply_order(const Plan& ap) const {
    if (operand_shared_by_rows())
      return fmt::format("    block = pid % {0}\n    step = pid // {0}", ap.row_programs);
    struct Axis {
      std::string name;
      std::int64_t size;
      int position;  // the innermost domain axis of its group: larger is inner in memory
    };
    auto innermost = [](const std::vector<std::size_t>& g) { return g.empty() ? -1 : static_cast<int>(g.back()); };
    std::vector<Axis> axes = {{"ka_k_out", l_.k_out, innermost(l_.kept_outer)},
                              {"ka_k_blk", ap.k_blocks, innermost(l_.kept_inner)},
                              {"ka_j_out", l_.j_out, innermost(l_.reduced_outer)},
                              {"ka_j_blk", ap.j_blocks, innermost(l_.reduced_inner)}};
    std::stable_sort(axes.begin(), axes.end(), [](const Axis& a, const Axis& b) { return a.position > b.position; });
    std::map<std::string, std::string> index = {{"ka_k_out", "0"}, {"ka_k_blk", "0"}, {"ka_j_out", "0"}, {"ka_j_blk", "0"}};
    std::erase_if(axes, [](const Axis& a) { return a.size <= 1; });
    std::string out, rest = "pid";
    for (std::size_t i = 0; i < axes.size(); ++i) {
      index[axes[i].name] = axes[i].name;
      if (i + 1 == axes.size()) {
        out += fmt::format("    {} = {}\n", axes[i].name, rest);
        break;
      }
      out += fmt::format("    {} = {} % {}\n", axes[i].name, rest, axes[i].size);
      out += fmt::format("    ka_rest = {} // {}\n", rest, axes[i].size);
      rest = "ka_rest";
    }
    auto nest = [](const std::string& outer, std::int64_t inner_size, const std::string& inner) {
      if (outer == "0") return inner;
      const std::string scaled = fmt::format("{} * {}", outer, inner_size);
      return inner == "0" ? scaled : scaled + " + " + inner;
    };
    out += fmt::format("    block = {}\n", nest(index["ka_k_out"], ap.k_blocks, index["ka_k_blk"]));
    out += fmt::format("    step = {}", nest(index["ka_j_out"], ap.j_blocks, index["ka_j_blk"]));
    return out;
  }

  std::string apply_body(const Plan& plan) const {
    Emitter e(p_, l_, Context::tile, 4, plan.write_hint());
    std::size_t k = 0;
    const std::size_t nr = result_count();
    for (const auto& r : p_.reductions)
      if (r.level == Level::row)
        for (const auto& var : result_vars(r))
          e.line(fmt::format("{} = tl.load(ws_row_ptr + row * {} + {}, mask=row_ok, other=0.0)", var, nr, k++));
    for (const auto& r : p_.reductions)
      if (r.level == Level::row && r.op == ReduceOp::logsumexp) e.line(fmt::format("{0}_lse = {0}_sh + {0}_ls", r.var));
    element_stores(e);
    return e.take();
  }

  // ---- the total ----------------------------------------------------------------------------------------

  // Where slot `slot` of the partial totals starts ("" for the first), as a term of an offset.
  static std::string slot_offset(std::int64_t slot, std::int64_t partials) {
    return slot == 0 ? std::string() : fmt::format("{} + ", slot * partials);
  }

  // Partial results the total kernel folds a step: up to 4096 (32 a thread at its 4 warps), fewer steps for
  // the many rows' programs of short rows (65536 of a cross-entropy's, 64 steps of 1024 before), no wider
  // than the partials rounded up.
  static std::int64_t total_step(const Plan& plan) {
    return std::clamp<std::int64_t>(pow2_at_least(plan.row_programs), 128, 4096);
  }

  std::string total_body(const Plan& plan) const {
    Emitter e(p_, l_, Context::total, 4);
    // One walk over the partial results for every total at once, each total's slot a contiguous run.
    std::vector<const Reduction*> totals;
    for (const auto& r : p_.reductions)
      if (r.level == Level::total) totals.push_back(&r);
    for (const Reduction* r : totals)
      e.line(fmt::format("acc_{} = tl.full([{}], {}, tl.float32)", r->var, total_step(plan), identity_of(r->op)));
    e.line(fmt::format("for p0 in range(0, {}, {}):", plan.row_programs, total_step(plan)));
    e.line(fmt::format("    live = p0 + parts < {}", plan.row_programs));
    for (std::size_t slot = 0; slot < totals.size(); ++slot) {
      const Reduction& r = *totals[slot];
      e.line(fmt::format("    part = tl.load(ws_total_ptr + {}p0 + parts, mask=live, other={})",
                         slot_offset(static_cast<std::int64_t>(slot), plan.row_programs), identity_of(r.op)));
      if (r.op == ReduceOp::sum) e.line(fmt::format("    acc_{0} += part", r.var));
      else e.line(fmt::format("    acc_{0} = tl.{1}(acc_{0}, part)", r.var, r.op == ReduceOp::max ? "maximum" : "minimum"));
    }
    for (const Reduction* r : totals) e.line(fmt::format("{0} = {1}(acc_{0}, axis=0)", r->var, tl_reduce(r->op)));
    for (std::size_t i = 0; i < p_.outputs.size(); ++i) {
      const Output& o = p_.outputs[i];
      if (o.level != Level::total) continue;
      e.line(fmt::format("tl.store(out{0}_ptr, ({1}).to(out{0}_ptr.dtype.element_ty))", i, e.need(o.value)));
    }
    for (const auto& u : p_.updates) {
      if (u.level != Level::total) continue;
      const Operand& o = p_.operand(u.operand);
      e.line(fmt::format("tl.store({}, {}.to({}.dtype.element_ty))", o.ptr, e.need(u.value), o.ptr));
    }
    return e.take();
  }

  Program p_;
  Layout l_;
};

Recognition recognise(const Family& family, const TraceResult& trace) {
  auto r = lower(trace);
  if (auto* why = std::get_if<std::string>(&r)) return {nullptr, *why};
  return {std::make_shared<MapReduceProblem>(family, trace, std::get<Program>(std::move(r))), ""};
}

}  // namespace

KA_REGISTER_FAMILY(mapreduce, recognise);

}  // namespace kernelagent

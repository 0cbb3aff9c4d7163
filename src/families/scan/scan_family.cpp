// The scan family's recogniser: a cumulative sum or product along one dimension of a pointwise prologue,
// read forwards or backwards, inclusive or exclusive, and pointwise ops on the scan's result (an epilogue).
// Examples (KernelBench 89-93 write them so):
//   torch.cumsum(x, 1)                                  forwards, inclusive
//   torch.cumsum(x.flip(1), 1).flip(1)                  read backwards and written backwards: a suffix sum
//   torch.cat((zeros_like(x[:, :1]), torch.cumsum(x.narrow(1, 0, L - 1), 1)), 1)   exclusive
//   torch.cumsum(x * mask, 1)                           a prologue with a bool mask
//   torch.cumsum(x, 1) - x                              an epilogue reading an input at the written position
// The domain is the scanned sequence's shape [outer..., L, inner...]; position q of the scan reads the
// sequence at q (or L-1-q backwards, and one position earlier when exclusive) and writes at q (or L-1-q).

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "kernelagent/families/common/broadcast.hpp"
#include "kernelagent/families/common/leaves.hpp"
#include "kernelagent/families/common/pointwise_ops.hpp"
#include "kernelagent/families/family.hpp"
#include "kernelagent/families/model_wrapper.hpp"
#include "kernelagent/families/registry.hpp"

namespace kernelagent {

namespace {

// The scans the family computes, each with the texts its kernel is written from: the kernel's words for it,
// the identity, the combine of two values, the scan and the total of a block, and the helpers only its kernels
// carry (a template of families/scan/, or none).
struct ScanOp {
  const char* target;
  const char* what;
  const char* identity;
  const char* combine;
  const char* scan;
  const char* total;
  const char* helpers;
};

constexpr ScanOp kScanOps[] = {
    {"aten.cumsum.default", "cumulative-sum", "0.0", "ka_add", "tl.cumsum", "tl.sum", ""},
    {"aten.cumprod.default", "cumulative-product", "1.0", "ka_mul", "tl.cumprod", "ka_prod", ""},
    {"aten.logcumsumexp.default", "cumulative log-sum-exp", "float('-inf')", "ka_logaddexp", "ka_cum_logaddexp",
     "ka_logsumexp", "logaddexp"},
    {"aten.cummax.default", "running-maximum", "float('-inf')", "ka_max_nan", "ka_cummax", "ka_max_total", "extremes"},
    {"aten.cummin.default", "running-minimum", "float('inf')", "ka_min_nan", "ka_cummin", "ka_min_total", "extremes"},
};

const ScanOp* scan_op(const std::string& target) {
  for (const auto& op : kScanOps)
    if (target == op.target) return &op;
  return nullptr;
}

std::int64_t product(const std::vector<std::int64_t>& v, std::size_t from, std::size_t to) {
  std::int64_t n = 1;
  for (std::size_t i = from; i < to; ++i) n *= v[i];
  return n;
}

struct Leaf_ {
  std::string var, ptr, tensor_expr, dtype;
  std::vector<std::int64_t> strides;  // over the domain
  std::string base_expr;              // the tensor a slice's tensor_expr is part of (tensor_expr for the rest)
};

// A leaf as the kernel reads it: a slice of an input or parameter from where it starts (leaf_tensor_expr).
Leaf_ make_leaf(const OpGraph& g, const Leaf& leaf, const std::string& var, std::vector<std::int64_t> strides) {
  const std::string base = *owned_tensor_expr(g, leaf.base);
  return {var, var + "_ptr", leaf_tensor_expr(base, leaf.view), g.meta_of(leaf.base)->dtype, std::move(strides), base};
}

class ScanProblem final : public FamilyProblem {
 public:
  ScanProblem(const Family& f, const TraceResult& t) : FamilyProblem(f, t) {}

  const ScanOp* op = nullptr;
  std::vector<std::int64_t> domain;
  std::size_t dim = 0;
  std::int64_t outer = 1, length = 1, inner = 1;
  bool read_back = false, write_back = false, exclusive = false;
  std::vector<Leaf_> leaves;
  std::vector<const Node*> prologue;  // pointwise nodes in order
  // The epilogue: pointwise lines on the scanned value `scanned` at the written position, the leaves they
  // read (loaded at that position) and the variable the output is stored from.
  std::vector<std::string> epilogue;
  std::vector<Leaf_> epilogue_leaves;
  std::string result = "scanned";
  std::string value_ref;              // the sequence's value: a leaf or a prologue node
  std::map<std::string, std::string> alias;
  std::vector<std::int64_t> out_shape;
  std::string out_dtype;
  // The accumulator: fp32, or int64 for a sum or product of integers (PyTorch's cumsum of int32 or bool is
  // int64), or fp64 for a sum or product asked for in float64 (cumsum(x, dtype=torch.float64)).
  std::string acc = "tl.float32";

 protected:
  bool valid_config(const Config& c, const GpuSpec*, Precision) const override {
    const auto bl = c.at("block_l").get<std::int64_t>(), bi = c.at("block_i").get<std::int64_t>();
    const auto warps = c.at("num_warps").get<std::int64_t>();
    if ((inner == 1) != (bi == 1)) return false;
    if (bl * bi > 16384) return false;
    if (bl > std::max<std::int64_t>(pow2_at_least(length), 16) || bi > std::max<std::int64_t>(pow2_at_least(inner), 16))
      return false;
    const std::int64_t per_thread = bl * bi / (32 * warps);
    return (per_thread >= 1 || warps == 1) && per_thread <= 64;
  }

  Emission emission(const Config& c) const override {
    const auto bl = c.at("block_l").get<std::int64_t>(), bi = c.at("block_i").get<std::int64_t>();
    const std::vector<std::int64_t> outer_dims(domain.begin(), domain.begin() + static_cast<std::ptrdiff_t>(dim));
    const std::vector<std::int64_t> inner_dims(domain.begin() + static_cast<std::ptrdiff_t>(dim) + 1, domain.end());
    auto offset = [&](const std::vector<std::int64_t>& strides, const std::string& pos) {
      std::string sum;
      auto add = [&](const std::string& part) {
        if (part != "0") sum += (sum.empty() ? "" : " + ") + part;
      };
      add(flat_offset(outer_dims, std::vector<std::int64_t>(strides.begin(), strides.begin() + static_cast<std::ptrdiff_t>(dim)), "o"));
      // An input expanded along the scan (stride 0) still takes the block's mask: its pointer is widened to
      // the positions' block (the zero folds away).
      add(strides[dim] == 0 ? "0 * " + pos : strides[dim] == 1 ? pos : fmt::format("{} * {}", pos, strides[dim]));
      add(flat_offset(inner_dims, std::vector<std::int64_t>(strides.begin() + static_cast<std::ptrdiff_t>(dim) + 1, strides.end()),
                      "cols"));
      return sum.empty() ? std::string("0") : sum;
    };
    std::string params, args, body;
    std::map<std::string, std::string> var_of;
    for (const auto& l : leaves) {
      params += l.ptr + ", ";
      args += l.tensor_expr + ", ";
      body += fmt::format("        {} = tl.load({} + {}, mask=mask, other=0){}\n", l.var, l.ptr, offset(l.strides, "p"),
                          float_dtype(l.dtype) ? ".to(tl.float32)" : "");
      var_of[l.var] = l.var;
    }
    const OpGraph& g = trace().graph;
    auto resolve = [&](std::string ref) {
      while (alias.contains(ref)) ref = alias.at(ref);
      return ref;
    };
    OperandFn operand = [&](const Arg& a) -> std::optional<std::string> {
      if (a.kind != Arg::Kind::ref) return std::nullopt;
      const std::string ref = resolve(a.ref);
      if (auto it = leaf_var_.find(ref); it != leaf_var_.end()) return it->second;
      if (const auto* k = g.find_constant(ref); k && k->value) return float_literal(*k->value);
      return "v_" + ref;
    };
    for (const Node* n : prologue)
      body += fmt::format("        v_{} = {}  # {}\n", n->name, pointwise_expr(*n, operand, "tl.float32").expr, n->target);
    std::string epilogue_text;
    for (const auto& l : epilogue_leaves) {
      params += l.ptr + ", ";
      args += l.tensor_expr + ", ";
      epilogue_text += fmt::format("        {} = tl.load({} + {}, mask=written, other=0){}\n", l.var, l.ptr,
                                   offset(l.strides, "w"), float_dtype(l.dtype) ? ".to(tl.float32)" : "");
    }
    for (const auto& line : epilogue) epilogue_text += "        " + line + "\n";
    std::string value = leaf_var_.contains(value_ref) ? leaf_var_.at(value_ref) : "v_" + value_ref;
    const bool integer = acc == "tl.int64";
    if (acc != "tl.float32") value = fmt::format("{}.to({})", value, acc);
    // The identity in the accumulator's dtype: an integer literal keeps tl.where from promoting to float.
    const std::string identity = integer ? (std::string_view(op->identity) == "1.0" ? "1" : "0") : op->identity;
    // Position q of the scan reads the sequence at p and writes at w.
    std::string read_at = read_back ? fmt::format("{} - q", length - 1) : "q";
    if (exclusive) read_at = read_back ? fmt::format("{} - q", length) : "q - 1";
    const std::string write_at = write_back ? fmt::format("{} - q", length - 1) : "q";
    const auto contiguous = StridedView::contiguous(domain).stride;
    while (!body.empty() && body.back() == '\n') body.pop_back();
    return {"kernel",
            {{"OP", op->what},
             {"ROWS", std::to_string(outer * inner)},
             {"LENGTH", std::to_string(length)},
             {"FORM", std::string(read_back ? ", read backwards" : "") + (write_back ? ", written backwards" : "") +
                          (exclusive ? ", exclusive" : "") +
                          (epilogue.empty() ? "" : ", then pointwise ops on the result")},
             {"PARAMS", params},
             {"READ_AT", read_at},
             {"WRITE_AT", write_at},
             {"COL_BLOCKS", std::to_string(cdiv(inner, bi))},
             {"BLOCK_I", std::to_string(bi)},
             {"BLOCK_L", std::to_string(bl)},
             {"INNER", std::to_string(inner)},
             {"IDENTITY", identity},
             {"ACC", acc},
             {"BODY", body},
             {"VALUE", value},
             {"COMBINE", op->combine},
             {"SCAN", op->scan},
             {"TOTAL", op->total},
             {"SCAN_HELPERS", *op->helpers ? "\n\n\n" + helpers(op->helpers) : ""},
             {"OUT_OFFSET", offset(contiguous, "w")},
             {"EPILOGUE", epilogue_text},
             {"RESULT", result},
             {"OUT_SHAPE", py_tuple(out_shape)},
             {"OUT_DTYPE", out_dtype},
             {"DEVICE", leaves.front().base_expr},
             {"PROGRAMS", std::to_string(outer * cdiv(inner, bi))},
             {"ARGS", args},
             {"NUM_WARPS", std::to_string(c.at("num_warps").get<int>())}}};
  }

  // The combine, scan and total of logcumsumexp (logaddexp) or cummax and cummin (extremes), only in their
  // kernels, without the newline the file ends with.
  std::string helpers(const std::string& name) const {
    std::string h = render(name, {});
    while (!h.empty() && h.back() == '\n') h.pop_back();
    return h;
  }

 public:
  std::map<std::string, std::string> leaf_var_;  // leaf ref -> its variable
};

Recognition fail(std::string why) { return {nullptr, std::move(why)}; }

// The zero of an exclusive scan's shift: `cat` puts one zero (zeros_like or zeros, one position long along
// `dim`) before one other tensor along `dim`. Null when it is any other cat.
const Node* leading_zero(const OpGraph& g, const Node& cat, std::size_t dim) {
  auto parts = cat.arg(0, "tensors");
  if (!parts || parts->kind != Arg::Kind::list || parts->items.size() != 2) return nullptr;
  if (parts->items[0].kind != Arg::Kind::ref || parts->items[1].kind != Arg::Kind::ref) return nullptr;
  const auto rank = static_cast<std::int64_t>(cat.meta.shape.size());
  std::int64_t d = int_arg(cat, 1, "dim").value_or(0);
  if (d < 0) d += rank;
  if (d != static_cast<std::int64_t>(dim)) return nullptr;
  const Node* zero = g.find_node(parts->items[0].ref);
  if (!zero || (zero->target != "aten.zeros_like.default" && zero->target != "aten.zeros.default") ||
      static_cast<std::int64_t>(zero->meta.shape.size()) != rank || zero->meta.shape[dim] != 1)
    return nullptr;
  return zero;
}

// A node that only reverses `dim` of its input: aten.flip(x, [dim]).
bool flips(const Node& n, std::size_t dim, std::size_t rank) {
  if (n.target != "aten.flip.default") return false;
  auto dims = n.arg(1, "dims");
  if (!dims || dims->kind != Arg::Kind::list || dims->items.size() != 1 || !dims->items[0].is_number()) return false;
  auto d = static_cast<std::int64_t>(dims->items[0].number());
  if (d < 0) d += static_cast<std::int64_t>(rank);
  return d == static_cast<std::int64_t>(dim);
}

// The epilogue's lines over the scanned domain: `tail` (the scan's result at the written position) is
// `scanned`, each op a variable e_NAME, the leaves loaded at the written position. Empty, or why not.
std::string lower_epilogue(ScanProblem& p, const OpGraph& g, const Leaves& leaves, const std::vector<const Node*>& epilogue,
                           const std::string& tail) {
  if (epilogue.empty()) return "";
  const auto tail_meta = g.meta_of(tail);
  if (!tail_meta || tail_meta->shape != p.domain) return "the scan's result is not over the scanned sequence's shape";
  std::map<std::string, std::string> var_of = {{tail, "scanned"}};
  std::string error;
  OperandFn operand = [&](const Arg& a) -> std::optional<std::string> {
    if (a.kind != Arg::Kind::ref) return std::nullopt;
    if (auto v = var_of.find(a.ref); v != var_of.end()) return v->second;
    if (const Leaf* leaf = leaves.find(a.ref)) {
      auto strides = broadcast_strides(leaf->view, p.domain);
      if (!strides) {
        error = fmt::format("{} of shape [{}] does not broadcast to the scan's result [{}]", a.ref,
                            fmt::join(leaf->view.shape, ","), fmt::join(p.domain, ","));
        return std::nullopt;
      }
      const std::string var = fmt::format("y_{}", a.ref);
      p.epilogue_leaves.push_back(make_leaf(g, *leaf, var, *strides));
      var_of[a.ref] = var;
      return var;
    }
    if (const auto* k = g.find_constant(a.ref); k && k->value) return float_literal(*k->value);
    error = fmt::format("{} is computed before the scan and read after it", a.ref);
    return std::nullopt;
  };
  for (const Node* n : epilogue) {
    if (n->meta.shape != p.domain)
      return fmt::format("{} ({}) after the scan is computed over [{}], not over the scan's result [{}]", n->name,
                         n->target, fmt::join(n->meta.shape, ","), fmt::join(p.domain, ","));
    if (is_identity_view(n->target) && !n->args.empty() && n->args[0].kind == Arg::Kind::ref && var_of.contains(n->args[0].ref)) {
      var_of[n->name] = var_of.at(n->args[0].ref);
      continue;
    }
    auto e = pointwise_expr(*n, operand, "tl.float32");
    if (!error.empty()) return error;
    if (e.expr.empty()) return n->name + " (" + n->target + ") after the scan: " + e.why_not;
    p.epilogue.push_back(fmt::format("e_{} = {}  # {}", n->name, e.expr, n->target));
    var_of[n->name] = "e_" + n->name;
  }
  p.result = var_of.at(g.outputs.front());
  return "";
}

Recognition recognise_scan(const Family& family, const TraceResult& trace) {
  const OpGraph& g = trace.graph;
  if (g.outputs.size() != 1) return fail("the scan family computes one output");
  const Node* scan = nullptr;
  for (const auto& n : g.nodes)
    if (scan_op(n.target)) {
      if (scan) return fail("more than one scan in the graph");
      scan = &n;
    }
  if (!scan) return fail("the graph has no cumsum, cumprod, logcumsumexp, cummax or cummin");
  auto p = std::make_shared<ScanProblem>(family, trace);
  p->op = scan_op(scan->target);
  // A dtype argument is the scan's own output dtype: the family accumulates in fp32 and stores that dtype,
  // so only a dtype other than the input's (a float32 scan of halves) is another computation.
  // A sum or product may also be asked for in float64 or int64: the accumulator is then that dtype.
  const bool sum_or_product = std::string_view(p->op->target) == "aten.cumsum.default" ||
                              std::string_view(p->op->target) == "aten.cumprod.default";
  if (auto dt = scan->arg(2, "dtype"); !is_none(dt)) {
    const auto in = scan->args.empty() || scan->args[0].kind != Arg::Kind::ref ? std::nullopt : g.meta_of(scan->args[0].ref);
    const std::string want = dt->kind == Arg::Kind::value && dt->value.is_string() ? dt->value.get<std::string>() : "";
    if (!(in && want == in->dtype) && !(sum_or_product && (want == "float64" || want == "int64")))
      return fail("a scan that accumulates in another dtype");
  }
  // cummax and cummin have two results (values, indices) and no shape of their own: their input's rank.
  const auto scan_in = scan->args.empty() || scan->args[0].kind != Arg::Kind::ref ? std::nullopt : g.meta_of(scan->args[0].ref);
  const auto scan_rank = scan->meta.shape.empty() && scan_in ? scan_in->shape.size() : scan->meta.shape.size();
  auto dim = int_arg(*scan, 1, "dim");
  if (!dim || scan_rank == 0) return fail("a scan without a dimension");
  if (*dim < 0) *dim += static_cast<std::int64_t>(scan_rank);
  p->dim = static_cast<std::size_t>(*dim);
  std::set<std::string> handled = {scan->name};

  // The epilogue: the pointwise ops that read the scan's result, directly or not, after its own ops (the flips
  // of a backward scan, the exclusive scan's slice and cat, cummax's getitem), which end at one node: `tail`.
  const std::set<std::string> live = g.ancestors(g.outputs);  // a cummax's unread indices are not computed
  std::set<std::string> after_scan;  // every node that reads the scan, directly or not
  std::vector<const Node*> epilogue;
  auto scan_own = [](const Node& n) {
    return n.target == "aten.flip.default" || n.target == "aten.slice.Tensor" || n.target == "aten.cat.default" ||
           n.target == "getitem";
  };
  for (const auto& n : g.nodes) {
    bool reads = false;
    for (const auto& a : n.args) {
      if (a.kind == Arg::Kind::ref && (a.ref == scan->name || after_scan.contains(a.ref))) reads = true;
      if (a.kind == Arg::Kind::list)
        for (const auto& item : a.items)
          if (item.kind == Arg::Kind::ref && (item.ref == scan->name || after_scan.contains(item.ref))) reads = true;
    }
    if (!reads) continue;
    after_scan.insert(n.name);
    if (!scan_own(n) && live.contains(n.name)) epilogue.push_back(&n);
  }
  std::string tail = g.outputs.front();
  if (!epilogue.empty()) {
    const Node* last = g.find_node(g.outputs.front());
    if (!last || std::find(epilogue.begin(), epilogue.end(), last) == epilogue.end())
      return fail(g.outputs.front() + " (" + (last ? last->target : std::string("?")) +
                  ") follows the pointwise ops after the scan: they must be the graph's last ops");
    std::set<std::string> in_epilogue;
    for (const Node* n : epilogue) in_epilogue.insert(n->name);
    tail.clear();
    for (const Node* n : epilogue)
      for (const auto& a : n->args) {
        if (a.kind != Arg::Kind::ref || in_epilogue.contains(a.ref)) continue;
        if (a.ref != scan->name && !after_scan.contains(a.ref)) continue;  // a leaf or constant: checked below
        if (!tail.empty() && tail != a.ref)
          return fail(n->name + " (" + n->target + ") reads the scan's result through " + tail + " and " + a.ref +
                      ": the pointwise ops after a scan read it once");
        tail = a.ref;
      }
    for (const Node* n : epilogue) handled.insert(n->name);
  }

  // The sequence: through flips of the dimension (read backwards) and, for an exclusive scan, the slice of
  // its first L-1 positions, or (the shift before the scan) the slice of the first L positions of the
  // sequence behind one zero: cumsum(cat([0, x])[:-1]) is the exclusive scan of x as well.
  auto x = scan->arg(0, "self");
  if (!x || x->kind != Arg::Kind::ref) return fail("the scan's input is not a tensor");
  std::string seq = x->ref;
  const Node* slice = nullptr;
  bool slice_of_sequence = false;  // the slice drops the sequence's last position, not the shifted one's
  const Node* shifted = nullptr;   // the cat of the shift before the scan
  for (const Node* n = g.find_node(seq); n; n = g.find_node(seq)) {
    if (flips(*n, p->dim, scan_rank)) {
      p->read_back = !p->read_back;
    } else if (n->target == "aten.flip.default") {
      return fail(n->name + " (aten.flip) reverses a dimension other than the scanned one: only the scanned "
                  "dimension may be reversed around a scan");
    } else if (n->target == "aten.cat.default" && !slice && !shifted && !p->read_back) {
      // cumsum(cat([0, x[:L-1]])): the shift written with the slice inside the cat.
      const Node* zero = leading_zero(g, *n, p->dim);
      const Node* cut = zero ? g.find_node(n->arg(0, "tensors")->items[1].ref) : nullptr;
      if (!cut || cut->target != "aten.slice.Tensor")
        return fail("a cat before the scan other than an exclusive scan's leading zero");
      shifted = n;
      slice = cut;
      slice_of_sequence = true;
      for (const auto& a : g.ancestors({zero->name})) handled.insert(a);
      handled.insert(zero->name);
      handled.insert(n->name);
      handled.insert(cut->name);
      seq = cut->args.at(0).ref;
      continue;
    } else if (n->target == "aten.slice.Tensor" && !slice) {
      slice = n;
    } else if (n->target == "aten.cat.default" && slice && !shifted && !p->read_back && seq == slice->args.at(0).ref) {
      const Node* zero = leading_zero(g, *n, p->dim);
      if (!zero) return fail("a cat before the scan other than an exclusive scan's leading zero");
      shifted = n;
      for (const auto& a : g.ancestors({zero->name})) handled.insert(a);
      handled.insert(zero->name);
      handled.insert(n->name);
      seq = n->arg(0, "tensors")->items[1].ref;
      continue;
    } else {
      break;
    }
    handled.insert(n->name);
    seq = n->args.at(0).ref;
  }
  const auto seq_meta = g.meta_of(seq);
  if (!seq_meta) return fail("the scan reads something the family cannot follow");
  p->domain = seq_meta->shape;
  if (p->dim >= p->domain.size()) return fail("the scan's dimension is not one of its input's");
  p->length = p->domain[p->dim];
  // Whether a slice keeps the first n-1 of the n positions of the scanned dimension; an end below zero counts
  // from the end ([:-1]).
  auto all_but_last = [&](const Node& cut, std::int64_t n) {
    const auto sd = int_arg(cut, 1, "dim"), start = int_arg(cut, 2, "start"), end = int_arg(cut, 3, "end"),
               step = int_arg(cut, 4, "step");
    std::int64_t d = sd.value_or(-1);
    if (d < 0) d += static_cast<std::int64_t>(p->domain.size());
    std::int64_t e = end.value_or(0);
    if (e < 0) e += n;
    return d == static_cast<std::int64_t>(p->dim) && start.value_or(-1) == 0 && step.value_or(1) == 1 && e == n - 1;
  };
  // The slice's input is the sequence, or the sequence behind its zero (one longer).
  if (slice && !all_but_last(*slice, shifted && !slice_of_sequence ? p->length + 1 : p->length))
    return fail("a slice of the scanned dimension other than its first L-1 positions");

  // The output (before the epilogue): the scan, flipped (written backwards), and for an exclusive scan behind
  // one zero.
  std::string out = tail;
  const Node* o = g.find_node(out);
  if (shifted) {
    p->exclusive = true;  // the output is the scan itself, as long as the sequence
  } else if (o && o->target == "aten.cat.default") {
    const Node* zero = leading_zero(g, *o, p->dim);
    if (!zero) return fail("a cat around the scan other than an exclusive scan's leading zero");
    handled.insert(o->name);
    // The zero is made from a shape (zeros_like of a column of the input): what feeds it is not computed.
    for (const auto& a : g.ancestors({zero->name})) handled.insert(a);
    p->exclusive = true;
    out = o->arg(0, "tensors")->items[1].ref;
    o = g.find_node(out);
    if (!slice) {
      // cat([0, cumsum(x)[:L-1]]): the scan's first L-1 positions behind the zero, the slice after the scan.
      if (!o || o->target != "aten.slice.Tensor" || !all_but_last(*o, p->length))
        return fail("a cat around the scan with something other than the scan's first L-1 positions behind its "
                    "leading zero");
      handled.insert(o->name);
      out = o->args.at(0).ref;
      o = g.find_node(out);
    }
  } else if (slice) {
    return fail("a scan of a slice that is not an exclusive scan");
  }
  while (o && o != scan) {
    if (o->target == "getitem" && !o->args.empty() && o->args[0].kind == Arg::Kind::ref && o->args[0].ref == scan->name) {
      // cummax / cummin: their values are computed, their indices are not.
      auto index = o->arg(1, "");
      if (!index || !index->is_number() || index->number() != 0)
        return fail(o->name + " reads the indices of " + scan->target + ", which the family does not compute");
      handled.insert(o->name);
      o = scan;
      break;
    }
    if (o->target == "aten.flip.default" && !flips(*o, p->dim, scan_rank))
      return fail(o->name + " (aten.flip) reverses a dimension other than the scanned one: only the scanned "
                  "dimension may be reversed around a scan");
    if (!flips(*o, p->dim, scan_rank)) return fail(o->name + " (" + o->target + ") after the scan");
    p->write_back = !p->write_back;
    handled.insert(o->name);
    o = g.find_node(o->args.at(0).ref);
  }
  if (!o) return fail("the output is not the scan's");
  // The leading zero is the identity of a sum only: behind a product's or a log-sum-exp's scan it is a value
  // the kernel's identity (1, -inf) is not.
  if (p->exclusive && std::string_view(p->op->target) != "aten.cumsum.default")
    return fail("a zero in front of a cumprod, logcumsumexp, cummax or cummin (an exclusive scan of a sum only)");
  const auto out_meta = *g.meta_of(g.outputs.front());
  p->out_shape = out_meta.shape;
  p->out_dtype = out_meta.dtype;
  if (out_meta.numel() != seq_meta->numel()) return fail("the output is not as long as the scanned sequence");
  if (sum_or_product && (out_meta.dtype == "int64" || out_meta.dtype == "int32")) p->acc = "tl.int64";
  else if (sum_or_product && out_meta.dtype == "float64") p->acc = "tl.float64";
  else if (!float_dtype(out_meta.dtype)) return fail("a scan of " + out_meta.dtype + " values");
  p->outer = product(p->domain, 0, p->dim);
  p->inner = product(p->domain, p->dim + 1, p->domain.size());

  // The prologue: everything else must be a pointwise node over the domain, or a leaf the value reads.
  // Slices of inputs and parameters are leaves too, read from where they start.
  const Leaves leaves = find_leaves(g, true);
  std::set<std::string> computed;
  std::string error;
  for (const auto& n : g.nodes) {
    if (handled.contains(n.name) || leaves.read_in_place(n.name) || !live.contains(n.name)) continue;
    if (auto it = leaves.why.find(n.name); it != leaves.why.end()) return fail(it->second);
    if (is_identity_view(n.target) && !n.args.empty() && n.args[0].kind == Arg::Kind::ref &&
        computed.contains(n.args[0].ref) && n.meta.shape == p->domain) {
      p->alias[n.name] = n.args[0].ref;
      continue;
    }
    // Nodes that feed only the exclusive scan's zero (x[:, 0:1] and the like) are leaves' views: skipped above.
    if (!broadcast_strides(StridedView::contiguous(n.meta.shape), p->domain))
      return fail(fmt::format("{} ({}) is computed over [{}], not over the scanned [{}]", n.name, n.target,
                              fmt::join(n.meta.shape, ","), fmt::join(p->domain, ",")));
    OperandFn operand = [&](const Arg& a) -> std::optional<std::string> {
      if (a.kind != Arg::Kind::ref) return std::nullopt;
      std::string ref = a.ref;
      while (p->alias.contains(ref)) ref = p->alias.at(ref);
      if (computed.contains(ref)) return "v_" + ref;
      if (const Leaf* leaf = leaves.find(ref)) {
        if (!p->leaf_var_.contains(ref)) {
          auto strides = broadcast_strides(leaf->view, p->domain);
          if (!strides) {
            error = fmt::format("{} of shape [{}] does not broadcast to the scanned [{}]", ref,
                                fmt::join(leaf->view.shape, ","), fmt::join(p->domain, ","));
            return std::nullopt;
          }
          const std::string var = fmt::format("x_{}", ref);
          p->leaves.push_back(make_leaf(g, *leaf, var, *strides));
          p->leaf_var_[ref] = var;
        }
        return p->leaf_var_.at(ref);
      }
      if (const auto* k = g.find_constant(ref); k && k->value) return float_literal(*k->value);
      return std::nullopt;
    };
    auto e = pointwise_expr(n, operand, "tl.float32");
    if (!error.empty()) return fail(error);
    if (e.expr.empty()) return fail(e.why_not);
    p->prologue.push_back(&n);
    computed.insert(n.name);
  }
  std::string value = seq;
  while (p->alias.contains(value)) value = p->alias.at(value);
  if (const Leaf* leaf = leaves.find(value)) {
    if (!p->leaf_var_.contains(value)) {
      auto strides = broadcast_strides(leaf->view, p->domain);
      if (!strides) return fail("the scanned input does not cover the scanned sequence");
      const auto meta = *g.meta_of(leaf->base);
      const bool integer = meta.dtype == "int64" || meta.dtype == "int32" || meta.dtype == "bool";
      if (!float_dtype(meta.dtype) && !(meta.dtype == "float64" && p->acc == "tl.float64") &&
          !(integer && p->acc == "tl.int64"))
        return fail("a scan of " + meta.dtype + " values");
      const std::string var = fmt::format("x_{}", value);
      p->leaves.push_back(make_leaf(g, *leaf, var, *strides));
      p->leaf_var_[value] = var;
    }
  } else if (!computed.contains(value)) {
    return fail("the scanned sequence is not computed from the inputs pointwise");
  }
  p->value_ref = value;
  if (p->leaves.empty()) return fail("the scan reads no tensor");
  if (auto why = lower_epilogue(*p, g, leaves, epilogue, tail); !why.empty()) return fail(why);
  if (p->acc != "tl.float32" && !p->epilogue.empty())
    return fail("pointwise ops after a scan of integers or in float64");
  return {p, ""};
}

}  // namespace

KA_REGISTER_FAMILY(scan, recognise_scan);

}  // namespace kernelagent

#include "kernelagent/families/mapreduce/emitter.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "kernelagent/families/common/pointwise_ops.hpp"

namespace kernelagent::mapreduce {

std::string identity_of(ReduceOp op) {
  switch (op) {
    case ReduceOp::max:
    case ReduceOp::logsumexp:
      return "float(\"-inf\")";
    case ReduceOp::min:
      return "float(\"inf\")";
    default:
      return "0.0";
  }
}

Emitter::Emitter(const Program& program, const Layout& layout, Context context, int indent, std::string load_hint)
    : p_(program), l_(layout), ctx_(context), pad_(static_cast<std::size_t>(indent), ' '), load_hint_(std::move(load_hint)) {}

void Emitter::define(const std::string& ref, const std::string& var) { var_of_[ref] = var; }

void Emitter::line(const std::string& text) { lines_ += pad_ + text + "\n"; }

std::string Emitter::take() {
  std::string out;
  out.swap(lines_);
  return out;
}

std::string Emitter::load(const Operand& o) {
  const std::string var = prefix_ + o.var;
  const std::string cast = o.is_float() ? ".to(tl.float32)" : "";
  if (o.level == Level::total) {
    line(fmt::format("{} = tl.load({}){}", var, o.ptr, cast));
    return var;
  }
  // An operand constant along the tile's axes (a target [B, 1] broadcast over a row of 3, a scale per outer
  // row) has a scalar offset; its pointer is widened to the tile so that tl.load takes the tile's mask.
  auto varies = [&](const std::vector<std::size_t>& axes) { return l_.varies(o.strides, axes); };
  if (o.level == Level::row) {
    if (ctx_ == Context::total) throw std::runtime_error("a row operand read where only the total is known");
    line(fmt::format("{} = tl.load({} + {}{}, mask=row_ok, other=0){}", var, o.ptr,
                     l_.offset(o.strides, "k_out", "k_in", "", ""), varies(l_.kept_inner) ? "" : " + 0 * k_in", cast));
    return var;
  }
  if (ctx_ != Context::tile) throw std::runtime_error("an element operand read where only the rows are known");
  if (!index_.empty()) {
    // The index may be one value for the whole program (the target of a single row is a total): the pointer
    // is widened to the rows' block, as its mask is.
    const std::string at = l_.offset_flat_j(o.strides, "k_out", "k_in", index_);
    line(fmt::format("{} = tl.load({} + {}{}, mask={}_ok, other=0){}", var, o.ptr, at,
                     at.find("k_in") == std::string::npos ? " + 0 * k_in" : "", index_, cast));
    return var;
  }
  if (!varies(l_.reduced_inner)) {
    // Constant along the tile's columns (a norm's weight per channel, a target per row): loaded once a row
    // and widened to the tile by the mask's select. Loaded through the tile's pointer it would be one load
    // per element, all of the same address: as many load instructions as the streamed operand's, for nothing.
    line(fmt::format("{} = tl.where(mask, tl.load({} + {}{}, mask=row_ok & (j_out < {}), other=0){}, 0)", var, o.ptr,
                     l_.offset(o.strides, "k_out", "k_in", "j_out", "j_in"), varies(l_.kept_inner) ? "" : " + 0 * k_in",
                     l_.j_out, cast));
    return var;
  }
  line(fmt::format("{} = tl.load({} + {}, mask=mask, other=0{}){}", var, o.ptr,
                   elements_at_.empty() ? l_.offset(o.strides, "k_out", "k_in", "j_out", "j_in") : elements_at_,
                   load_hint_.empty() ? "" : fmt::format(", eviction_policy=\"{}\"", load_hint_), cast));
  return var;
}

std::string Emitter::evaluate_at(const std::string& ref, const std::string& index) {
  const std::string key = ref + "@" + index;
  if (auto it = var_of_.find(key); it != var_of_.end()) return it->second;
  Emitter sub(p_, l_, Context::tile, 0);
  sub.prefix_ = fmt::format("g{}_", gathers_++) + prefix_;
  sub.index_ = index;
  sub.pad_ = pad_;
  line(fmt::format("{0}_ok = row_ok & ({0} >= 0) & ({0} < {1})", index, p_.row_length()));
  // The rows' values the expression reads are this emitter's: written here first, then lent to `sub`.
  std::function<void(const std::string&)> rows_first = [&](const std::string& r) {
    const Value& x = p_.value(r);
    if (x.level != Level::element) {
      sub.var_of_[r] = need(r);
      return;
    }
    if (x.kind == Value::Kind::pointwise)
      for (const auto& a : x.node.args)
        if (a.kind == Arg::Kind::ref) rows_first(a.ref);
  };
  rows_first(ref);
  const std::string var = sub.need(ref);
  lines_ += sub.take();
  var_of_[key] = var;
  return var;
}

void Emitter::import_rows(const Emitter& other) {
  for (const auto& [ref, var] : other.var_of_) {
    if (ref.find('@') != std::string::npos) continue;
    if (p_.value(ref).level != Level::element) var_of_[ref] = var;
  }
}

std::string Emitter::need(const std::string& ref) {
  if (auto it = var_of_.find(ref); it != var_of_.end()) return it->second;
  const Value& v = p_.value(ref);
  if (ctx_ == Context::rows && v.level == Level::element)
    throw std::runtime_error("element value " + ref + " needed where only the rows are known");
  if (ctx_ == Context::total && v.level != Level::total)
    throw std::runtime_error("value " + ref + " needed where only the total is known");
  std::string var;
  switch (v.kind) {
    case Value::Kind::operand:
      var = load(p_.operand(v.operand));
      break;
    case Value::Kind::literal:
      var = v.literal;
      break;
    case Value::Kind::reduced: {
      const Reduction& r = p_.reductions.at(static_cast<std::size_t>(v.reduction));
      var = v.part.empty() ? r.var : r.var + "_" + v.part;  // the variant's code defines it
      break;
    }
    case Value::Kind::gathered:
      var = evaluate_at(v.gathered, need(v.index));
      break;
    case Value::Kind::pointwise: {
      if (v.node.target == "aten.alias.default") {  // a re-view with the elements in the same order
        var = need(v.node.args.at(0).ref);
        break;
      }
      std::string error;
      OperandFn operand = [&](const Arg& a) -> std::optional<std::string> {
        if (a.kind != Arg::Kind::ref) return std::nullopt;
        return need(a.ref);
      };
      auto e = pointwise_expr(v.node, operand, "tl.float32");
      if (e.expr.empty()) throw std::runtime_error(e.why_not);
      var = prefix_ + "v_" + v.ref;
      line(fmt::format("{} = {}  # {}", var, e.expr, v.node.target));
      break;
    }
  }
  var_of_[ref] = var;
  return var;
}

}  // namespace kernelagent::mapreduce

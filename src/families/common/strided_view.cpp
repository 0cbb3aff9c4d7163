#include "kernelagent/families/common/strided_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kernelagent {

namespace {

constexpr std::array<std::string_view, 14> kLayoutOps = {
    "aten.t.default",      "aten.transpose.int",        "aten.permute.default",
    "aten.view.default",   "aten._unsafe_view.default", "aten.reshape.default",
    "aten.expand.default", "aten.unsqueeze.default",    "aten.squeeze.dim",
    "aten.squeeze.dims",   "aten.squeeze.default",      "aten.clone.default",
    "aten.alias.default",  "aten.detach.default"};

std::optional<std::vector<std::int64_t>> ints_arg(const Node& node, std::size_t i, std::string_view kw) {
  auto a = node.arg(i, kw);
  if (!a) return std::nullopt;
  std::vector<std::int64_t> out;
  if (a->kind == Arg::Kind::value && a->is_number())
    return std::vector<std::int64_t>{static_cast<std::int64_t>(a->number())};
  if (a->kind != Arg::Kind::list) return std::nullopt;
  for (const auto& item : a->items) {
    if (!item.is_number()) return std::nullopt;
    out.push_back(static_cast<std::int64_t>(item.number()));
  }
  return out;
}

// A dim argument as PyTorch reads it: negative counts from the end of a tensor of `rank` dims.
std::optional<std::size_t> wrap_dim(std::int64_t d, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank);
  if (d < 0) d += r;
  if (d < 0 || d >= std::max<std::int64_t>(r, 1)) return std::nullopt;
  return static_cast<std::size_t>(d);
}

LayoutResult fail(const Node& node, std::string why) {
  return {std::nullopt, fmt::format("{} ({}) {}", node.name, node.target, why)};
}

LayoutResult permuted(const StridedView& in, const std::vector<std::size_t>& order) {
  StridedView out;
  out.offset = in.offset;
  for (auto d : order) {
    out.shape.push_back(in.shape[d]);
    out.stride.push_back(in.stride[d]);
  }
  return {out, {}};
}

// A -1 in a view's shape stands for whatever keeps the element count.
std::optional<std::vector<std::int64_t>> infer_shape(std::vector<std::int64_t> shape, std::int64_t numel) {
  std::int64_t known = 1;
  std::optional<std::size_t> free;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (free) return std::nullopt;
      free = i;
    } else {
      known *= shape[i];
    }
  }
  if (free) {
    if (known == 0 || numel % known != 0) return std::nullopt;
    shape[*free] = numel / known;
  } else if (known != numel) {
    return std::nullopt;
  }
  return shape;
}

}  // namespace

StridedView StridedView::contiguous(std::vector<std::int64_t> shape) {
  StridedView v;
  v.stride.assign(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) v.stride[i - 1] = v.stride[i] * shape[i];
  v.shape = std::move(shape);
  return v;
}

bool StridedView::row_major() const {
  std::int64_t expected = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && stride[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

bool is_layout_op(std::string_view target) {
  return std::find(kLayoutOps.begin(), kLayoutOps.end(), target) != kLayoutOps.end();
}

bool is_slice_op(std::string_view target) { return target == "aten.slice.Tensor" || target == "aten.select.int"; }

bool is_split_op(std::string_view target) {
  return target == "aten.split.Tensor" || target == "aten.split_with_sizes.default" || target == "aten.unbind.int";
}

// PyTorch's computeStride (aten/src/ATen/TensorUtils.cpp): walk the old dims from the innermost, grouping
// them into chunks that are contiguous among themselves; each chunk must be exactly covered by new dims.
std::optional<std::vector<std::int64_t>> view_strides(const StridedView& in, const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> stride(shape.size(), 1);
  if (in.shape.empty()) {
    for (auto s : shape)
      if (s != 1) return std::nullopt;
    return stride;
  }
  std::int64_t numel = 1;
  for (auto s : in.shape) numel *= s;
  if (numel == 0) return StridedView::contiguous(shape).stride;
  auto view_d = static_cast<std::int64_t>(shape.size()) - 1;
  std::int64_t chunk_base_stride = in.stride.back();
  std::int64_t tensor_numel = 1, view_numel = 1;
  for (auto tensor_d = static_cast<std::int64_t>(in.shape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= in.shape[tensor_d];
    if (tensor_d == 0 || (in.shape[tensor_d - 1] != 1 && in.stride[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        stride[view_d] = view_numel * chunk_base_stride;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = in.stride[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return stride;
}

LayoutResult apply_layout_op(const Node& node, const StridedView& in) {
  const std::string& t = node.target;
  const std::size_t rank = in.shape.size();
  if (t == "aten.clone.default" || t == "aten.alias.default" || t == "aten.detach.default") return {in, {}};
  if (t == "aten.t.default") {
    if (rank < 2) return {in, {}};
    return permuted(in, {1, 0});
  }
  if (t == "aten.transpose.int") {
    auto d0 = int_arg(node, 1, "dim0"), d1 = int_arg(node, 2, "dim1");
    auto a = d0 ? wrap_dim(*d0, rank) : std::nullopt, b = d1 ? wrap_dim(*d1, rank) : std::nullopt;
    if (!a || !b || rank == 0) return fail(node, "has dims the tensor does not have");
    std::vector<std::size_t> order(rank);
    for (std::size_t i = 0; i < rank; ++i) order[i] = i;
    std::swap(order[*a], order[*b]);
    return permuted(in, order);
  }
  if (t == "aten.permute.default") {
    auto dims = ints_arg(node, 1, "dims");
    if (!dims || dims->size() != rank) return fail(node, "has a permutation that does not match the tensor's rank");
    std::vector<std::size_t> order;
    for (auto d : *dims) {
      auto w = wrap_dim(d, rank);
      if (!w || std::find(order.begin(), order.end(), *w) != order.end()) return fail(node, "is not a permutation");
      order.push_back(*w);
    }
    return permuted(in, order);
  }
  if (t == "aten.view.default" || t == "aten._unsafe_view.default" || t == "aten.reshape.default") {
    auto req = ints_arg(node, 1, "size");
    std::int64_t numel = 1;
    for (auto s : in.shape) numel *= s;
    auto shape = req ? infer_shape(*req, numel) : std::nullopt;
    if (!shape) return fail(node, "has a shape that does not keep the element count");
    auto stride = view_strides(in, *shape);
    if (!stride) return fail(node, "needs a copy: its operand's layout cannot be re-viewed in that shape");
    return {StridedView{*shape, *stride, in.offset}, {}};
  }
  if (t == "aten.expand.default") {
    auto req = ints_arg(node, 1, "size");
    if (!req || req->size() < rank) return fail(node, "has a size with fewer dims than its operand");
    StridedView out;
    out.offset = in.offset;
    const std::size_t lead = req->size() - rank;
    for (std::size_t i = 0; i < req->size(); ++i) {
      const std::int64_t want = (*req)[i];
      if (i < lead) {  // new leading dims broadcast
        if (want < 0) return fail(node, "has -1 in a new leading dim");
        out.shape.push_back(want);
        out.stride.push_back(0);
        continue;
      }
      const std::int64_t have = in.shape[i - lead];
      if (want == -1 || want == have) {
        out.shape.push_back(have);
        out.stride.push_back(in.stride[i - lead]);
      } else if (have == 1) {
        out.shape.push_back(want);
        out.stride.push_back(0);
      } else {
        return fail(node, "expands a dim that is not 1");
      }
    }
    return {out, {}};
  }
  if (t == "aten.unsqueeze.default") {
    auto d = int_arg(node, 1, "dim");
    auto w = d ? wrap_dim(*d, rank + 1) : std::nullopt;
    if (!w) return fail(node, "has a dim the result does not have");
    StridedView out = in;
    // A size-1 dim is never stepped along; its stride only has to look like PyTorch's.
    const std::int64_t s = *w < rank ? in.shape[*w] * in.stride[*w] : 1;
    out.shape.insert(out.shape.begin() + static_cast<std::ptrdiff_t>(*w), 1);
    out.stride.insert(out.stride.begin() + static_cast<std::ptrdiff_t>(*w), s);
    return {out, {}};
  }
  if (t == "aten.squeeze.dim" || t == "aten.squeeze.dims" || t == "aten.squeeze.default") {
    std::vector<bool> drop(rank, t == "aten.squeeze.default");
    if (t != "aten.squeeze.default") {
      auto dims = ints_arg(node, 1, t == "aten.squeeze.dim" ? "dim" : "dims");
      if (!dims) return fail(node, "has no dims");
      for (auto d : *dims) {
        auto w = wrap_dim(d, rank);
        if (!w) return fail(node, "has a dim the tensor does not have");
        if (rank > 0) drop[*w] = true;
      }
    }
    StridedView out;
    out.offset = in.offset;
    for (std::size_t i = 0; i < rank; ++i) {
      if (drop[i] && in.shape[i] == 1) continue;
      out.shape.push_back(in.shape[i]);
      out.stride.push_back(in.stride[i]);
    }
    return {out, {}};
  }
  if (t == "aten.slice.Tensor") {
    // x[..., start:end:step] along dim: PyTorch clamps start and end into [0, size] after counting negative
    // ones from the end.
    auto d = int_arg(node, 1, "dim");
    auto w = wrap_dim(d.value_or(0), rank);
    if (!w || rank == 0) return fail(node, "has a dim the tensor does not have");
    const std::int64_t size = in.shape[*w];
    auto bound = [&](std::size_t i, const char* kw, std::int64_t fallback) -> std::optional<std::int64_t> {
      auto a = node.arg(i, kw);
      if (is_none(a)) return fallback;
      if (!a->is_number()) return std::nullopt;
      double v = a->number();  // x[:, 1:] traces its end as 2^63 - 1
      if (v < 0) v += static_cast<double>(size);
      return static_cast<std::int64_t>(std::clamp(v, 0.0, static_cast<double>(size)));
    };
    auto start = bound(2, "start", 0), end = bound(3, "end", size);
    auto step = int_arg(node, 4, "step");
    if (!start || !end || (step && *step < 1)) return fail(node, "has bounds that are not constants");
    const std::int64_t s = step.value_or(1);
    StridedView out = in;
    out.shape[*w] = *end > *start ? (*end - *start + s - 1) / s : 0;
    out.stride[*w] = in.stride[*w] * s;
    out.offset = in.offset + *start * in.stride[*w];
    return {out, {}};
  }
  if (t == "aten.select.int") {
    auto d = int_arg(node, 1, "dim");
    auto i = int_arg(node, 2, "index");
    auto w = d ? wrap_dim(*d, rank) : std::nullopt;
    if (!w || rank == 0 || !i) return fail(node, "has a dim or index that is not a constant the tensor has");
    const std::int64_t index = *i < 0 ? *i + in.shape[*w] : *i;
    if (index < 0 || index >= in.shape[*w]) return fail(node, "selects an index outside the tensor");
    StridedView out = in;
    out.offset = in.offset + index * in.stride[*w];
    out.shape.erase(out.shape.begin() + static_cast<std::ptrdiff_t>(*w));
    out.stride.erase(out.stride.begin() + static_cast<std::ptrdiff_t>(*w));
    return {out, {}};
  }
  return fail(node, "is not a layout op");
}

SplitResult split_views(const Node& node, const StridedView& in) {
  const std::string& t = node.target;
  const std::size_t rank = in.shape.size();
  const bool unbind = t == "aten.unbind.int";
  auto d = int_arg(node, unbind ? 1 : 2, "dim");
  auto w = wrap_dim(d.value_or(0), rank);
  if (!w || rank == 0) return {{}, fail(node, "has a dim the tensor does not have").why_not};
  const std::int64_t size = in.shape[*w];
  std::vector<std::int64_t> sizes;
  if (t == "aten.split.Tensor") {
    // x.split(n, d) and x.chunk(k, d): pieces of n, the last one what is left.
    auto piece = int_arg(node, 1, "split_size");
    if (!piece || *piece < 1) return {{}, fail(node, "has a split size that is not a constant positive number").why_not};
    for (std::int64_t at = 0; at < size; at += *piece) sizes.push_back(std::min(*piece, size - at));
  } else if (t == "aten.split_with_sizes.default") {
    auto given = ints_arg(node, 1, "split_sizes");
    std::int64_t total = 0;
    for (auto s : given.value_or(std::vector<std::int64_t>{})) total += s < 0 ? size + 1 : s;
    if (!given || total != size) return {{}, fail(node, "has sizes that are not constants adding up to the dim").why_not};
    sizes = *given;
  } else if (unbind) {
    sizes.assign(static_cast<std::size_t>(size), 1);
  } else {
    return {{}, fail(node, "is not a split").why_not};
  }
  SplitResult out;
  std::int64_t at = 0;
  for (auto s : sizes) {
    StridedView piece = in;
    piece.offset = in.offset + at * in.stride[*w];
    piece.shape[*w] = s;
    if (unbind) {  // a select of each index: the dim goes
      piece.shape.erase(piece.shape.begin() + static_cast<std::ptrdiff_t>(*w));
      piece.stride.erase(piece.stride.begin() + static_cast<std::ptrdiff_t>(*w));
    }
    out.pieces.push_back(std::move(piece));
    at += s;
  }
  return out;
}

}  // namespace kernelagent

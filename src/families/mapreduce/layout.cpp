#include "kernelagent/families/mapreduce/layout.hpp"

#include <fmt/format.h>

#include "kernelagent/families/common/broadcast.hpp"

namespace kernelagent::mapreduce {

namespace {

std::vector<std::int64_t> pick(const std::vector<std::int64_t>& v, const std::vector<std::size_t>& axes) {
  std::vector<std::int64_t> out;
  for (auto a : axes) out.push_back(v[a]);
  return out;
}

std::int64_t product(const std::vector<std::int64_t>& v, const std::vector<std::size_t>& axes) {
  std::int64_t n = 1;
  for (auto a : axes) n *= v[a];
  return n;
}

}  // namespace

Layout Layout::of(const Program& p) {
  Layout l;
  l.domain = p.domain;
  // Merged runs of axes: a run continues while the kind is the same and every operand (and the contiguous
  // output) steps from one axis into the next as through one axis.
  std::vector<std::vector<std::size_t>> runs;
  std::vector<bool> run_reduced;
  const auto contiguous = StridedView::contiguous(p.domain).stride;
  std::size_t last = p.domain.size();
  for (std::size_t a = 0; a < p.domain.size(); ++a) {
    if (p.domain[a] == 1) continue;
    bool merge = last != p.domain.size() && p.reduced[last] == p.reduced[a];
    if (merge) {
      for (const auto& o : p.operands)
        if (o.strides[last] != o.strides[a] * p.domain[a]) merge = false;
      if (contiguous[last] != contiguous[a] * p.domain[a]) merge = false;
      // Only axes that were neighbours in the domain (size-1 axes between them do not matter).
    }
    if (merge) {
      runs.back().push_back(a);
    } else {
      runs.push_back({a});
      run_reduced.push_back(p.reduced[a]);
    }
    last = a;
  }
  int kept_inner = -1, reduced_inner = -1;
  for (std::size_t r = 0; r < runs.size(); ++r) (run_reduced[r] ? reduced_inner : kept_inner) = static_cast<int>(r);
  for (std::size_t r = 0; r < runs.size(); ++r) {
    auto& group = run_reduced[r] ? (static_cast<int>(r) == reduced_inner ? l.reduced_inner : l.reduced_outer)
                                 : (static_cast<int>(r) == kept_inner ? l.kept_inner : l.kept_outer);
    group.insert(group.end(), runs[r].begin(), runs[r].end());
  }
  l.k_out = product(p.domain, l.kept_outer);
  l.k_in = product(p.domain, l.kept_inner);
  l.j_out = product(p.domain, l.reduced_outer);
  l.j_in = product(p.domain, l.reduced_inner);
  return l;
}

std::string Layout::offset(const std::vector<std::int64_t>& strides, const std::string& at_k_out,
                           const std::string& at_k_in, const std::string& at_j_out, const std::string& at_j_in) const {
  std::string sum;
  auto add = [&](const std::vector<std::size_t>& axes, const std::string& index) {
    if (axes.empty() || index.empty()) return;
    const std::string part = flat_offset(pick(domain, axes), pick(strides, axes), index);
    if (part != "0") sum += (sum.empty() ? "" : " + ") + part;
  };
  add(kept_outer, at_k_out);
  add(kept_inner, at_k_in);
  add(reduced_outer, at_j_out);
  add(reduced_inner, at_j_in);
  return sum.empty() ? "0" : sum;
}

std::string Layout::offset_flat_j(const std::vector<std::int64_t>& strides, const std::string& at_k_out,
                                  const std::string& at_k_in, const std::string& j) const {
  std::vector<std::size_t> reduced = reduced_outer;
  reduced.insert(reduced.end(), reduced_inner.begin(), reduced_inner.end());
  std::string sum = offset(strides, at_k_out, at_k_in, "", "");
  const std::string part = flat_offset(pick(domain, reduced), pick(strides, reduced), j);
  if (part != "0") sum = sum == "0" ? part : sum + " + " + part;
  return sum;
}

bool Layout::varies(const std::vector<std::int64_t>& strides, const std::vector<std::size_t>& axes) const {
  for (auto a : axes)
    if (domain[a] > 1 && strides[a] != 0) return true;
  return false;
}

std::vector<std::int64_t> Layout::contiguous() const { return StridedView::contiguous(domain).stride; }

std::int64_t Layout::max_offset(const Program& p) const {
  std::int64_t most = 1;
  for (auto d : domain) most *= d;
  for (const auto& o : p.operands) {
    std::int64_t reach = 0;
    for (std::size_t a = 0; a < domain.size(); ++a) reach += (domain[a] - 1) * o.strides[a];
    most = std::max(most, reach + 1);
  }
  return most;
}

}  // namespace kernelagent::mapreduce

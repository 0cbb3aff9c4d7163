#include "kernelagent/families/common/broadcast.hpp"

#include <fmt/format.h>

namespace kernelagent {

std::optional<std::vector<std::int64_t>> broadcast_strides(const StridedView& view,
                                                           const std::vector<std::int64_t>& domain) {
  if (view.shape.size() > domain.size()) return std::nullopt;
  std::vector<std::int64_t> out(domain.size(), 0);
  const std::size_t lead = domain.size() - view.shape.size();
  for (std::size_t i = 0; i < view.shape.size(); ++i) {
    const auto size = view.shape[i];
    if (size == domain[lead + i]) out[lead + i] = size == 1 ? 0 : view.stride[i];
    else if (size != 1) return std::nullopt;
  }
  return out;
}

std::string flat_offset(const std::vector<std::int64_t>& domain, const std::vector<std::int64_t>& strides,
                        const std::string& index) {
  struct Dim {
    std::int64_t size, stride, inner;  // inner: elements of the domain per step of this dim
  };
  std::vector<Dim> dims;
  std::int64_t inner = 1;
  for (std::size_t i = domain.size(); i-- > 0;) {
    if (domain[i] != 1) dims.insert(dims.begin(), {domain[i], strides[i], inner});
    inner *= domain[i];
  }
  const std::int64_t total = inner;
  // Fold a dim into the next one when the operand steps through the pair as through one dim.
  std::vector<Dim> folded;
  for (const Dim& d : dims) {
    if (!folded.empty() && folded.back().stride == d.stride * d.size) {
      folded.back() = {folded.back().size * d.size, d.stride, d.inner};
      continue;
    }
    folded.push_back(d);
  }
  std::string sum;
  for (const Dim& d : folded) {
    if (d.stride == 0) continue;
    std::string term = index;
    if (d.inner > 1) term = fmt::format("({} // {})", term, d.inner);
    if (d.size * d.inner < total) term = fmt::format("({} % {})", term, d.size);
    if (d.stride != 1) term = fmt::format("{} * {}", term, d.stride);
    sum += (sum.empty() ? "" : " + ") + term;
  }
  return sum.empty() ? "0" : sum;
}

}  // namespace kernelagent

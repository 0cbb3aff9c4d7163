#pragma once
// Reading tensors broadcast over a domain (the shape a kernel iterates over) from a flat row-major index
// of the domain. Example: 12_Matmul_with_diagonal_matrices_ computes A.unsqueeze(1) * B over the domain
// [4096, 4096]; A seen as [4096, 1] broadcasts with strides [1, 0], so its offset at flat index i is
// i // 4096, while B, laid out like the domain, is read at i itself.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernelagent/families/common/strided_view.hpp"

namespace kernelagent {

// The strides of `view` broadcast to `domain` (right-aligned, as PyTorch broadcasts): 0 along the dims the
// view lacks or holds once. nullopt when the view does not broadcast to the domain.
std::optional<std::vector<std::int64_t>> broadcast_strides(const StridedView& view,
                                                           const std::vector<std::int64_t>& domain);

// The element offset, as a Triton expression of the flat index `index` of `domain`, of an operand with
// `strides` over the domain. Dims of size 1 are skipped and dims the operand walks contiguously one after
// the other are folded, so an operand laid out like the domain is read at `index` itself; "0" when the
// operand is one value broadcast everywhere.
std::string flat_offset(const std::vector<std::int64_t>& domain, const std::vector<std::int64_t>& strides,
                        const std::string& index);

}  // namespace kernelagent

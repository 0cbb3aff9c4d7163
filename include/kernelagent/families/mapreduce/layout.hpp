#pragma once
// How the map-reduce kernels walk a program's domain. Axes of size 1 are dropped and neighbouring axes of the
// same kind (kept or reduced) are merged where every operand steps through them as through one axis. Of
// what is left, the last kept axis is walked by a program's rows (k_in, a vector of BLOCK_K) and the other
// kept axes by the program id (k_out, a scalar); the last reduced axis by a tile's columns (j_in, a vector
// of BLOCK_J) and the other reduced axes by a loop (j_out, a scalar). An operand's offset is the sum of its
// offsets along the four.
//
// Example: BatchNorm2d over x [64, 64, 512, 512]: the domain [N, C, H, W] with N, H, W reduced becomes
// [N, C, H*W]; k_in walks C, j_out walks N and j_in walks H*W, so x is read at
// k_in * 262144 + j_out * 16777216 + j_in and the weight at k_in.

#include <cstdint>
#include <string>
#include <vector>

#include "kernelagent/families/mapreduce/program.hpp"

namespace kernelagent::mapreduce {

struct Layout {
  std::vector<std::int64_t> domain;
  // Original axes of the four index groups, each in order.
  std::vector<std::size_t> kept_outer, kept_inner, reduced_outer, reduced_inner;
  std::int64_t k_out = 1, k_in = 1, j_out = 1, j_in = 1;  // sizes of the four

  static Layout of(const Program& p);

  // The offset of something with `strides` over the domain, at the four indices (Triton expressions; an
  // empty one is 0). Example: at("k_out", "k_in", "j_out", "j_in") for x above.
  std::string offset(const std::vector<std::int64_t>& strides, const std::string& k_out, const std::string& k_in,
                     const std::string& j_out, const std::string& j_in) const;
  // The same at a flat reduced position `j` (j_out * j_in-size + j_in) instead of the two reduced indices.
  std::string offset_flat_j(const std::vector<std::int64_t>& strides, const std::string& k_out, const std::string& k_in,
                            const std::string& j) const;
  // Whether something with `strides` over the domain changes along any of `axes` (an axis of size 1 does not
  // count).
  bool varies(const std::vector<std::int64_t>& strides, const std::vector<std::size_t>& axes) const;
  // The domain's contiguous strides: where an element-level output is written.
  std::vector<std::int64_t> contiguous() const;
  // The largest offset any operand or the domain reaches, for 32- or 64-bit arithmetic.
  std::int64_t max_offset(const Program& p) const;
};

}  // namespace kernelagent::mapreduce

#pragma once
// A user's own Triton kernel file as a family, for `optimize PROBLEM --kernel KERNEL.py` (docs/user-kernels.md).
// The file holds a ModelNew (KernelBench's convention) and marks the values it may be tuned over on
// module-level constants:
//
//   BLOCK_SIZE = 1024  # kernelagent: 256, 512, 1024, 2048
//   NUM_WARPS = 4  # kernelagent: 2, 4, 8 | occupancy, parallelism
//
// Each marked constant is a knob: its domain is the listed values (the value the file holds first: it is the
// starting configuration), its purpose tags those after '|' or, without them, inferred from its name
// (BLOCK_* and TILE_* size the tile: parallelism and reuse; NUM_WARPS, NUM_STAGES, SPLIT*, GROUP*, VEC*; any
// other name is untagged). NUM_WARPS and NUM_STAGES become the knobs num_warps and num_stages, which the
// search knows. A configuration is emitted as the same file with the constants' values replaced, so the
// winner is the user's file, tuned, and can be tuned again.

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernelagent/families/family.hpp"

namespace kernelagent {

// One marked constant of a kernel file.
struct UserKnob {
  std::string knob;                    // its name in configurations: the constant's, or num_warps / num_stages
  std::string constant;                // the Python name
  int line = 0;                        // 1-based line of its assignment
  std::vector<nlohmann::json> values;  // the domain, the file's own value first
  std::vector<std::string> tags;
  bool tags_inferred = true;  // false when the file names them after '|'
  int tile_exponent = 0;      // 1 for a knob that sizes the tile (BLOCK_*, TILE_*)
};

// Reads the marked constants of a kernel file's text. Throws UserError(bad_input) naming the file and line for a
// mark it cannot read (a value that is no number, bool or quoted string; an unknown tag; the same constant
// marked twice) and for a file with no mark at all.
std::vector<UserKnob> read_user_knobs(const std::string& text, const std::string& file_label);

// The text with each knob's constant set to its value in `config` (knobs the configuration lacks keep the
// file's value), under a header line naming the problem and the configuration.
std::string emit_user_kernel(const std::string& text, const std::vector<UserKnob>& knobs, const Config& config,
                             const std::string& problem_label);

// The family of one kernel file: its knobs as above, every configuration valid (what fails is measured and
// given its status), the file's text part of the hash. Throws UserError(bad_input) as read_user_knobs does, or
// when the file cannot be read.
std::unique_ptr<Family> user_kernel_family(const std::filesystem::path& kernel_file);

}  // namespace kernelagent

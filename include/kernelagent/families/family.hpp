#pragma once
// A kernel family: real Triton source with knobs (DESIGN.md section 3). The family decides whether it
// implements a traced problem, declares its knob space from its manifest, prunes configurations the
// problem or the GPU cannot use, and emits the kernel file for one configuration.

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelagent/core/op_graph.hpp"
#include "kernelagent/core/precision.hpp"
#include "kernelagent/gpu/gpu_spec.hpp"

namespace kernelagent {

// A configuration: knob name -> value. Kept as JSON so it stores, prints and hashes as it is.
using Config = nlohmann::json;

struct Knob {
  std::string name;
  std::vector<nlohmann::json> domain;
  nlohmann::json default_value;
  std::vector<std::string> tags;  // purposes, from the shared vocabulary (see knob_tags())
  std::string purpose;
  // A variant switch: its values change the algorithm (another unit, a second pass), not one tile size, so
  // the other knobs' best values differ per value; the guided search keeps a beam parent for each.
  bool variant = false;
  // How the knob sizes the tile a program holds at once (in registers): the tile grows as value^tile_exponent.
  // 1 for a tile side (BLOCK_M: 128 -> 64 halves the tile), -1 for a split that shares one tile among
  // cooperating programs (the softmax's split_r: 48 -> 96 halves each program's part of the row), 0 for a
  // knob that does not size it (stages, a split of the K loop). The guided search moves num_warps with it.
  int tile_exponent = 0;
};

// The knobs two configurations set differently, a knob only one of them sets included; in the first
// configuration's order, then the second's. {"a":1,"b":2} against {"a":1,"b":3}: {"b"}.
std::vector<std::string> differing_knobs(const Config& a, const Config& b);

struct KnobSpace {
  std::vector<Knob> knobs;

  // Every combination of the knobs' domains, the default configuration first.
  std::vector<Config> enumerate() const;
  Config default_config() const;
  static KnobSpace from_manifest(const nlohmann::json& manifest);
};

// The shared vocabulary of optimisation purposes that knobs and prescription rules speak.
const std::vector<std::string>& knob_tags();

struct EmitContext {
  std::string problem_label;  // shown in the kernel's header comment
};

class Family {
 public:
  virtual ~Family() = default;
  virtual std::string name() const = 0;
  // nullopt when the family implements the problem; otherwise why not, in one sentence.
  virtual std::optional<std::string> why_not(const TraceResult& trace) const = 0;
  virtual const KnobSpace& knob_space() const = 0;
  // False for a configuration this problem, GPU or precision policy cannot use (pruned before anything is
  // compiled). `gpu` is null on the CPU.
  virtual bool valid(const Config& config, const TraceResult& trace, const GpuSpec* gpu, Precision precision) const = 0;
  // The complete, standalone kernel file (ModelNew) for one configuration.
  virtual std::string emit(const TraceResult& trace, const Config& config, const EmitContext& ctx) const = 0;
  // A hash of the family's source files, part of every stored result's key.
  virtual std::string source_hash() const = 0;
};

// What a family reads from its folder: the manifest, the knob space it declares, its kernel templates
// (every manifest key ending in "template", e.g. "template" -> the text of kernel.py.in) and a hash of all
// of it, which is part of every stored result's key.
struct FamilyFiles {
  nlohmann::json manifest;
  KnobSpace space;
  std::map<std::string, std::string> templates;
  std::string hash;

  static FamilyFiles read(const std::filesystem::path& dir);
};

// Sizes every family's pruning rules use: the smallest power of two >= n (a tile that covers n), and a
// ceiling division.
std::int64_t pow2_at_least(std::int64_t n);
std::int64_t cdiv(std::int64_t a, std::int64_t b);

// The parameter list of ModelNew.forward: the traced inputs' names, in order ("in0, in1").
std::string forward_params(const OpGraph& graph);

// Lines for the top of ModelNew.forward that refuse inputs other than those the kernel was specialised for:
// a non-tensor input must equal its traced value; a tensor input must be contiguous.
std::string forward_guards(const OpGraph& graph);

// Every built-in family, loaded from `families_dir` (their manifests and templates).
std::vector<std::unique_ptr<Family>> load_families(const std::filesystem::path& families_dir);

}  // namespace kernelagent

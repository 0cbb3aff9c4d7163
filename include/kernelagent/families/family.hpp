#pragma once
// A kernel family: real Triton source with knobs (DESIGN.md section 3). A family is its folder
// (families/<name>/: manifest.json and templates) plus one recogniser in C++ (src/families/<name>/) that
// turns a traced problem into the named parameters its templates and validity rule read. The base owns
// everything else: the manifest, the knob space, the hash, template filling and the ModelNew wrapper (the
// forward's guards and the parameters it owns). docs/families.md says how to add one.
//
// Example: the reduction family recognises torch.sum(x, dim=1) on [128, 4096, 4095] once, as the problem
// {op: sum, outer: 128, r: 4096, inner: 4095}; each configuration is then checked and emitted from that.

#include <cstdint>
#include <filesystem>
#include <functional>
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
  // Values that run the problem's products on another unit than the CUDA cores, from the manifest's
  // "units": {"tf32x3": {"unit": "tf32", "passes": 3}}: 3xTF32 is three TF32 products for one.
  struct Unit {
    std::string unit;  // "tf32" (tensor cores at the TF32 rate)
    int passes = 1;
  };
  std::map<std::string, Unit> units;
};

// The knobs two configurations set differently, a knob only one of them sets included; in the first
// configuration's order, then the second's. {"a":1,"b":2} against {"a":1,"b":3}: {"b"}.
std::vector<std::string> differing_knobs(const Config& a, const Config& b);

// Of `candidates`, the configuration that sets every knob of `knobs` to its value and, among those `keep`
// accepts (all when empty), sets the fewest other knobs differently from `from`; the earliest on a tie. Null
// when there is none. Example: from block_r 4096 with knobs {split_r: 96}, the configuration of split_r 96
// with only block_r changed.
const Config* nearest_setting(const std::vector<Config>& candidates, const Config& from, const Config& knobs,
                              const std::function<bool(const Config&)>& keep = {});

struct KnobSpace {
  std::vector<Knob> knobs;

  // Every combination of the knobs' domains, the default configuration first.
  std::vector<Config> enumerate() const;
  Config default_config() const;
  static KnobSpace from_manifest(const nlohmann::json& manifest);
};

// The shared vocabulary of optimisation purposes that knobs and prescription rules speak.
const std::vector<std::string>& knob_tags();

// The unit a configuration runs the problem's arithmetic on, for its roofline floor.
struct ComputeUnit {
  bool tensor_cores = false;
  int passes = 1;
  std::string label;  // "CUDA cores", "TF32 tensor cores", "3xTF32 tensor cores"
};

// What a family reads from its folder: the manifest, the knob space it declares, its templates (every
// file the manifest's "templates" object names, e.g. "kernel" -> the text of kernel.py.in) and a hash of
// all of it and of the family's C++ code, which is part of every stored result's key.
struct FamilyFiles {
  std::filesystem::path dir;
  nlohmann::json manifest;
  KnobSpace space;
  std::map<std::string, std::string> templates;
  std::string hash;

  // Throws std::runtime_error naming the file that is missing or malformed.
  static FamilyFiles read(const std::filesystem::path& dir, const std::string& code_hash);
};

struct EmitContext {
  std::string problem_label;  // shown in the kernel's header comment
};

// One kernel file's text before the base adds the wrapper: the template to fill (a key of the manifest's
// "templates") and the values of its placeholders. Values may be other templates rendered first
// (FamilyProblem::render), which is how a family picks a launch variant.
struct Emission {
  std::string template_name = "kernel";
  std::map<std::string, std::string> values;
};

class Family;

// A configuration worth measuring early that the problem alone points to, before anything is measured or
// profiled: the knobs to set over the default configuration and why. Example: a product whose B rows are
// 5921 floats apart (not 16-element aligned) suggests {"ALIGN": 1}, the aligned copy.
struct KnobSuggestion {
  Config knobs;
  std::string reason;
};

// A problem as one family sees it: recognised once, then asked about every configuration. Each family's
// recogniser returns a subclass holding its named parameters.
class FamilyProblem {
 public:
  FamilyProblem(const Family& family, TraceResult trace);
  virtual ~FamilyProblem() = default;

  const Family& family() const { return *family_; }
  const TraceResult& trace() const { return trace_; }

  // False for a configuration this problem, GPU (null on the CPU) or precision policy cannot use; pruned
  // before anything is compiled. A configuration recorded before a knob existed may lack it: the family
  // reads such a knob with its old behaviour as the default.
  bool valid(const Config& config, const GpuSpec* gpu, Precision precision) const;
  // The complete, standalone kernel file (ModelNew) for one configuration: the family's emission, filled
  // into its template together with the wrapper's placeholders (docs/families.md). A user's kernel file
  // (user_kernel.hpp) is emitted as that file with its marked constants set instead.
  virtual std::string emit(const Config& config, const EmitContext& ctx) const;
  // What the problem's shapes and layouts alone suggest measuring early (none by default); the search
  // measures each right after the default configuration, as the nearest valid configuration that sets them.
  virtual std::vector<KnobSuggestion> suggestions() const { return {}; }

 protected:
  virtual bool valid_config(const Config& config, const GpuSpec* gpu, Precision precision) const = 0;
  virtual Emission emission(const Config& config) const = 0;
  // Another of the family's templates filled with `values`, for a placeholder of the main one. Every
  // placeholder must be given and every value used.
  std::string render(const std::string& template_name, const std::map<std::string, std::string>& values) const;
  // The same without the newlines its file ends with: a part placed inside another template's line.
  std::string render_part(const std::string& template_name, const std::map<std::string, std::string>& values) const;
  // The same from a table of values of which the template uses some (sizes shared by several kernels);
  // a placeholder missing from the table is still an error.
  std::string render_from(const std::string& template_name, const std::map<std::string, std::string>& table) const;
  // A helper shared with other families (families/common, named in the manifest's templates), without the
  // newlines its file ends with: the base places it where the main template asks for it by name in
  // capitals; a family may place it elsewhere itself (in one of its own templates).
  std::string shared_helper(const std::string& name) const;

 private:
  const Family* family_;
  TraceResult trace_;
};

// What a recogniser makes of a trace: the problem, or one sentence saying why the family does not
// implement it.
struct Recognition {
  std::shared_ptr<const FamilyProblem> problem;
  std::string why_not;
  explicit operator bool() const { return problem != nullptr; }
};

class Family {
 public:
  using Recogniser = Recognition (*)(const Family& family, const TraceResult& trace);

  Family(FamilyFiles files, Recogniser recogniser);

  const std::string& name() const { return name_; }
  const KnobSpace& knob_space() const { return files_.space; }
  const std::string& source_hash() const { return files_.hash; }
  const nlohmann::json& manifest() const { return files_.manifest; }
  const std::map<std::string, std::string>& templates() const { return files_.templates; }
  // Where the family's files were read from (names messages).
  const std::filesystem::path& dir() const { return files_.dir; }

  // The family's recogniser; a problem that changes an input in place (OpGraph::written_inputs) only where
  // the manifest states the fact "writes_inputs_in_place" (its kernels write there as the reference does).
  Recognition recognise(const TraceResult& trace) const;

  // Facts the manifest states ("facts": {"matrix_product": true}): what the engine may know about the
  // family's problems without knowing the family.
  bool fact(const std::string& name) const;
  // The unit a configuration computes on under a precision policy, from the knobs' "units".
  ComputeUnit compute_unit(const Config& config, Precision precision) const;

 private:
  FamilyFiles files_;
  std::string name_;
  Recogniser recognise_;
};

// Sizes every family's pruning rules use: the smallest power of two >= n (a tile that covers n), and a
// ceiling division.
std::int64_t pow2_at_least(std::int64_t n);
std::int64_t cdiv(std::int64_t a, std::int64_t b);

// A rendered part without the newlines its text ends with, to be placed inside another template's line.
std::string strip_final_newlines(std::string text);
// Whether a kernel source calls a helper of families/common/math_helpers.py.in (_atan, _atan2, _erfinv).
bool calls_math_helper(const std::string& source);

}  // namespace kernelagent

#include "kernelagent/families/family.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "kernelagent/core/hash.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/core/layout_ops.hpp"
#include "kernelagent/families/model_wrapper.hpp"

namespace kernelagent {

using nlohmann::json;

const std::vector<std::string>& knob_tags() {
  static const std::vector<std::string> tags = {
      "parallelism", "reuse", "pipelining", "occupancy", "coalescing", "l2_locality",
      "tensor_cores", "bytes_moved", "launch_overhead", "reduction_tree", "tail", "alignment"};
  return tags;
}

KnobSpace KnobSpace::from_manifest(const json& manifest) {
  KnobSpace space;
  for (const auto& k : manifest.at("knobs")) {
    Knob knob;
    knob.name = k.at("name").get<std::string>();
    for (const auto& v : k.at("domain")) knob.domain.push_back(v);
    knob.default_value = k.at("default");
    knob.tags = k.value("tags", std::vector<std::string>{});
    knob.purpose = k.value("purpose", std::string());
    knob.variant = k.value("variant", false);
    knob.tile_exponent = k.value("tile_exponent", 0);
    const json units = k.value("units", json::object());
    for (const auto& [value, unit] : units.items())
      knob.units[value] = {unit.at("unit").get<std::string>(), unit.value("passes", 1)};
    for (const auto& t : knob.tags)
      if (std::find(knob_tags().begin(), knob_tags().end(), t) == knob_tags().end())
        throw std::runtime_error("knob '" + knob.name + "' has unknown purpose tag '" + t + "'");
    if (knob.domain.empty() || std::find(knob.domain.begin(), knob.domain.end(), knob.default_value) == knob.domain.end())
      throw std::runtime_error("knob '" + knob.name + "' has a default outside its domain");
    space.knobs.push_back(std::move(knob));
  }
  return space;
}

const Config* nearest_setting(const std::vector<Config>& candidates, const Config& from, const Config& knobs,
                              const std::function<bool(const Config&)>& keep) {
  const Config* best = nullptr;
  std::size_t fewest = 0;
  for (const auto& c : candidates) {
    bool sets = true;
    for (const auto& [k, v] : knobs.items()) sets = sets && c.contains(k) && c.at(k) == v;
    if (!sets || (keep && !keep(c))) continue;
    const std::size_t changed = differing_knobs(c, from).size();
    if (!best || changed < fewest) best = &c, fewest = changed;
  }
  return best;
}

std::vector<std::string> differing_knobs(const Config& a, const Config& b) {
  std::vector<std::string> out;
  if (!a.is_object() || !b.is_object()) return out;
  for (const auto& [k, v] : a.items())
    if (!b.contains(k) || b.at(k) != v) out.push_back(k);
  for (const auto& [k, v] : b.items())
    if (!a.contains(k)) out.push_back(k);
  return out;
}

Config KnobSpace::default_config() const {
  Config c = json::object();
  for (const auto& k : knobs) c[k.name] = k.default_value;
  return c;
}

std::vector<Config> KnobSpace::enumerate() const {
  std::vector<Config> all = {json::object()};
  for (const auto& k : knobs) {
    std::vector<Config> next;
    for (const auto& partial : all)
      for (const auto& v : k.domain) {
        Config c = partial;
        c[k.name] = v;
        next.push_back(std::move(c));
      }
    all = std::move(next);
  }
  const Config def = default_config();
  std::stable_partition(all.begin(), all.end(), [&](const Config& c) { return c == def; });
  return all;
}

FamilyFiles FamilyFiles::read(const std::filesystem::path& dir, const std::string& code_hash) {
  FamilyFiles f;
  f.dir = dir;
  const auto manifest_path = dir / "manifest.json";
  std::string manifest_text;
  try {
    manifest_text = read_text_file(manifest_path);
    f.manifest = json::parse(manifest_text);
    f.space = KnobSpace::from_manifest(f.manifest);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("kernel family manifest {}: {}", manifest_path.string(), e.what()));
  }
  if (!f.manifest.contains("templates") || !f.manifest.at("templates").is_object() ||
      !f.manifest.at("templates").contains("kernel"))
    throw std::runtime_error(fmt::format("kernel family manifest {} names no \"templates\" with a \"kernel\"",
                                         manifest_path.string()));
  // Everything that shapes the emitted source is hashed: the manifest, every template, the C++ code.
  std::string all = manifest_text + code_hash;
  for (const auto& [key, file] : f.manifest.at("templates").items()) {
    const auto path = dir / file.get<std::string>();
    try {
      all += f.templates[key] = read_text_file(path);
    } catch (const std::exception&) {
      throw std::runtime_error(fmt::format("kernel family {}: template \"{}\" ({}) cannot be read", dir.string(), key,
                                           path.string()));
    }
  }
  f.hash = hash_hex(all);
  return f;
}

Family::Family(FamilyFiles files, Recogniser recogniser)
    : files_(std::move(files)), name_(files_.manifest.value("name", files_.dir.filename().string())),
      recognise_(recogniser) {}

bool Family::fact(const std::string& name) const {
  const json facts = files_.manifest.value("facts", json::object());
  return facts.is_object() && facts.value(name, false);
}

ComputeUnit Family::compute_unit(const Config& config, Precision precision) const {
  ComputeUnit u;
  for (const auto& k : files_.space.knobs) {
    if (!config.is_object() || !config.contains(k.name) || !config.at(k.name).is_string()) continue;
    auto it = k.units.find(config.at(k.name).get<std::string>());
    if (it == k.units.end()) continue;
    u.tensor_cores = true;
    u.passes = it->second.passes;
  }
  // Under --precision tf32 an fp32 problem's floor is the tensor cores' whatever the knobs (today's
  // products run on them; a memory-bound family is bound by DRAM under either floor).
  if (precision == Precision::tf32) u.tensor_cores = true;
  u.label = !u.tensor_cores ? "CUDA cores"
            : u.passes > 1  ? fmt::format("{}xTF32 tensor cores", u.passes)
                            : "TF32 tensor cores";
  return u;
}

FamilyProblem::FamilyProblem(const Family& family, TraceResult trace) : family_(&family), trace_(std::move(trace)) {}

bool FamilyProblem::valid(const Config& config, const GpuSpec* gpu, Precision precision) const {
  return config.is_object() && valid_config(config, gpu, precision);
}

std::string FamilyProblem::render(const std::string& template_name,
                                  const std::map<std::string, std::string>& values) const {
  auto it = family_->templates().find(template_name);
  if (it == family_->templates().end())
    throw std::runtime_error(fmt::format("kernel family {} has no template \"{}\"", family_->name(), template_name));
  try {
    return fill_template(it->second, values);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("kernel family {}, template \"{}\": {}", family_->name(), template_name, e.what()));
  }
}

std::string FamilyProblem::render_from(const std::string& template_name,
                                       const std::map<std::string, std::string>& table) const {
  auto it = family_->templates().find(template_name);
  if (it == family_->templates().end())
    throw std::runtime_error(fmt::format("kernel family {} has no template \"{}\"", family_->name(), template_name));
  std::map<std::string, std::string> used;
  for (const auto& [key, value] : table)
    if (it->second.find("{{" + key + "}}") != std::string::npos) used[key] = value;
  return render(template_name, used);
}

std::string FamilyProblem::emit(const Config& config, const EmitContext& ctx) const {
  Emission e = emission(config);
  const ModelWrapper wrapper = model_wrapper(trace_);
  for (const auto& [key, value] : std::map<std::string, std::string>{{"PROBLEM", ctx.problem_label},
                                                                     {"CONFIG", config.dump()},
                                                                     {"FORWARD_PARAMS", wrapper.forward_params},
                                                                     {"FORWARD_CHECKS", wrapper.forward_checks},
                                                                     {"MODEL_INIT", wrapper.model_init}}) {
    if (e.values.contains(key))
      throw std::runtime_error(fmt::format("kernel family {} sets {{{{{}}}}}, which the base fills", family_->name(), key));
    e.values[key] = value;
  }
  // The helpers a family's kernel shares with others (families/common): the pointwise ones (_tanh, _log) and
  // the K-major copy of an operand. Named in the manifest's templates, filled where the kernel template asks
  // for them by their name in capitals, unless the family filled that place itself.
  const auto& templates = family_->templates();
  const auto main = templates.find(e.template_name);
  for (const auto& [name, slot] : {std::pair{"pointwise_helpers", "POINTWISE_HELPERS"},
                                   std::pair{"k_major_copy", "K_MAJOR_COPY"}}) {
    if (!templates.contains(name) || main == templates.end() || e.values.contains(slot) ||
        main->second.find(fmt::format("{{{{{}}}}}", slot)) == std::string::npos)
      continue;
    e.values[slot] = shared_helper(name);
  }
  std::string source = render(e.template_name, e.values);
  // The math helpers (families/common/math_helpers.py.in: _atan, _atan2, _erfinv) join only the kernels that
  // call them, at the end of the file: Triton resolves a helper when it compiles the kernel.
  if (templates.contains("math_helpers") && calls_math_helper(source))
    source = strip_final_newlines(source) + "\n\n\n" + shared_helper("math_helpers");
  if (trace_.around) source = strip_final_newlines(source) + "\n" + layout_wrapper(*trace_.around);
  return source;
}

std::string FamilyProblem::render_part(const std::string& template_name,
                                       const std::map<std::string, std::string>& values) const {
  return strip_final_newlines(render(template_name, values));
}

bool calls_math_helper(const std::string& source) {
  for (const char* name : {"_atan(", "_atan2(", "_erfinv("})
    if (source.find(name) != std::string::npos) return true;
  return false;
}

std::string strip_final_newlines(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string FamilyProblem::shared_helper(const std::string& name) const { return render_part(name, {}); }

Recognition Family::recognise(const TraceResult& trace) const {
  const auto& written = trace.graph.written_inputs;
  if (!written.empty() && !fact("writes_inputs_in_place"))
    return {nullptr, fmt::format("the problem changes its input {} in place, which this family's kernels do not",
                                 written.begin()->first)};
  return recognise_(*this, trace);
}

std::int64_t pow2_at_least(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

std::int64_t cdiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace kernelagent

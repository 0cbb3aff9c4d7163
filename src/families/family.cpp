#include "kernelagent/families/family.hpp"

#include <stdexcept>

#include "kernelagent/core/hash.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/families/elementwise/pointwise_ops.hpp"

#include <fmt/format.h>
#include "kernelagent/families/elementwise/elementwise_family.hpp"
#include "kernelagent/families/matmul/matmul_family.hpp"
#include "kernelagent/families/matvec/matvec_family.hpp"
#include "kernelagent/families/reduction/reduction_family.hpp"

namespace kernelagent {

using nlohmann::json;

const std::vector<std::string>& knob_tags() {
  static const std::vector<std::string> tags = {
      "parallelism", "reuse", "pipelining", "occupancy", "coalescing", "l2_locality",
      "tensor_cores", "bytes_moved", "launch_overhead", "reduction_tree", "tail"};
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
    for (const auto& t : knob.tags)
      if (std::find(knob_tags().begin(), knob_tags().end(), t) == knob_tags().end())
        throw std::runtime_error("manifest: knob '" + knob.name + "' has unknown purpose tag '" + t + "'");
    if (knob.domain.empty() || std::find(knob.domain.begin(), knob.domain.end(), knob.default_value) == knob.domain.end())
      throw std::runtime_error("manifest: knob '" + knob.name + "' has a default outside its domain");
    space.knobs.push_back(std::move(knob));
  }
  return space;
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

FamilyFiles FamilyFiles::read(const std::filesystem::path& dir) {
  FamilyFiles f;
  const std::string manifest_text = read_text_file(dir / "manifest.json");
  f.manifest = json::parse(manifest_text);
  f.space = KnobSpace::from_manifest(f.manifest);
  std::string all = manifest_text;
  for (const auto& [key, value] : f.manifest.items())
    if (key.ends_with("template")) all += f.templates[key] = read_text_file(dir / value.get<std::string>());
  if (!f.templates.contains("template")) throw std::runtime_error("manifest in " + dir.string() + " names no template");
  f.hash = hash_hex(all);
  return f;
}

std::int64_t pow2_at_least(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

std::int64_t cdiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::string forward_params(const OpGraph& graph) {
  std::string params;
  for (const auto& in : graph.inputs) params += (params.empty() ? "" : ", ") + in.name;
  return params;
}

std::string forward_guards(const OpGraph& graph) {
  std::string lines;
  for (const auto& in : graph.inputs) {
    if (in.is_tensor) {
      lines += fmt::format("        assert {0}.is_contiguous(), \"{0} must be contiguous\"\n", in.name);
    } else {
      const std::string value = in.value.is_number_float() ? float_literal(in.value.get<double>()) : in.value.dump();
      lines += fmt::format("        assert {0} == {1}, \"this kernel was specialised for {0} = {1}\"\n", in.name, value);
    }
  }
  if (!lines.empty()) lines.pop_back();  // the template supplies the last newline
  return lines;
}

std::vector<std::unique_ptr<Family>> load_families(const std::filesystem::path& families_dir) {
  std::vector<std::unique_ptr<Family>> out;
  out.push_back(std::make_unique<ElementwiseFamily>(families_dir / "elementwise"));
  out.push_back(std::make_unique<ReductionFamily>(families_dir / "reduction"));
  // A matrix-vector product is also a matmul problem: the specialised family is asked first.
  out.push_back(std::make_unique<MatvecFamily>(families_dir / "matvec"));
  out.push_back(std::make_unique<MatmulFamily>(families_dir / "matmul"));
  return out;
}

}  // namespace kernelagent

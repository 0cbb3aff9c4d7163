#include "kernelagent/orchestrate/warm_start.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <tuple>

namespace kernelagent {

namespace {

// A problem signature taken apart: "in0:float32[16x1000];in1=2;aten.relu.default;" has one tensor input,
// one literal and one op.
struct Signature {
  struct Input {
    std::string kind;  // the dtype of a tensor, or the literal of a non-tensor input
    std::vector<double> dims;
  };
  std::vector<Input> inputs;
  std::vector<std::string> ops;
};

Signature parse(const std::string& text) {
  Signature sig;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find(';', pos);
    if (end == std::string::npos) end = text.size();
    const std::string token = text.substr(pos, end - pos);
    pos = end + 1;
    if (token.empty()) continue;
    // Inputs are named inN (TraceResult::signature); anything else is an op.
    const std::size_t sep = token.find_first_of(":=");
    const bool input =
        token.rfind("in", 0) == 0 && sep != std::string::npos && token.find_first_not_of("0123456789", 2) == sep;
    if (!input) {
      sig.ops.push_back(token);
      continue;
    }
    Signature::Input in;
    const std::size_t open = token.find('[', sep);
    if (token[sep] == ':' && open != std::string::npos && token.back() == ']') {
      in.kind = token.substr(sep + 1, open - sep - 1);
      const std::string dims = token.substr(open + 1, token.size() - open - 2);
      for (std::size_t p = 0; p < dims.size();) {
        std::size_t x = dims.find('x', p);
        if (x == std::string::npos) x = dims.size();
        in.dims.push_back(std::max(1.0, std::atof(dims.substr(p, x - p).c_str())));
        p = x + 1;
      }
    } else {
      in.kind = token.substr(sep);  // "=2": a literal is compared as it is written
    }
    sig.inputs.push_back(std::move(in));
  }
  return sig;
}

}  // namespace

namespace {

// The shape distance of two parsed signatures with the same number of inputs.
double shape_distance(const Signature& sa, const Signature& sb) {
  double d = 0;
  for (std::size_t i = 0; i < sa.inputs.size(); ++i) {
    std::vector<double> x = sa.inputs[i].dims, y = sb.inputs[i].dims;
    if (sa.inputs[i].kind != sb.inputs[i].kind) d += 1;
    while (x.size() < y.size()) x.insert(x.begin(), 1.0);
    while (y.size() < x.size()) y.insert(y.begin(), 1.0);
    for (std::size_t k = 0; k < x.size(); ++k) d += std::abs(std::log2(x[k] / y[k]));
  }
  return d;
}

}  // namespace

std::optional<double> signature_distance(const std::string& a, const std::string& b) {
  const Signature sa = parse(a), sb = parse(b);
  if (sa.ops != sb.ops || sa.inputs.size() != sb.inputs.size()) return std::nullopt;
  return shape_distance(sa, sb);
}

std::optional<double> family_distance(const std::string& a, const std::string& b) {
  const Signature sa = parse(a), sb = parse(b);
  if (sa.inputs.size() != sb.inputs.size()) return std::nullopt;
  return shape_distance(sa, sb) + (sa.ops == sb.ops ? 0.0 : kOtherOps);
}

Config in_space(const Config& stored, const KnobSpace& space) {
  Config c = space.default_config();
  for (const auto& k : space.knobs) {
    if (!stored.is_object() || !stored.contains(k.name)) continue;
    const auto& v = stored.at(k.name);
    if (std::find(k.domain.begin(), k.domain.end(), v) != k.domain.end()) c[k.name] = v;
  }
  return c;
}

std::vector<WarmStart> warm_starts_for(const std::vector<FinishedRun>& runs, const std::string& signature,
                                       const KnobSpace& space, const std::vector<Config>& valid, std::size_t most) {
  struct Near {
    double distance;
    std::size_t order;  // newest first: of two equally near runs, the newer wins
    const FinishedRun* run;
    Config config;
  };
  std::vector<Near> near;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto d = family_distance(signature, runs[i].problem_signature);
    if (!d) continue;
    Config c = in_space(runs[i].best_config, space);
    if (std::find(valid.begin(), valid.end(), c) == valid.end()) continue;
    near.push_back({*d, i, &runs[i], std::move(c)});
  }
  std::sort(near.begin(), near.end(),
            [](const Near& a, const Near& b) { return std::tie(a.distance, a.order) < std::tie(b.distance, b.order); });
  std::vector<WarmStart> out;
  for (const auto& n : near) {
    if (out.size() >= most) break;
    // The first valid configuration is the default the search measures first anyway.
    if (n.config == valid.front() ||
        std::any_of(out.begin(), out.end(), [&](const WarmStart& w) { return w.config == n.config; }))
      continue;
    out.push_back({n.run->id, n.config,
                   fmt::format("warm start from run {} (the best configuration of a similar problem, {})", n.run->id,
                               n.run->problem_signature)});
  }
  return out;
}

}  // namespace kernelagent

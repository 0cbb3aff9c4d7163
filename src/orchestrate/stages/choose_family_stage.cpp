#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelagent/core/layout_ops.hpp"
#include "kernelagent/core/status.hpp"
#include "kernelagent/orchestrate/stages/optimize_stages.hpp"

namespace kernelagent {

std::optional<RunEnd> choose_family_stage(OptimizeState& s) {
  // The families come in load_families's order, a specialised family before a general one that also
  // implements its problems, so the first that implements the problem is taken; the others' reasons
  // explain a refusal.
  // Each family's recogniser sees the trace once; the problem it recognised is what the search asks about
  // every configuration.
  if (std::string op = s.trace.graph.random_target(); !op.empty())
    return RunEnd{ExitCode::unsupported, std::string(status::unsupported),
                  fmt::format("the reference draws random numbers ({}: a dropout in training mode, or torch.rand and "
                              "its kind), so its output differs on every call and no kernel can be checked against "
                              "it; a problem whose Model uses dropout needs it in eval mode or with p = 0",
                              op)};
  // A tensor of no elements has no kernel to write (and an empty row would be read past its end): said once,
  // here, for every family.
  for (std::size_t i = 0; i < s.trace.graph.inputs.size(); ++i)
    if (const auto& in = s.trace.graph.inputs[i]; in.is_tensor && in.meta.numel() == 0)
      return RunEnd{ExitCode::unsupported, std::string(status::unsupported),
                    fmt::format("get_inputs()[{}] has no elements (shape [{}]): the kernel families need at least one",
                                i, fmt::join(in.meta.shape, ", "))};
  for (const auto& out : s.trace.graph.outputs)
    if (auto meta = s.trace.graph.meta_of(out); meta && !meta->shape.empty() && meta->numel() == 0)
      return RunEnd{ExitCode::unsupported, std::string(status::unsupported),
                    fmt::format("the output {} has no elements (shape [{}]): the kernel families need at least one",
                                out, fmt::join(meta->shape, ", "))};
  std::vector<std::string> reasons;
  for (const auto& f : s.families) {
    if (!s.opt.family.empty() && f->name() != s.opt.family) continue;
    Recognition r = f->recognise(s.trace);
    if (!r) {
      reasons.push_back(f->name() + ": " + r.why_not);
    } else if (!s.family) {
      s.family = f.get();
      s.recognised = r.problem;
    }
  }
  // No family takes the whole problem: the computation between its layout ops (permutes, views, copies to
  // another layout of the inputs or the result), as it stands and then with its inputs made contiguous; the
  // kernel does the computation and ModelNew the layout ops around it (layout_ops.hpp). Only now, so that a
  // family that reads a strided input itself keeps it. The reasons given stay the whole problem's.
  // Last, the whole problem with its inputs made contiguous.
  for (const int form : {0, 1, 2}) {
    auto core = s.family ? std::nullopt : form < 2 ? layout_core(s.trace, form == 1) : with_contiguous_inputs(s.trace);
    for (const auto& f : s.families) {
      if (!core || s.family) break;
      if (!s.opt.family.empty() && f->name() != s.opt.family) continue;
      if (Recognition r = f->recognise(*core)) {
        s.family = f.get();
        s.recognised = r.problem;
      }
    }
  }
  if (!s.family && !s.opt.family.empty() && reasons.empty())
    return RunEnd{ExitCode::bad_input, "bad_input", fmt::format("there is no kernel family named '{}'", s.opt.family)};
  if (!s.family)
    return RunEnd{ExitCode::unsupported, std::string(status::unsupported),
                  fmt::format("no kernel family implements this problem (ops: {}). {}",
                              fmt::join(s.trace.graph.targets(), ", "), fmt::join(reasons, "; "))};
  // Triton's interpreter multiplies the raw bit patterns of bfloat16 operands in tl.dot: every such kernel
  // would fail its check there with numbers of no meaning, so the run says why at once.
  if (!s.on_gpu && s.family->fact("matrix_product") && s.result.value("interpreter", false))
    for (const auto& in : s.trace.graph.inputs)
      if (in.is_tensor && in.meta.dtype == "bfloat16")
        return RunEnd{ExitCode::unsupported, std::string(status::unsupported),
                      fmt::format("the {} family's products of bfloat16 inputs cannot be checked on Triton's "
                                  "interpreter (its tl.dot reads bfloat16 operands as integers); run on a GPU",
                                  s.family->name())};
  s.result["family"] = s.family->name();
  s.result["family_hash"] = s.family->source_hash();
  return std::nullopt;
}

}  // namespace kernelagent

#include "kernelagent/orchestrate/replay_context.hpp"

namespace kernelagent {

SearchContext replay_context(const SweepRecord& rec) {
  SearchContext ctx;
  ctx.space = &rec.space();
  ctx.valid = rec.configs();
  ctx.bound = rec.bound();
  if (rec.profiled()) ctx.cause_of = [&rec](const Config& c) { return rec.cause(c); };
  return ctx;
}

}  // namespace kernelagent

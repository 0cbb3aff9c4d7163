// Under-utilisation and launch causes: the GPU is mostly idle because of how the kernel is launched.

#include <cmath>

#include <fmt/format.h>

#include "kernelagent/diagnose/rule.hpp"

namespace kernelagent {

std::vector<Rule> utilization_rules() {
  return {
      // launch_overhead. Example: one program adding 1024 floats runs 2.5 us: launch latency and ramp-up are
      // the whole cost; fuse it with its neighbours or batch more work per launch.
      {"launch_bound", "launch_overhead",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         const double shortest = f.limit("launch_bound_ns");
         if (f.duration_ns <= 0 || f.duration_ns >= shortest) return std::nullopt;
         auto b = make_bottleneck("launch_bound", "launch_overhead", 0.99 - 0.3 * f.duration_ns / shortest,
                                  fmt::format("the whole kernel takes {:.1f} us: launch overhead dominates", f.duration_ns / 1000));
         b.evidence.push_back({"gpu__time_duration.sum", f.duration_ns, shortest,
                               "nanoseconds on the GPU; a few microseconds is what a launch itself costs"});
         return b;
       }},
      // small_grid. Example: 4 programs walk a 2^24 array on a 132-SM GPU: 128 SMs have nothing to do.
      {"underutilized", "small_grid",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         if (!f.grid || f.sm_count <= 0 || *f.grid >= f.sm_count) return std::nullopt;
         if (f.duration_ns > 0 && f.duration_ns < f.limit("launch_bound_ns")) return std::nullopt;  // launch_overhead says it
         const double idle = 1 - *f.grid / f.sm_count;
         // 4 programs on 132 SMs is the whole story; 128 on 132 wastes 3 % and is a footnote.
         auto b = make_bottleneck("underutilized", "small_grid", 0.3 + 0.69 * idle,
                                  fmt::format("{:.0f} programs for {} SMs: {:.0f}% of the GPU has no work", *f.grid,
                                              f.sm_count, 100 * idle));
         b.evidence.push_back({"launch__grid_size", *f.grid, static_cast<double>(f.sm_count),
                               "programs (blocks) launched; fewer than the SMs leaves SMs idle"});
         if (f.waves) b.evidence.push_back({"launch__waves_per_multiprocessor", *f.waves, 1, "waves of blocks per SM"});
         return b;
       }},
      // tail_effect. Example: 1.1 waves of blocks: the second wave runs 10 % of the SMs while the rest idle,
      // nearly half the time; a grid that fills whole waves (or a persistent kernel) removes it.
      {"underutilized", "tail_effect",
       [](const KernelFacts& f) -> std::optional<Bottleneck> {
         if (!f.waves || *f.waves < 1 || *f.waves > f.limit("tail_max_waves")) return std::nullopt;
         const double waves = std::ceil(*f.waves);
         const double lost = (waves - *f.waves) / waves;  // share of SM time idle in the last wave
         if (lost < f.limit("tail_idle_share")) return std::nullopt;
         auto b = make_bottleneck("underutilized", "tail_effect", 0.45 + lost,
                                  fmt::format("{:.2f} waves: the last wave leaves {:.0f}% of SM time idle", *f.waves, 100 * lost));
         b.evidence.push_back({"launch__waves_per_multiprocessor", *f.waves, waves,
                               "waves of blocks per SM; a partial last wave runs on few SMs"});
         return b;
       }},
  };
}

}  // namespace kernelagent

// A seeded shuffle of the valid configurations: the baseline any guided search has to beat.

#include <algorithm>
#include <random>

#include "kernelagent/orchestrate/search_strategy.hpp"

namespace kernelagent {

namespace {
class RandomSearch : public SearchStrategy {
 public:
  explicit RandomSearch(std::uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  std::optional<std::pair<Config, std::string>> next(const SearchContext& ctx) override {
    if (order_.empty() && !ctx.valid.empty()) {
      order_ = ctx.valid;
      std::shuffle(order_.begin(), order_.end(), rng_);
    }
    for (const auto& c : order_)
      if (!ctx.measured(c)) return std::make_pair(c, std::string("random pick"));
    return std::nullopt;
  }

 private:
  std::mt19937_64 rng_;
  std::vector<Config> order_;
};
}  // namespace

std::unique_ptr<SearchStrategy> make_random_search(std::uint64_t seed) { return std::make_unique<RandomSearch>(seed); }

}  // namespace kernelagent

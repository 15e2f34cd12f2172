// The matchup simulator (duels/sim.cpp) beside the baseline it replaces: whole matches through
// the rules engine with the built-in opponent (duels/autoplay.cpp). Both play seeded 1-vs-1
// matches of sample loadouts; the counters give matches per second, and the simulator's
// `ratio_vs_engine` is its rate over the engine's, measured in the same run.
// The goal: ≥ 20,000 simulated matches per second on one core.
#include <benchmark/benchmark.h>

#include <chrono>
#include <string>

#include "duels/assets.hpp"
#include "duels/autoplay.hpp"
#include "duels/sim.hpp"

namespace {

duels::SimSide side(const duels::AssetLibrary& lib, const char* figure,
                    std::initializer_list<const char*> gear) {
  duels::SimSide s{*lib.find_figure(figure), {}};
  for (const char* g : gear)
    s.gear.push_back(*lib.find_gear(g));
  return s;
}

struct Matchup {
  duels::SimSide a, b;
};

Matchup matchup() {
  static const duels::AssetLibrary lib = duels::load_asset_library(DUELS_ASSETS_DIR);
  return {side(lib, "Razor", {"armored-jacket", "smartgun-link", "stim-patch"}),
          side(lib, "Hex", {"power-focus", "spirit-ward", "stim-patch"})};
}

double engine_matches_per_second(const Matchup& m, int games) {
  duels::MatchSetup setup;
  setup.teams.push_back({"A", {{m.a.figure, m.a.gear, std::nullopt}}});
  setup.teams.push_back({"B", {{m.b.figure, m.b.gear, std::nullopt}}});
  auto cache = std::make_shared<duels::OddsCache>();
  const auto t0 = std::chrono::steady_clock::now();
  for (int g = 0; g < games; ++g) {
    duels::GameState s = *duels::new_game(setup);
    duels::AutoPlayer ai(static_cast<std::uint64_t>(g) + 1, cache);
    while (auto c = ai.next(s))
      benchmark::DoNotOptimize(duels::apply(s, *c));
  }
  return games / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void BM_SimMatches(benchmark::State& state) {
  const Matchup m = matchup();
  auto cache = duels::make_sim_cache();
  (void)duels::simulate(m.a, m.b, 2000, 99, 100, cache);  // work out the odds table once
  const int batch = 1000;
  std::uint64_t seed = 1;
  for (auto _ : state)
    benchmark::DoNotOptimize(duels::simulate(m.a, m.b, batch, seed++, 100, cache));
  state.counters["matches_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * batch, benchmark::Counter::kIsRate);
  const double engine = engine_matches_per_second(m, 200);
  state.counters["engine_matches_per_s"] = engine;
  const auto t0 = std::chrono::steady_clock::now();
  (void)duels::simulate(m.a, m.b, 20000, 7, 100, cache);
  const double sim =
      20000 / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  state.counters["ratio_vs_engine"] = sim / engine;
}
BENCHMARK(BM_SimMatches)->Unit(benchmark::kMillisecond);

void BM_SimColdStart(benchmark::State& state) {
  const Matchup m = matchup();
  for (auto _ : state)
    benchmark::DoNotOptimize(duels::simulate(m.a, m.b, 20000, 3));
  state.counters["matches_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * 20000, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SimColdStart)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();

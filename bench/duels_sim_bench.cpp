// The matchup simulator (`duels sim`, duels/sim.cpp: whole engine matches played by the built-in
// opponent) beside its baseline, the one-dimensional model it replaced (duels/sim_line.cpp), in
// the same run. Both play seeded 1-vs-1 matches of the same sample loadouts with warm odds
// caches; the counters give matches per CPU second of one core (the machine may be shared), and
// `ratio_vs_line_model` is the engine simulator's rate over the model's, both timed in CPU
// seconds in the same run.
// The goal: ≥ 10,000 engine matches per second on the demo table with terrain.
#include <benchmark/benchmark.h>

#include <ctime>
#include <string>
#include <vector>

#include "duels/assets.hpp"
#include "duels/autoplay.hpp"
#include "duels/engine.hpp"
#include "duels/scene.hpp"
#include "duels/sim.hpp"
#include "duels/sim_line.hpp"
#include "duels/table_rules.hpp"

namespace {

const duels::AssetLibrary& lib() {
  static const duels::AssetLibrary l = duels::load_asset_library(DUELS_ASSETS_DIR);
  return l;
}

duels::SimSide side(const char* figure, std::initializer_list<const char*> gear) {
  duels::SimSide s{*lib().find_figure(figure), {}};
  for (const char* g : gear)
    s.gear.push_back(*lib().find_gear(g));
  return s;
}

struct Matchup {
  duels::SimSide a, b;
};

Matchup matchup() {
  return {side("Razor", {"armored-jacket", "smartgun-link", "stim-patch"}),
          side("Hex", {"power-focus", "spirit-ward", "stim-patch"})};
}

duels::TableState demo_table() {
  return duels::table_from_scene(
      duels::load_scene_file(std::string(DUELS_ASSETS_DIR) + "/scenes/demo_table.yaml",
                             [](std::string_view n) { return lib().find_figure(n); }));
}

// CPU seconds of this thread: the machine may be shared, and the goal is per core.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// The baseline's rate with a warm cache, timed in the same process.
double line_model_matches_per_second(const Matchup& m) {
  auto cache = duels::make_line_model_cache();
  (void)duels::simulate_line_model(m.a, m.b, 2000, 99, 100, cache);
  const int games = 20000;
  const double t0 = cpu_seconds();
  benchmark::DoNotOptimize(duels::simulate_line_model(m.a, m.b, games, 7, 100, cache));
  return games / (cpu_seconds() - t0);
}

void engine_sim(benchmark::State& state, duels::TableState table) {
  const Matchup m = matchup();
  duels::SimOptions options;
  options.table = std::move(table);
  options.odds = std::make_shared<duels::OddsCache>();
  (void)duels::simulate(m.a, m.b, 300, 99, options);  // the odds of most situations, once
  const int batch = 50;
  std::uint64_t seed = 1;
  for (auto _ : state)
    benchmark::DoNotOptimize(duels::simulate(m.a, m.b, batch, seed++, options));
  state.counters["matches_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * batch, benchmark::Counter::kIsRate);
  const double t0 = cpu_seconds();
  const int games = 300;
  benchmark::DoNotOptimize(duels::simulate(m.a, m.b, games, 12345, options));
  const double engine = games / (cpu_seconds() - t0);
  const double line = line_model_matches_per_second(m);
  state.counters["line_model_matches_per_s"] = line;
  state.counters["ratio_vs_line_model"] = engine / line;
}

void BM_SimEngineDemoTable(benchmark::State& state) {
  engine_sim(state, demo_table());
}
BENCHMARK(BM_SimEngineDemoTable)->Unit(benchmark::kMillisecond);

void BM_SimEngineBareTable(benchmark::State& state) {
  engine_sim(state, duels::TableState{});
}
BENCHMARK(BM_SimEngineBareTable)->Unit(benchmark::kMillisecond);

// The baseline on its own, for its time per batch.
void BM_SimLineModel(benchmark::State& state) {
  const Matchup m = matchup();
  auto cache = duels::make_line_model_cache();
  (void)duels::simulate_line_model(m.a, m.b, 2000, 99, 100, cache);
  const int batch = 1000;
  std::uint64_t seed = 1;
  for (auto _ : state)
    benchmark::DoNotOptimize(duels::simulate_line_model(m.a, m.b, batch, seed++, 100, cache));
  state.counters["matches_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * batch, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SimLineModel)->Unit(benchmark::kMillisecond);

// The engine alone: the commands of 200 seeded demo-table matches, recorded once from the
// built-in opponent, replayed through the engine (no opponent searching). `quiet` is how the
// simulator plays (apply_quietly, no event text); otherwise apply writes every event's text,
// as a match at the table does.
struct Replay {
  duels::GameState start;
  std::vector<std::vector<duels::Command>> games;
};

const Replay& demo_replay() {
  static const Replay r = [] {
    const Matchup m = matchup();
    duels::MatchSetup setup;
    setup.table = demo_table();
    setup.teams.push_back({"A", {{m.a.figure, m.a.gear, std::nullopt}}});
    setup.teams.push_back({"B", {{m.b.figure, m.b.gear, std::nullopt}}});
    Replay out{*duels::new_game(setup), {}};
    auto odds = std::make_shared<duels::OddsCache>();
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      duels::GameState s = out.start;
      duels::AutoPlayer ai(seed, odds);
      auto& game = out.games.emplace_back();
      while (s.phase != duels::Phase::GameOver && s.round <= 100) {
        auto c = ai.next(s);
        if (!c || duels::apply_quietly(s, *c)) break;
        game.push_back(*c);
      }
    }
    return out;
  }();
  return r;
}

void engine_replay(benchmark::State& state, bool quiet) {
  const Replay& r = demo_replay();
  std::size_t commands = 0;
  for (auto _ : state) {
    for (const auto& game : r.games) {
      duels::GameState s = r.start;
      for (const auto& c : game) {
        if (quiet) {
          benchmark::DoNotOptimize(duels::apply_quietly(s, c));
        } else {
          benchmark::DoNotOptimize(duels::apply(s, c));
        }
      }
      commands += game.size();
    }
  }
  state.counters["matches_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * r.games.size()), benchmark::Counter::kIsRate);
  state.counters["commands_per_s"] =
      benchmark::Counter(static_cast<double>(commands), benchmark::Counter::kIsRate);
}

void BM_EngineReplayQuiet(benchmark::State& state) {
  engine_replay(state, true);
}
BENCHMARK(BM_EngineReplayQuiet)->Unit(benchmark::kMillisecond);

void BM_EngineReplayNarrated(benchmark::State& state) {
  engine_replay(state, false);
}
BENCHMARK(BM_EngineReplayNarrated)->Unit(benchmark::kMillisecond);

// One copy of the match state as the simulator makes it at the start of every match (and legal()
// for every question): the demo-table state after set-up, mid-way through the first replayed
// match.
void BM_GameStateCopy(benchmark::State& state) {
  const Replay& r = demo_replay();
  duels::GameState mid = r.start;
  const auto& game = r.games.front();
  for (std::size_t i = 0; i < game.size() / 2; ++i)
    (void)duels::apply_quietly(mid, game[i]);
  for (auto _ : state) {
    duels::GameState copy = mid;
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(BM_GameStateCopy);

}  // namespace

BENCHMARK_MAIN();

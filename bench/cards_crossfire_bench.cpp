// Crossfire damage allocation timings beside the exhaustive search, in the same run:
//   - the solver on 6 obstacles and 8 cards (issue 9 budget: ≤ 10 ms), 16 seeded tables, each
//     timed by its fastest repetition, the slowest table reported as worst_ms;
//   - the same with a Fireball among the cards (its 3 single levels make 10 card parts);
//   - the exhaustive search (every card beside every obstacle or none: 7^8 assignments, each
//     obstacle valued by the same per-obstacle programme, memoised) on the first table.
// A custom main prints the ratio and the budget after the table.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "bench/summary_reporter.hpp"
#include "cards/crossfire/allocate.hpp"

namespace cf = duels::cards::crossfire;

namespace {

/// A table: 4 runners, 6 obstacles of 2-4 levels facing them, 8 cards of 1-3 points (one
/// Lightning Bolt; with `fireball`, one card also has 3 single levels); the last three cards
/// are in hand, the rest played.
cf::AllocInput table(std::uint32_t seed, bool fireball) {
  std::mt19937 rng(seed);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  cf::AllocInput in;
  in.runners = {{"Cal", pick(2, 6), false},
                {"Rob", pick(2, 6), false},
                {"Jay", pick(2, 6), false},
                {"Jim", pick(2, 6), false}};
  for (int o = 0; o < 6; ++o) {
    cf::ObstacleCard c;
    c.name = "Obstacle " + std::to_string(o + 1);
    const int n = pick(2, 4);
    for (int i = 0; i < n; ++i) {
      c.track.push_back(pick(0, 1) == 0 ? cf::Level::any(pick(1, 4))
                                        : cf::Level::of(static_cast<cf::Colour>(pick(0, 3))));
    }
    c.attack = pick(0, 2);
    c.nuyen = pick(0, 4);
    c.threat = pick(0, 2);
    c.faces = in.runners[static_cast<std::size_t>(pick(0, 3))].name;
    in.obstacles.push_back(cf::AllocObstacle{c, {}});
  }
  for (int i = 0; i < 8; ++i) {
    cf::AllocCard k;
    k.bundle.name = "Card " + std::to_string(i + 1);
    if (i == 0) {
      k.bundle.levels = 2;
      k.bundle.mode = cf::LevelMode::Consecutive;
    } else {
      const int units = pick(1, 3);
      for (int u = 0; u < units; ++u) {
        if (pick(0, 1) == 0) {
          ++k.bundle.points.of(static_cast<cf::Colour>(pick(0, 3)));
        } else {
          ++k.bundle.points.colourless;
        }
      }
    }
    if (i == 1 && fireball) {
      k.bundle.levels = 3;
      k.bundle.mode = cf::LevelMode::Spread;
    }
    k.use = i < 5 ? cf::CardUse::Played : cf::CardUse::Offered;
    in.cards.push_back(k);
  }
  return in;
}

std::vector<cf::AllocInput> tables(bool fireball) {
  std::vector<cf::AllocInput> out;
  for (std::uint32_t seed = 1; seed <= 16; ++seed)
    out.push_back(table(seed, fireball));
  return out;
}

void run_solver(benchmark::State& state, bool fireball, std::size_t count) {
  auto inputs = tables(fireball);
  inputs.resize(std::min(count, inputs.size()));
  duels::bench::time_worst_input(state, inputs.size(), [&](std::size_t k) {
    auto r = cf::allocate(inputs[k]);
    benchmark::DoNotOptimize(r);
  });
}

void BM_Allocate_6x8(benchmark::State& state) {
  run_solver(state, false, 16);
}
void BM_Allocate_6x8_Fireball(benchmark::State& state) {
  run_solver(state, true, 16);
}
/// The first table only: the one the exhaustive search runs on.
void BM_Allocate_6x8_Table1(benchmark::State& state) {
  run_solver(state, false, 1);
}

void BM_Exhaustive_6x8_Table1(benchmark::State& state) {
  const cf::AllocInput in = table(1, false);
  for (auto _ : state) {
    auto r = cf::allocate_exhaustive(in, cf::Evaluator::Programme);
    benchmark::DoNotOptimize(r);
  }
  // The solver's answer is never beaten (a check, not a timing).
  const auto ours = cf::allocate(in);
  const auto best = cf::allocate_exhaustive(in, cf::Evaluator::Programme);
  state.counters["same_score"] = ours && best && ours->score == best->score ? 1 : 0;
}

BENCHMARK(BM_Allocate_6x8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Allocate_6x8_Fireball)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Allocate_6x8_Table1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Exhaustive_6x8_Table1)->Unit(benchmark::kMillisecond)->Iterations(1);

/// Keeps each benchmark's mean real time (ms) and counters, for the summary printed at the end.
class RatioReporter : public duels::bench::SummaryReporter {
 public:
  void print_summary() const override {
    std::printf("\nOurs against the exhaustive search (same table, same run):\n");
    const double a = time("BM_Allocate_6x8_Table1");
    const double b = time("BM_Exhaustive_6x8_Table1");
    if (a > 0 && b > 0) {
      std::printf("  %-44s %10.4f ms vs %10.1f ms  → %.0f× faster (same score: %s)\n",
                  "allocation, 6 obstacles, 8 cards", a, b, b / a,
                  counter("BM_Exhaustive_6x8_Table1/same_score") > 0 ? "yes" : "NO");
    }
    std::printf("\nBudget (issue 9):\n");
    budget("allocation, 6 obstacles, 8 cards (slowest of 16 tables)",
           counter("BM_Allocate_6x8/worst_ms"), 10.0);
    budget("allocation, 6 obstacles, 8 cards with a Fireball (slowest of 16 tables)",
           counter("BM_Allocate_6x8_Fireball/worst_ms"), 10.0);
  }
};

}  // namespace

int main(int argc, char** argv) {
  return duels::bench::run_with_summary<RatioReporter>(argc, argv);
}

// Exact attack odds: the DP of duels/odds.cpp beside full enumeration of every face combination.
//
// The target is one 6-vs-6 query (mixed dice up to d12) ≤ 2 ms on one core. Full
// enumeration of that query would visit 12^12 outcomes, so the baseline is timed on the largest
// pools it can finish (3 vs 3 and 4 vs 3 of the same mix), the DP on those same pools and on
// the 6-vs-6 query; the `ratio` counter prints enumeration time / DP time for the shared pools.
#include <benchmark/benchmark.h>

#include <chrono>

#include "dice/notation.hpp"
#include "duels/odds.hpp"

namespace {

duels::OddsQuery query(const char* attack, const char* dodge) {
  duels::OddsQuery q;
  q.weapon = 7;
  q.body = 9;
  q.attack = *duels::dice::parse_pool(attack);
  q.dodge = *duels::dice::parse_pool(dodge);
  q.shields = {duels::dice::Colour::Yellow, duels::dice::Colour::Blue};
  q.bonus = {{duels::dice::Colour::Yellow, 1}, {duels::dice::Colour::Green, 2}};
  return q;
}

const char* kAttack6 = "yellow:d6:ace yellow:d8 blue:d10:ace green:d12 black:d12:ace red:d8";
const char* kDodge6 = "white:d6 white:d8 yellow:d6:ace white:d12 yellow:d10 white:d4";
const char* kAttack3 = "yellow:d6:ace blue:d10:ace green:d12";
const char* kAttack4 = "yellow:d6:ace yellow:d8 blue:d10:ace green:d12";
const char* kDodge3 = "white:d6 white:d8 yellow:d6:ace";

double seconds_of(const duels::OddsQuery& q, bool enumerate, int reps) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) {
    benchmark::DoNotOptimize(enumerate ? duels::attack_odds_enumerated(q) : duels::attack_odds(q));
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
}

void BM_OddsDP_6v6(benchmark::State& state) {
  const auto q = query(kAttack6, kDodge6);
  for (auto _ : state)
    benchmark::DoNotOptimize(duels::attack_odds(q));
}
BENCHMARK(BM_OddsDP_6v6)->Unit(benchmark::kMillisecond);

void BM_OddsDP_3v3(benchmark::State& state) {
  const auto q = query(kAttack3, kDodge3);
  for (auto _ : state)
    benchmark::DoNotOptimize(duels::attack_odds(q));
}
BENCHMARK(BM_OddsDP_3v3)->Unit(benchmark::kMillisecond);

void BM_OddsEnumerated_3v3(benchmark::State& state) {
  const auto q = query(kAttack3, kDodge3);
  for (auto _ : state)
    benchmark::DoNotOptimize(duels::attack_odds_enumerated(q));
  state.counters["ratio_vs_dp"] = seconds_of(q, true, 1) / seconds_of(q, false, 20);
}
BENCHMARK(BM_OddsEnumerated_3v3)->Unit(benchmark::kMillisecond);

void BM_OddsDP_4v3(benchmark::State& state) {
  const auto q = query(kAttack4, kDodge3);
  for (auto _ : state)
    benchmark::DoNotOptimize(duels::attack_odds(q));
}
BENCHMARK(BM_OddsDP_4v3)->Unit(benchmark::kMillisecond);

void BM_OddsEnumerated_4v3(benchmark::State& state) {
  const auto q = query(kAttack4, kDodge3);
  for (auto _ : state)
    benchmark::DoNotOptimize(duels::attack_odds_enumerated(q));
  state.counters["ratio_vs_dp"] = seconds_of(q, true, 1) / seconds_of(q, false, 20);
}
BENCHMARK(BM_OddsEnumerated_4v3)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();

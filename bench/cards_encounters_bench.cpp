// Encounters helper timings, each beside a brute-force baseline in the same run:
//   - the match finder, 8 dice and five Shadowrunners (issue 8 budget: ≤ 1 ms), against a
//     search that tries every order of every ability on every die;
//   - the advisor, an answer from a fresh turn (budget: ≤ 100 ms from any state), against the
//     same recursion walking every ordered roll and subset at each state;
//   - exact odds by face multisets against walking all 6^k rolls.
// A custom main prints "ours vs baseline" ratios and the budgets after the table.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bench/summary_reporter.hpp"
#include "cards/encounters/advisor.hpp"
#include "cards/encounters/match.hpp"
#include "cards/encounters/odds.hpp"
#include "dice/roller.hpp"

namespace enc = duels::cards::encounters;

namespace {

/// Five Shadowrunners; with `all_keywords` every keyword ability is live (10 abilities),
/// otherwise only Metahuman (6 abilities, a usual hand).
enc::MatchQuery five_runners(bool all_keywords) {
  enc::MatchQuery q;
  q.keywords = all_keywords ? std::vector<std::string>{"metahuman", "megacorporation", "magic"}
                            : std::vector<std::string>{"metahuman"};
  for (const char* spec :
       {"Topshelf: wild 2,5; metahuman: +1; red", "Contrary Mary: wild 4,6; megacorporation: +1",
        "Fixer: +-1; cost 4", "Medic: -1; magic: +2", "Decker: +2; purple"}) {
    q.cards.push_back(enc::HandCard{*enc::parse_runner(spec), 0, false});
  }
  q.max_solutions = 20;
  return q;
}

/// 64 seeded rolls of 8 dice with values 1..40.
std::vector<enc::MatchQuery> rolls(bool all_keywords, int count) {
  duels::dice::Rng rng(2024);
  std::vector<enc::MatchQuery> out;
  for (int i = 0; i < count; ++i) {
    enc::MatchQuery q = five_runners(all_keywords);
    for (int d = 0; d < 8; ++d)
      q.dice.push_back(rng.uniform(6));
    q.value = rng.uniform(40);
    out.push_back(q);
  }
  return out;
}

/// Cycles through 64 rolls; `worst_ms` is the slowest roll, each roll timed by its fastest
/// repetition (so a roll's own cost, not a cold cache or another process, sets the worst case).
void run_finder(benchmark::State& state, bool all_keywords, int roll_count = 64) {
  const auto queries = rolls(all_keywords, roll_count);
  duels::bench::time_worst_input(state, queries.size(), [&](std::size_t k) {
    auto r = enc::find_matches(queries[k]);
    benchmark::DoNotOptimize(r);
  });
}

void BM_MatchFinder_6abilities(benchmark::State& state) {
  run_finder(state, false);
}
void BM_MatchFinder_10abilities(benchmark::State& state) {
  run_finder(state, true);
}
/// The same four rolls as the brute-force baseline.
void BM_MatchFinder_6abilities_4rolls(benchmark::State& state) {
  run_finder(state, false, 4);
}

void BM_MatchFinderBruteForce_6abilities(benchmark::State& state) {
  const auto queries = rolls(false, 4);
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = enc::brute_force_matches(queries[i++ % queries.size()]);
    benchmark::DoNotOptimize(r);
  }
}

void BM_Advisor_FreshTurn_Cap8(benchmark::State& state) {
  for (auto _ : state) {
    enc::Advisor advisor{enc::AdvisorSettings{}};  // no memo carried between answers
    benchmark::DoNotOptimize(advisor.push(1, 6, 0));
  }
}

/// The heaviest answer the CLI gives: lock advice for 8 dice and the 10-ability hand, plus
/// push, Datasteal and burn numbers, from scratch.
void BM_Advisor_FullAnswer(benchmark::State& state) {
  const auto queries = rolls(true, 16);
  std::size_t i = 0;
  for (auto _ : state) {
    enc::Advisor advisor{enc::AdvisorSettings{}};
    const auto& q = queries[i++ % queries.size()];
    auto found = enc::find_matches(q);
    auto lock = enc::advise_lock(advisor, 1, 0, 0, *found, 8);
    auto push = enc::advise_push(advisor, 2, 3, 9);
    auto steal = enc::advise_steal(advisor, 2, 3, 9);
    benchmark::DoNotOptimize(lock);
    benchmark::DoNotOptimize(push);
    benchmark::DoNotOptimize(steal);
  }
}

enc::AdvisorSettings cap3() {
  enc::AdvisorSettings s;
  s.column_cap = 3;
  return s;
}

void BM_Advisor_FreshTurn_Cap3(benchmark::State& state) {
  for (auto _ : state) {
    enc::Advisor advisor{cap3()};
    benchmark::DoNotOptimize(advisor.push(1, 6, 0));
  }
}

void BM_AdvisorBruteForce_FreshTurn_Cap3(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(enc::brute_force_push(cap3(), 1, 6, 0));
}

void BM_PlainOdds_6dice(benchmark::State& state) {
  for (auto _ : state) {
    for (int v = 1; v <= 36; ++v)
      benchmark::DoNotOptimize(enc::plain_odds(6, v));
  }
}

void BM_PlainOddsBruteForce_6dice(benchmark::State& state) {
  for (auto _ : state) {
    for (int v = 1; v <= 36; ++v)
      benchmark::DoNotOptimize(enc::brute_force_plain_odds(6, v));
  }
}

BENCHMARK(BM_MatchFinder_6abilities)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatchFinder_6abilities_4rolls)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatchFinderBruteForce_6abilities)->Unit(benchmark::kMillisecond)->Iterations(4);
BENCHMARK(BM_MatchFinder_10abilities)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Advisor_FreshTurn_Cap8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Advisor_FullAnswer)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Advisor_FreshTurn_Cap3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AdvisorBruteForce_FreshTurn_Cap3)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_PlainOdds_6dice)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlainOddsBruteForce_6dice)->Unit(benchmark::kMillisecond)->Iterations(3);

/// Keeps each benchmark's mean real time (ms) and counters, for the ratios printed at the end.
class RatioReporter : public duels::bench::SummaryReporter {
 public:
  void print_summary() const override {
    std::printf("\nOurs against the brute-force baselines (same inputs, same run):\n");
    ratio("match finder, 8 dice, 6 usable abilities", "BM_MatchFinder_6abilities_4rolls",
          "BM_MatchFinderBruteForce_6abilities");
    ratio("advisor, fresh turn, column cap 3", "BM_Advisor_FreshTurn_Cap3",
          "BM_AdvisorBruteForce_FreshTurn_Cap3");
    ratio("exact odds, 6 dice, V = 1..36", "BM_PlainOdds_6dice", "BM_PlainOddsBruteForce_6dice");
    std::printf("\nBudgets (issue 8):\n");
    budget("match finder, 8 dice, five runners, 6 abilities (slowest of 64 rolls)",
           counter("BM_MatchFinder_6abilities/worst_ms"), 1.0);
    budget("match finder, 8 dice, five runners, 10 abilities (slowest of 64 rolls)",
           counter("BM_MatchFinder_10abilities/worst_ms"), 1.0);
    budget("advisor answer from a fresh turn (column cap 8)", time("BM_Advisor_FreshTurn_Cap8"),
           100.0);
    budget("advisor full answer: lock sizes with 10 abilities, push, Datasteal",
           time("BM_Advisor_FullAnswer"), 100.0);
  }

 private:
  void ratio(const char* what, const std::string& ours, const std::string& base) const {
    const double a = time(ours);
    const double b = time(base);
    if (a <= 0 || b <= 0) return;  // filtered out
    std::printf("  %-44s %10.4f ms vs %10.2f ms  → %.0f× faster\n", what, a, b, b / a);
  }
};

}  // namespace

int main(int argc, char** argv) {
  return duels::bench::run_with_summary<RatioReporter>(argc, argv);
}

// SRTCG helper timings, each beside a brute-force baseline in the same run:
//   - the suggested damage split (subsets of deaths + a DP) against trying every legal split;
//   - the cheapest pumps (a knapsack) against trying every pump count;
//   - the Bad Shuffle risk (hypergeometric) against counting every opening hand;
//   - the tracker: replaying a journaled game's commands, against replaying them from JSON.
// A custom main prints "ours vs baseline" ratios after the table.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench/summary_reporter.hpp"
#include "cards/srtcg/combat.hpp"
#include "cards/srtcg/console.hpp"
#include "cards/srtcg/deck.hpp"
#include "cards/srtcg/json.hpp"
#include "dice/roller.hpp"

namespace sr = duels::cards::srtcg;

namespace {

/// Seeded teams of `n` runners (armor, damage, pumps, Stamina) and an incoming attack.
struct SplitCase {
  std::vector<sr::Combatant> team;
  int incoming = 0;
};

std::vector<SplitCase> split_cases(int n, int count) {
  duels::dice::Rng rng(606);
  std::vector<SplitCase> out;
  for (int k = 0; k < count; ++k) {
    SplitCase c;
    for (int i = 0; i < n; ++i) {
      sr::Combatant x;
      x.name = "r" + std::to_string(i);
      x.attack = rng.uniform(7);
      x.body = rng.uniform(5) + 1;
      x.armor = rng.uniform(3) - 1;
      x.damage = rng.uniform(x.body) - 1;
      x.stamina = rng.uniform(4) == 1;
      x.role = rng.uniform(5) == 1 ? sr::Role::Drone : sr::Role::Runner;
      c.team.push_back(x);
    }
    c.incoming = 6 + rng.uniform(10);
    out.push_back(c);
  }
  return out;
}

/// The baseline: every legal split, scored like the suggestion (deaths, then Attack lost).
sr::Split brute_force_split(const std::vector<sr::Combatant>& team, int incoming) {
  int capacity = 0;
  for (const auto& c : team)
    capacity += sr::damage_capacity(c, false);
  const int total = std::min(incoming, capacity);
  std::vector<int> raw(team.size(), 0);
  sr::Split best;
  long long best_score = -1;
  std::function<void(std::size_t, int)> rec = [&](std::size_t i, int left) {
    if (i == team.size()) {
      if (left != 0) return;
      const sr::Split s = sr::make_split(team, raw, false, incoming);
      long long score = 0;
      for (std::size_t k = 0; k < team.size(); ++k) {
        if (s.dies[k] || s.dies_end_of_turn[k]) {
          score += team[k].role == sr::Role::Drone ? 1'000'000 : 100'000'000;
        } else if (!team[k].stamina) {
          const int before = std::max(0, team[k].attack - team[k].damage);
          score += (before - std::max(0, before - s.taken[k])) * 1000 + s.taken[k];
        }
      }
      if (best_score < 0 || score < best_score) {
        best_score = score;
        best = s;
      }
      return;
    }
    for (int x = 0; x <= std::min(left, sr::damage_capacity(team[i], false)); ++x) {
      raw[i] = x;
      rec(i + 1, left - x);
    }
    raw[i] = 0;
  };
  rec(0, total);
  return best;
}

void BM_SuggestSplit_6(benchmark::State& state) {
  const auto cases = split_cases(6, 16);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& c = cases[i++ % cases.size()];
    benchmark::DoNotOptimize(sr::suggest_split(c.team, c.incoming, false));
  }
}

void BM_SuggestSplitBruteForce_6(benchmark::State& state) {
  const auto cases = split_cases(6, 16);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& c = cases[i++ % cases.size()];
    benchmark::DoNotOptimize(brute_force_split(c.team, c.incoming));
  }
}

void BM_SuggestSplit_12(benchmark::State& state) {
  const auto cases = split_cases(12, 16);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& c = cases[i++ % cases.size()];
    benchmark::DoNotOptimize(sr::suggest_split(c.team, c.incoming, false));
  }
}

struct PumpCase {
  std::vector<sr::Combatant> team;
  std::vector<sr::Pump> pumps;
  sr::Opponent opponent;
};

std::vector<PumpCase> pump_cases(int count) {
  duels::dice::Rng rng(707);
  std::vector<PumpCase> out;
  for (int k = 0; k < count; ++k) {
    PumpCase c;
    for (int i = 0; i < 4; ++i) {
      sr::Combatant x;
      x.attack = rng.uniform(5) - 1;
      x.body = 4;
      c.team.push_back(x);
      c.pumps.push_back(sr::Pump{rng.uniform(3), rng.uniform(2), 0});
    }
    c.opponent = sr::Opponent{"o", 3, 10 + rng.uniform(10), rng.uniform(3) - 1, false};
    out.push_back(c);
  }
  return out;
}

constexpr int kPumpBudget = 12;

void BM_MinPumpPlan(benchmark::State& state) {
  const auto cases = pump_cases(16);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& c = cases[i++ % cases.size()];
    benchmark::DoNotOptimize(sr::min_pump_plan(c.team, c.pumps, c.opponent, false, kPumpBudget));
  }
}

void BM_MinPumpPlanBruteForce(benchmark::State& state) {
  const auto cases = pump_cases(16);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& c = cases[i++ % cases.size()];
    int best = 1 << 30;
    std::vector<int> k(c.team.size(), 0);
    std::function<void(std::size_t, int)> rec = [&](std::size_t j, int spent) {
      if (spent > kPumpBudget) return;
      if (j == c.team.size()) {
        auto t = c.team;
        for (std::size_t m = 0; m < t.size(); ++m)
          t[m].attack += k[m] * c.pumps[m].attack;
        if (sr::team_damage(t, c.opponent).defeated) best = std::min(best, spent);
        return;
      }
      for (int x = 0; x <= (c.pumps[j].cost > 0 ? kPumpBudget : 0); ++x) {
        k[j] = x;
        rec(j + 1, spent + x * c.pumps[j].cost);
      }
      k[j] = 0;
    };
    rec(0, 0);
    benchmark::DoNotOptimize(best);
  }
}

void BM_BadShuffleRisk(benchmark::State& state) {
  for (auto _ : state) {
    for (int challenges = 0; challenges <= 20; ++challenges)
      benchmark::DoNotOptimize(sr::p_none_in_hand(24, challenges, 7));
  }
}

void BM_BadShuffleRiskCounting(benchmark::State& state) {
  for (auto _ : state) {
    for (int challenges = 0; challenges <= 20; ++challenges) {
      long clean = 0;
      long hands = 0;
      for (std::uint32_t m = 0; m < (1U << 24); m += 1) {
        if (__builtin_popcount(m) != 7) continue;
        ++hands;
        clean += (m & ((1U << challenges) - 1U)) == 0 ? 1 : 0;
      }
      benchmark::DoNotOptimize(static_cast<double>(clean) / static_cast<double>(hands));
    }
  }
}

/// A long game played through the console: its log of commands.
std::vector<sr::Command> game_log() {
  sr::Console c(11);
  std::vector<std::string> lines = {"player Alice", "player Bob", "start Alice"};
  for (int round = 0; round < 20; ++round) {
    for (const char* who : {"Alice", "Bob"}) {
      lines.push_back(std::string("place ") + who + "'s Job " + std::to_string(round) + ": rep 1");
      for (const char* l : {"next", "payday", "next", "next"})
        lines.emplace_back(l);
      lines.push_back("deploy Runner " + std::to_string(round) + ": 3/3; Fame; cost 1");
      for (const char* l : {"next", "next", "discard 1", "next"})
        lines.emplace_back(l);
    }
  }
  for (const auto& l : lines)
    c.handle(l);
  return c.session().log();
}

void BM_ReplayCommands(benchmark::State& state) {
  const auto log = game_log();
  for (auto _ : state)
    benchmark::DoNotOptimize(sr::replay(sr::State{}, log));
  state.counters["commands"] = static_cast<double>(log.size());
}

void BM_ReplayFromJson(benchmark::State& state) {
  const auto log = game_log();
  std::vector<std::string> lines;
  for (const auto& c : log)
    lines.push_back(nlohmann::json(c).dump());
  for (auto _ : state) {
    std::vector<sr::Command> parsed;
    for (const auto& l : lines)
      parsed.push_back(*sr::parse_command(nlohmann::json::parse(l)));
    benchmark::DoNotOptimize(sr::replay(sr::State{}, parsed));
  }
}

BENCHMARK(BM_SuggestSplit_6)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SuggestSplitBruteForce_6)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SuggestSplit_12)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MinPumpPlan)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MinPumpPlanBruteForce)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BadShuffleRisk)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BadShuffleRiskCounting)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_ReplayCommands)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReplayFromJson)->Unit(benchmark::kMillisecond);

/// Keeps each benchmark's mean real time (ms), for the ratios printed at the end.
class RatioReporter : public duels::bench::SummaryReporter {
 public:
  void print_summary() const override {
    std::printf("\nOurs against the baselines (same inputs, same run):\n");
    ratio("suggested split, 6 targets", "BM_SuggestSplit_6", "BM_SuggestSplitBruteForce_6");
    ratio("cheapest pumps, 4 runners, 12¥", "BM_MinPumpPlan", "BM_MinPumpPlanBruteForce");
    ratio("Bad Shuffle risk, 24 cards, 0-20 Challenges", "BM_BadShuffleRisk",
          "BM_BadShuffleRiskCounting");
    ratio("replay a whole game (in memory vs from JSON)", "BM_ReplayCommands", "BM_ReplayFromJson");
  }

 private:
  void ratio(const char* what, const std::string& ours, const std::string& base) const {
    const double a = time(ours);
    const double b = time(base);
    if (a <= 0 || b <= 0) return;
    std::printf("  %-52s %10.4f ms vs %10.4f ms  → %.1f× faster\n", what, a, b, b / a);
  }
};

}  // namespace

int main(int argc, char** argv) {
  return duels::bench::run_with_summary<RatioReporter>(argc, argv);
}
